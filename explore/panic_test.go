package explore

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
)

// panicky panics when it expands state `at` (as an action naming itself,
// when act is set) or when its invariant sees state `bad`.
type panicky struct {
	toyDesc
	at, bad int
	act     bool
}

func (g panicky) Successors(s model.State, yield func(model.Transition, model.State) bool) {
	if s.(int) == g.at {
		if g.act {
			panic(&model.ActionPanic{Node: 1, Action: "Boom", Value: "kaboom"})
		}
		var m map[string]int
		m["x"] = 1 // a plain runtime panic
	}
	g.toyDesc.Successors(s, yield)
}

func (g panicky) Invariants() []model.Invariant {
	return []model.Invariant{{Name: "fragile", Holds: func(s model.State) bool {
		if s.(int) == g.bad {
			panic("invariant broke")
		}
		return true
	}}}
}

// A panic in the system's code during a search is an error naming what
// panicked, with the trace to the state, for every strategy; never a crash.
func TestSpecPanicRecovered(t *testing.T) {
	chain := toyDesc{&toy{init: []int{0}, next: func(s int) []toyEdge {
		if s >= 6 {
			return nil
		}
		return []toyEdge{{to: s + 1}}
	}}}
	for _, tc := range []struct {
		name   string
		sys    panicky
		during string
		value  string
		steps  int
	}{
		{"action", panicky{chain, 3, -1, true}, "n1 Boom", "kaboom", 3},
		{"runtime", panicky{chain, 4, -1, false}, "expanding a state", "assignment to entry in nil map", 4},
		{"invariant", panicky{chain, -1, 5, false}, "invariant fragile", "invariant broke", 5},
	} {
		for _, opt := range []Options{{}, {Strategy: DFS}, {Workers: 2}, {Workers: 3}} {
			c, err := New(tc.sys, opt)
			if err != nil {
				t.Fatal(err)
			}
			r, err := c.Check()
			var sp *SpecPanic
			if r != nil || !errors.As(err, &sp) {
				t.Fatalf("%s %+v: result %v, error %v", tc.name, opt, r, err)
			}
			if !strings.HasPrefix(sp.During, tc.during) || !strings.Contains(sp.Error(), tc.value) || strings.Contains(sp.Error(), "\n") {
				t.Errorf("%s %+v: %q (during %q)", tc.name, opt, sp.Error(), sp.During)
			}
			want := tc.steps
			if opt.Strategy == BFS && tc.name == "invariant" {
				want-- // the BFS checks invariants on a state as its owner receives it
			}
			if sp.Trace == nil || sp.Trace.Len() != want {
				t.Errorf("%s %+v: trace %+v, want %d steps", tc.name, opt, sp.Trace, want)
				continue
			}
			var b bytes.Buffer
			sp.WriteTrace(&b)
			if !strings.Contains(b.String(), "  1. 0->1") {
				t.Errorf("%s: trace text:\n%s", tc.name, b.String())
			}
		}
	}
}
