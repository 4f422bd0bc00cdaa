package explore_test

import (
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

// Issue 16: simulate reports, per sometimes property, how many runs reached
// it and how soon, and lists those no run reached; a sometimes property that
// does not hold is never a violation of a walk.
func TestSimulateSometimes(t *testing.T) {
	sys := buildSpec(t, "ra", model.Values{"nodes": "3"})
	r, text := simText(t, sys, explore.SimOptions{Runs: 100, Seed: 1})
	if r.Outcome != explore.NoneFound || r.Runs != 100 {
		t.Fatalf("outcome %s after %d runs: a sometimes property that does not hold yet was taken for a violation", r.Outcome, r.Runs)
	}
	if len(r.Witnesses) != 1 || r.Witnesses[0].Name != "cs-entered" || r.Witnesses[0].Runs != 100 || len(r.Unreached) != 0 {
		t.Fatalf("witnesses %+v, unreached %v", r.Witnesses, r.Unreached)
	}
	// Six steps is the fewest: a request, two requests received, two OKs
	// received, the entry (the BFS witness of check ra --nodes 3).
	if w := r.Witnesses[0]; w.FirstStep < 6 || w.FirstRun < 0 {
		t.Errorf("first witness after %d steps in run %d, fewer than the BFS's 6", w.FirstStep, w.FirstRun)
	}
	if !strings.Contains(text, "sometimes cs-entered: reached in 100 of 100 runs, first after ") {
		t.Errorf("text:\n%s", text)
	}
	_, again := simText(t, sys, explore.SimOptions{Runs: 100, Seed: 1, Workers: 3})
	if again != text {
		t.Errorf("witness figures depend on the workers:\n%s\n%s", text, again)
	}

	idle := buildSpec(t, "ra", model.Values{"nodes": "3", "requests": "0"})
	r, text = simText(t, idle, explore.SimOptions{Runs: 10, Seed: 1})
	if r.Outcome != explore.NoneFound || len(r.Unreached) != 1 || r.Unreached[0] != "cs-entered" || r.Witnesses[0].Runs != 0 || r.Witnesses[0].FirstStep != -1 {
		t.Errorf("outcome %s, witnesses %+v, unreached %v", r.Outcome, r.Witnesses, r.Unreached)
	}
	for _, want := range []string{"sometimes cs-entered: reached in no run\n", "sometimes properties no run reached: cs-entered", "outcome: no violation found in 10 runs"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}
