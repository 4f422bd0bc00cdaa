package explore

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/ra"
)

// TestClassWeights: a run whose adversary weight is 0 is churn-free while
// the protocol runs (the adversary moves only once nothing else can), and
// other runs churn in the middle of the protocol.
func TestClassWeights(t *testing.T) {
	sys, _, err := ra.Spec.Compile(model.Values{"churn": "2", "requests": "2"})
	if err != nil {
		t.Fatal(err)
	}
	w := newWalker(sys, sys.Invariants(), actionNames(sys), false, 1000)
	churnFree, midChurn := 0, 0
	for i := 0; i < 300; i++ {
		r := w.run(i, RunSeed(9, i))
		adversarySeen, churnedMid := false, false
		for _, st := range r.steps {
			if st.Kind == model.AdversaryStep {
				adversarySeen = true
			} else if adversarySeen {
				churnedMid = true
			}
		}
		if r.weights[classAdversary] == 0 {
			churnFree++
			if churnedMid {
				t.Fatalf("run %d weighs the adversary 0 (weights %v) but churns mid-protocol", i, r.weights)
			}
		}
		if churnedMid {
			midChurn++
		}
	}
	if churnFree < 10 || midChurn < 50 {
		t.Errorf("%d churn-free runs, %d runs churning mid-protocol, of 300", churnFree, midChurn)
	}
}
