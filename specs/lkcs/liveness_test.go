package lkcs_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lkcs"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestSequenceCompletion pins Definition 1's liveness (every started entry
// or exit sequence completes) under weak fairness, with and without the
// trigger and with the repairs. A process that stops between sequences
// (--changes spent) can leave another waiting, so a failure here needs its
// lasso read (see doc.go).
func TestSequenceCompletion(t *testing.T) {
	spectest.Liveness(t, lkcs.Spec, "testdata/liveness.txt", []spectest.Case{
		{Name: "n2-l0k2", Params: n2},
		{Name: "n2-l0k2-no-trigger", Params: with(n2, model.Values{"variant": "no-trigger"})},
		{Name: "n2-l0k2-trigger-repaired", Params: with(n2, model.Values{"variant": "trigger-repaired"})},
		{Name: "path3-l0k3-trigger-repaired", Params: with(path3, model.Values{"variant": "trigger-repaired"})},
	})
}
