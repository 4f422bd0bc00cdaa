package camera_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/camera"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestStarvationFreedom pins starvation-freedom (Camera's Theorem on
// liveness) on full, missing and churned memberships, under both choice
// modes (Camera draws nothing, so they must agree).
func TestStarvationFreedom(t *testing.T) {
	spectest.Liveness(t, camera.Spec, "testdata/liveness.txt", []spectest.Case{
		{Name: "full-3", Params: model.Values{}},
		{Name: "asymmetric-ignorance", Params: model.Values{"missing": "1:0"}},
		{Name: "symmetric-ignorance", Params: model.Values{"missing": "0:1,1:0"}},
		{Name: "churn-1", Params: model.Values{"churn": "1"}},
		{Name: "churn-1-ask-recently-oked", Params: model.Values{"churn": "1", "variant": "ask-recently-oked"}},
		{Name: "mutant-forget-deferred", Params: model.Values{"mutant": "forget-deferred"}},
	})
}
