package ra_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/mxtest"
	"github.com/mxcheck/mxcheck/specs/ra"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestFewestChurnedEntries: RA on three nodes with full lists survives no
// churn, and one churned entry breaks it (shortest trace: 11 steps).
func TestFewestChurnedEntries(t *testing.T) {
	mxtest.Check(t, ra.Spec, model.Values{"churn": "0"})
	mxtest.Violates(t, ra.Spec, model.Values{"churn": "1"}, "mutual-exclusion", 11)
}

// TestBadConfigurations checks that impossible configurations are errors,
// never panics.
func TestBadConfigurations(t *testing.T) {
	for name, v := range map[string]model.Values{
		"missing-out-of-range": {"missing": "3:0"},
		"missing-self":         {"missing": "1:1"},
		"missing-garbage":      {"missing": "1-0"},
		"negative-requests":    {"requests": "-1"},
		"too-many-nodes":       {"nodes": "17"},
		"zero-nodes":           {"nodes": "0"},
		"churn-too-big":        {"churn": "7"},
		"unknown-mutant":       {"mutant": "bogus"},
		"not-a-number":         {"nodes": "three"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, err := ra.Spec.Compile(v); err == nil {
				t.Errorf("Build(%v) succeeded, want an error", v)
			}
		})
	}
}

// TestKeyInjective: over random node states and messages, equal values
// have equal encodings and different values different encodings.
func TestKeyInjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	node := func() ra.Node {
		return ra.Node{State: ra.Phase(rng.IntN(3)), HSN: uint8(rng.IntN(3)), TS: uint8(rng.IntN(3)),
			Awaiting: model.NodeSet(rng.IntN(4)), Deferred: model.NodeSet(rng.IntN(4) << 14)}
	}
	msg := func() ra.Msg { return ra.Msg{Kind: ra.Kind(rng.IntN(2)), TS: uint8(rng.IntN(3))} }
	for i := 0; i < 20000; i++ {
		a, b := node(), node()
		if (a == b) != (string(a.AppendKey(nil)) == string(b.AppendKey(nil))) {
			t.Fatalf("node key not injective: %+v %+v", a, b)
		}
		m, n := msg(), msg()
		if (m == n) != (string(m.AppendKey(nil)) == string(n.AppendKey(nil))) {
			t.Fatalf("message key not injective: %+v %+v", m, n)
		}
	}
}

// TestStateKeys: over random reachable states of RA, two states have equal
// keys exactly when they are deeply equal.
func TestStateKeys(t *testing.T) {
	sys, _ := spectest.Build(t, ra.Spec, model.Values{"requests": "2", "churn": "1"})
	rng := rand.New(rand.NewPCG(3, 4))
	var states []model.State
	for walk := 0; walk < 300; walk++ {
		s := sys.Clone(sys.Init()[0])
		for depth := 0; depth < 25; depth++ {
			states = append(states, s)
			var succ []model.State
			sys.Successors(s, func(_ model.Transition, n model.State) bool {
				succ = append(succ, sys.Clone(n))
				return true
			})
			if len(succ) == 0 {
				break
			}
			s = succ[rng.IntN(len(succ))]
		}
	}
	equalKeys, equalStates := 0, 0
	for i := 0; i < 4000; i++ {
		a, b := states[rng.IntN(len(states))], states[rng.IntN(len(states))]
		ka, kb := string(sys.AppendKey(nil, a)), string(sys.AppendKey(nil, b))
		same := reflect.DeepEqual(normal(a), normal(b))
		if same != (ka == kb) {
			t.Fatalf("states equal=%v but keys equal=%v:\n%v\n%v", same, ka == kb, a, b)
		}
		if same {
			equalStates++
		}
		if ka == kb {
			equalKeys++
		}
	}
	if equalStates == 0 {
		t.Fatal("the sample never drew two equal states; the test proves nothing")
	}
}

// normal strips slice capacity differences so DeepEqual compares contents.
func normal(s model.State) model.World[ra.Node, ra.Msg] {
	w := *s.(*model.World[ra.Node, ra.Msg])
	if len(w.Msgs) == 0 {
		w.Msgs = nil
	}
	return w
}
