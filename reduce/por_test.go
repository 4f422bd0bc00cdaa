package reduce_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/reduce"
	"github.com/mxcheck/mxcheck/specs/ra"
)

// counter is a node with a step count and a flag set by a message.
type counter struct{ K, X, Bad uint8 }

func (c counter) AppendKey(dst []byte) []byte { return append(dst, c.K, c.X, c.Bad) }

type note struct{}

func (note) AppendKey(dst []byte) []byte { return dst }
func (note) String() string              { return "note" }

// steppers: n isolated nodes each take k invisible, independent local
// steps. Full space (k+1)^n; with POR one node runs at a time: n·k+1.
func steppers(k uint8) *model.Protocol[counter, note] {
	return &model.Protocol[counter, note]{
		Name:    "steppers",
		Init:    func(model.NodeID, *model.Config) counter { return counter{} },
		Observe: func(c *counter) uint64 { return uint64(c.Bad) },
		Actions: []model.Action[counter, note]{
			{Name: "Step", Independent: true, Guard: func(_ *model.Ctx[counter, note], c *counter) bool { return c.K < k },
				Do: func(_ *model.Ctx[counter, note], c *counter) { c.K++ }},
		},
		Invariants: []model.Property[counter, note]{{Name: "never-bad", Holds: func(w *model.World[counter, note]) bool { return true }}},
	}
}

func TestPORKnownCount(t *testing.T) {
	for _, tc := range []struct {
		n        int
		k        uint8
		full, pr int64
	}{{2, 3, 16, 7}, {3, 2, 27, 7}, {4, 1, 16, 5}} {
		m, err := model.Compile(steppers(tc.k), model.Config{Nodes: tc.n})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range []explore.Strategy{explore.BFS, explore.DFS} {
			full := run(t, m, explore.Options{Strategy: st})
			red := run(t, m, explore.Options{Strategy: st, POR: true})
			if full.Stats.Distinct != tc.full || red.Stats.Distinct != tc.pr || red.Verdict != explore.Verified {
				t.Errorf("n=%d k=%d %v: full %d (want %d), POR %d %s (want %d)", tc.n, tc.k, st,
					full.Stats.Distinct, tc.full, red.Stats.Distinct, red.Verdict, tc.pr)
			}
		}
	}
}

// race is the case that makes node-level ample sets unsound without the
// independence declaration: n0 may Prep (an invisible local step) and n1
// may Poke n0 with a message; if n0 receives it before preparing, it goes
// bad. Taking n0's steps alone first would hide that order.
func race(prepIndependent bool) *model.Protocol[counter, note] {
	return &model.Protocol[counter, note]{
		Name:    "race",
		Init:    func(model.NodeID, *model.Config) counter { return counter{} },
		Observe: func(c *counter) uint64 { return uint64(c.Bad) },
		Actions: []model.Action[counter, note]{
			{Name: "Prep", Independent: prepIndependent,
				Guard: func(c *model.Ctx[counter, note], n *counter) bool { return c.Self() == 0 && n.X == 0 },
				Do:    func(_ *model.Ctx[counter, note], n *counter) { n.X = 1 }},
			{Name: "Poke", Guard: func(c *model.Ctx[counter, note], n *counter) bool { return c.Self() == 1 && n.K == 0 },
				Do: func(c *model.Ctx[counter, note], n *counter) { n.K = 1; c.Send(0, note{}) }},
			{Name: "Hear", Kind: model.Receive, Do: func(_ *model.Ctx[counter, note], n *counter) {
				if n.X == 0 {
					n.Bad = 1
				}
			}},
		},
		Invariants: []model.Property[counter, note]{{Name: "never-bad", Holds: func(w *model.World[counter, note]) bool {
			return w.Count(func(n *counter) bool { return n.Bad == 1 }) == 0
		}}},
	}
}

func TestPORSoundOnRace(t *testing.T) {
	honest, _ := model.Compile(race(false), model.Config{Nodes: 2})
	for _, st := range []explore.Strategy{explore.BFS, explore.DFS} {
		full := run(t, honest, explore.Options{Strategy: st})
		red := run(t, honest, explore.Options{Strategy: st, POR: true})
		if full.Verdict != explore.Violated || red.Verdict != explore.Violated {
			t.Errorf("%v: full %s, POR %s; both must find the bad order", st, full.Verdict, red.Verdict)
		}
	}
	// A false declaration is exactly what CheckIndependence exists to
	// catch; with it, POR would miss the violation.
	liar, _ := model.Compile(race(true), model.Config{Nodes: 2})
	err := reduce.CheckIndependence(liar, 0)
	if err == nil || !strings.Contains(err.Error(), "Prep") {
		t.Fatalf("CheckIndependence accepted a false declaration: %v", err)
	}
	if r := run(t, liar, explore.Options{POR: true}); r.Verdict != explore.Verified {
		t.Logf("note: with the false declaration POR says %s", r.Verdict)
	} else {
		t.Logf("with the false declaration POR misses the violation, as expected: %v", err)
	}
	if err := reduce.CheckIndependence(honest, 0); err != nil {
		t.Errorf("honest declarations rejected: %v", err)
	}
}

