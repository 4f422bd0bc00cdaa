package history_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/history"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// lockLike are configurations of the specs whose property is a lock, chosen
// so that some walks break mutual exclusion and most do not.
// lme's mutual exclusion is per node (each node a lock, held by the nodes
// whose lock sets hold it) and cannot fail by construction (a node's lock
// variable names one port), so only its agreement on legal walks is tested.
var lockLike = []struct {
	spec     string
	params   model.Values
	violable bool
}{
	{"ra", model.Values{"churn": "1", "requests": "2"}, true},
	{"camera", model.Values{"churn": "1", "requests": "2"}, true},
	{"maekawa", model.Values{"requesters": "0,3", "variant": "yield-fail-displaced", "churn": "2", "requests": "2"}, true},
	{"tokenlock", model.Values{"mutant": "eager-enter", "requests": "2"}, true},
	{"lme", model.Values{"nodes": "3", "connects": "1", "disconnects": "1", "locks": "2", "variant": "repaired"}, false},
}

func build(t testing.TB, name string, params model.Values) model.System {
	t.Helper()
	spec := specs.Lookup(name)
	sys, _, err := spec.Compile(params)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// agreement runs walks random walks of sys (seed 1, as simulate's runs) and
// counts those where checking the CS history against m disagrees with the
// mutual-exclusion invariant, and those that violate it.
func agreement(t *testing.T, sys model.System, m history.Model, walks int) (disagree, violating int) {
	var me model.Invariant
	for _, iv := range sys.Invariants() {
		if iv.Name == "mutual-exclusion" {
			me = iv
		}
	}
	for i := 0; i < walks; i++ {
		states, steps, _ := explore.Walk(sys, explore.RunSeed(1, i), 100, false)
		violated := false
		for _, s := range states {
			violated = violated || !me.Holds(s)
		}
		h, err := history.FromTrace(sys, states, steps)
		if err != nil {
			t.Fatal(err)
		}
		res := history.Check(h.Ops, m, h.ByKey, 0)
		if res.Verdict == history.Unknown {
			t.Fatalf("walk %d: porcupine timed out", i)
		}
		if (res.Verdict == history.NotLinearizable) != violated {
			disagree++
			if disagree == 1 {
				t.Logf("walk %d (seed %d): mutual-exclusion violated %v, porcupine against %v: %v", i, explore.RunSeed(1, i), violated, m, res.Verdict)
			}
		}
		if violated {
			violating++
		}
	}
	return disagree, violating
}

// TestPorcupineAgreesOnWalks: on 10,000 random walks of each lock-like
// spec, porcupine (the CS history against a mutex) and the mutual-exclusion
// invariant give the same verdict; a lock model that admits two holders (a
// mutant oracle) must disagree on some walk.
func TestPorcupineAgreesOnWalks(t *testing.T) {
	walks := 10_000
	if testing.Short() {
		walks = 1_000
	}
	for _, c := range lockLike {
		t.Run(c.spec, func(t *testing.T) {
			t.Parallel()
			sys := build(t, c.spec, c.params)
			disagree, violating := agreement(t, sys, history.Model{Kind: "mutex"}, walks)
			if disagree > 0 {
				t.Errorf("porcupine and mutual-exclusion disagree on %d of %d walks", disagree, walks)
			}
			if !c.violable {
				if violating > 0 {
					t.Errorf("%d walks violate mutual exclusion", violating)
				}
				return
			}
			if violating == 0 || violating == walks {
				t.Errorf("%d of %d walks violate mutual exclusion: the agreement is vacuous", violating, walks)
			}
			t.Logf("%d walks, %d violate mutual exclusion", walks, violating)
			if d, _ := agreement(t, sys, history.Model{Kind: "semaphore", Permits: 2}, min(walks, 2000)); d == 0 {
				t.Error("a two-holder lock model agrees with mutual-exclusion on every walk: the test cannot see a broken oracle")
			}
		})
	}
}
