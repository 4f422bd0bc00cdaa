package model_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lme"
	"github.com/mxcheck/mxcheck/specs/ra"
)

// TestKeyHint: the key of a successor as Successors yields it (built from
// its parent's node encodings, copying the nodes the step left alone) is
// the key of the same state without the hint, for every successor of the
// first few thousand states of RA with a crash and of lme with link churn:
// node steps and adversary moves alike.
func TestKeyHint(t *testing.T) {
	// Keyed by their encodings: with RawKey there is no hint.
	raP := ra.Protocol
	raP.RawKey = false
	lmeP := lme.Protocol(1)
	lmeP.RawKey = false
	raSys, err := model.Compile(&raP, model.Config{Nodes: 4, Requests: 1, Budget: model.Budget{Crashes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	lmeSys, err := model.Compile(lmeP, model.Config{Nodes: 3, Delta: 2, Requests: 1, Budget: model.Budget{Connects: 1, Disconnects: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, sys := range []model.System{raSys, lmeSys} {
		checkKeyHint(t, sys)
	}
}

func checkKeyHint(t *testing.T, sys model.System) {
	t.Helper()
	queue := sys.Init()
	seen := map[string]bool{string(sys.AppendKey(nil, queue[0])): true}
	steps, adversary := 0, 0
	for len(queue) > 0 && len(seen) < 3000 {
		st := queue[0]
		queue = queue[1:]
		sys.Successors(st, func(tr model.Transition, next model.State) bool {
			hinted := string(sys.AppendKey(nil, next))
			clone := sys.Clone(next)
			if plain := string(sys.AppendKey(nil, clone)); hinted != plain {
				t.Fatalf("%v: hinted key %x, want %x", tr, hinted, plain)
			}
			if tr.Kind == model.AdversaryStep {
				adversary++
			} else {
				steps++
			}
			if !seen[hinted] {
				seen[hinted] = true
				queue = append(queue, clone)
			}
			return true
		})
	}
	if steps == 0 || adversary == 0 {
		t.Fatalf("%d node steps, %d adversary moves: both kinds must be checked", steps, adversary)
	}
}