// RA: POR and the full search agree on every property's verdict and on the
// shortest counterexample length, on several configurations, under BFS
// and DFS; RA's declared independence holds on the full state space.
func TestPORAgreesOnRA(t *testing.T) {
	for _, params := range []model.Values{
		{}, {"requests": "2"}, {"missing": "1:0"}, {"missing": "0:1,1:0"}, {"churn": "1"}, {"churn": "2"},
		{"mutant": "never-defer"}, {"mutant": "defer-forever"},
	} {
		t.Run(fmt.Sprint(params), func(t *testing.T) {
			sys, _, err := ra.Spec.Compile(params)
			if err != nil {
				t.Fatal(err)
			}
			full := run(t, sys, explore.Options{Continue: true})
			for _, st := range []explore.Strategy{explore.BFS, explore.DFS} {
				red := run(t, sys, explore.Options{Continue: true, POR: true, Strategy: st})
				if fmt.Sprint(full.Properties) != fmt.Sprint(red.Properties) {
					t.Errorf("%v: verdicts %v vs POR %v", st, full.Properties, red.Properties)
				}
				if red.Stats.Distinct > full.Stats.Distinct {
					t.Errorf("%v: POR explored more states (%d) than the full search (%d)", st, red.Stats.Distinct, full.Stats.Distinct)
				}
				if st == explore.BFS {
					for i := range full.Violations {
						if full.Violations[i].Trace.Len() != red.Violations[i].Trace.Len() {
							t.Errorf("%s: shortest trace %d, POR %d", full.Violations[i].Property, full.Violations[i].Trace.Len(), red.Violations[i].Trace.Len())
						}
					}
				}
				t.Logf("%v: %d -> %d states (%.2fx)", st, full.Stats.Distinct, red.Stats.Distinct, float64(full.Stats.Distinct)/float64(red.Stats.Distinct))
			}
			if err := reduce.CheckIndependence(sys, 0); err != nil {
				t.Error(err)
			}
		})
	}
}

// toggler: n0 flips a bit forever (invisible, independent steps, a cycle);
// n1 can go bad once. Without the cycle proviso the ample set {n0's flip}
// would be taken around the cycle forever and n1's step ignored.
func toggler() *model.Protocol[counter, note] {
	return &model.Protocol[counter, note]{
		Name:    "toggler",
		Init:    func(model.NodeID, *model.Config) counter { return counter{} },
		Observe: func(c *counter) uint64 { return uint64(c.Bad) },
		Actions: []model.Action[counter, note]{
			{Name: "Flip", Independent: true, Guard: func(c *model.Ctx[counter, note], _ *counter) bool { return c.Self() == 0 },
				Do: func(_ *model.Ctx[counter, note], n *counter) { n.X ^= 1 }},
			{Name: "Spoil", Guard: func(c *model.Ctx[counter, note], n *counter) bool { return c.Self() == 1 && n.Bad == 0 },
				Do: func(_ *model.Ctx[counter, note], n *counter) { n.Bad = 1 }},
		},
		Invariants: []model.Property[counter, note]{{Name: "never-bad", Holds: func(w *model.World[counter, note]) bool {
			return w.Count(func(n *counter) bool { return n.Bad == 1 }) == 0
		}}},
	}
}

func TestPORCycleProviso(t *testing.T) {
	m, _ := model.Compile(toggler(), model.Config{Nodes: 2})
	if err := reduce.CheckIndependence(m, 0); err != nil {
		t.Fatal(err)
	}
	for _, st := range []explore.Strategy{explore.BFS, explore.DFS} {
		r := run(t, m, explore.Options{Strategy: st, POR: true})
		if r.Verdict != explore.Violated {
			t.Fatalf("%v: POR says %s; the ignored step must still be found", st, r.Verdict)
		}
		if st == explore.BFS && r.Violations[0].Trace.Len() != 1 {
			t.Errorf("BFS with POR: trace of %d steps, want the shortest (1)", r.Violations[0].Trace.Len())
		}
	}
}
