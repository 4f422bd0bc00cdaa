package maekawa_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/maekawa"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestStarvationFreedom pins starvation-freedom with and without yield
// handling, under both choice modes (Maekawa draws nothing).
func TestStarvationFreedom(t *testing.T) {
	spectest.Liveness(t, maekawa.Spec, "testdata/liveness.txt", []spectest.Case{
		{Name: "diagonal-classic", Params: model.Values{"requesters": "0,3"}},
		{Name: "diagonal-yield", Params: model.Values{"requesters": "0,3", "variant": "yield"}},
		{Name: "diagonal-yield-fail-displaced", Params: model.Values{"requesters": "0,3", "variant": "yield-fail-displaced"}},
		{Name: "three-classic", Params: model.Values{"requesters": "0,1,2"}},
		{Name: "three-yield", Params: model.Values{"requesters": "0,1,2", "variant": "yield"}},
		{Name: "three-yield-fail-displaced", Params: model.Values{"requesters": "0,1,2", "variant": "yield-fail-displaced"}},
		{Name: "diagonal-churn-1", Params: model.Values{"requesters": "0,3", "variant": "yield-fail-displaced", "churn": "1"}},
	})
}
