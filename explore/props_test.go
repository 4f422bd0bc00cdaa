package explore

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
)

// witnessToy is a toy with Always and Sometimes properties over its states.
type witnessToy struct {
	toyDesc
	always, some map[string]func(s int) bool
}

func (g witnessToy) Invariants() []model.Invariant {
	var out []model.Invariant
	for _, name := range []string{"a", "b", "c", "d"} {
		if f, ok := g.always[name]; ok {
			out = append(out, model.Invariant{Name: name, Holds: func(s model.State) bool { return !f(s.(int)) }})
		}
		if f, ok := g.some[name]; ok {
			out = append(out, model.Invariant{Name: name, Holds: func(s model.State) bool { return f(s.(int)) }, Expect: model.Sometimes})
		}
	}
	return out
}

// chain0123 is 0 -> 1 -> 2 -> 3.
func chain0123(always, some map[string]func(int) bool) witnessToy {
	return witnessToy{toyDesc{&toy{init: []int{0}, edges: edges([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3})}}, always, some}
}

func is(k int) func(int) bool { return func(s int) bool { return s == k } }

func status(r *Result, name string) Status {
	for _, p := range r.Properties {
		if p.Name == name {
			return p.Status
		}
	}
	return "missing"
}

var strategies = map[string]Options{"bfs": {}, "dfs": {Strategy: DFS}, "parallel": {Workers: 2}}

// A complete search that never reaches a sometimes property is Unreached;
// one it reaches holds, with the witness's trace, and reaching it does not
// stop the search.
func TestSometimesUnreached(t *testing.T) {
	sys := chain0123(nil, map[string]func(int) bool{"a": is(1), "b": is(9)})
	for name, opt := range strategies {
		r := run(sys, opt)
		if r.Verdict != Unreached || status(r, "a") != Holds || status(r, "b") != NeverReached {
			t.Errorf("%s: verdict %s, a %s, b %s; want unreached, holds, unreached", name, r.Verdict, status(r, "a"), status(r, "b"))
		}
		if r.Stats.Distinct != 4 || !r.Exhausted {
			t.Errorf("%s: %d states, exhausted %v: a witness stopped the search", name, r.Stats.Distinct, r.Exhausted)
		}
		if len(r.Violations) != 0 || len(r.Witnesses) != 1 || r.Witnesses[0].Property != "a" || r.Witnesses[0].Trace.Len() != 1 || r.Witnesses[0].Kind != model.Sometimes {
			t.Errorf("%s: violations %v, witnesses %+v", name, r.Violations, r.Witnesses)
		}
	}
	// Every sometimes property reached: verified.
	sys = chain0123(nil, map[string]func(int) bool{"a": is(1), "b": is(3)})
	for name, opt := range strategies {
		if r := run(sys, opt); r.Verdict != Verified || len(r.Witnesses) != 2 || r.Witnesses[1].Trace.Len() != 3 {
			t.Errorf("%s: verdict %s, witnesses %d, want verified with 2", name, r.Verdict, len(r.Witnesses))
		}
	}
	var b strings.Builder
	WriteText(&b, run(chain0123(nil, map[string]func(int) bool{"a": is(2), "b": is(9)}), Options{}))
	for _, want := range []string{"sometimes a: reached in 2 steps\n", "sometimes b: UNREACHED", "verdict: UNREACHED"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, b.String())
		}
	}
}

// Precedence: violated > incomplete > unreached > verified; an unreached
// sometimes property is only reported by a search that saw every state.
func TestSometimesPrecedence(t *testing.T) {
	never := map[string]func(int) bool{"b": is(9)}
	for name, opt := range strategies {
		// A limit: incomplete, b unknown.
		o := opt
		o.MaxStates = 2
		if r := run(chain0123(nil, never), o); r.Verdict != Incomplete || status(r, "b") != Unknown {
			t.Errorf("%s max-states: verdict %s, b %s; want incomplete, unknown", name, r.Verdict, status(r, "b"))
		}
		// A violation: violated, and b unknown since the search stopped
		// there (with --continue too: every invariant was violated).
		for _, cont := range []bool{false, true} {
			o := opt
			o.Continue = cont
			r := run(chain0123(map[string]func(int) bool{"a": is(2)}, never), o)
			if r.Verdict != Violated || status(r, "a") != Fails || status(r, "b") != Unknown || len(r.Violations) != 1 {
				t.Errorf("%s continue=%v: verdict %s, a %s, b %s", name, cont, r.Verdict, status(r, "a"), status(r, "b"))
			}
		}
		// Under --continue a witness does not count as a property done: the
		// search goes on to find the violation of c after reaching b.
		o = opt
		o.Continue = true
		r := run(chain0123(map[string]func(int) bool{"a": is(1), "c": is(3)}, map[string]func(int) bool{"b": is(2)}), o)
		if r.Verdict != Violated || len(r.Violations) != 2 || status(r, "b") != Holds {
			t.Errorf("%s: verdict %s, %d violations, b %s; want both invariants violated and b reached", name, r.Verdict, len(r.Violations), status(r, "b"))
		}
	}
}

// A witness is written as an ITF trace of kind "sometimes" and replays: its
// last state still satisfies the property.
func TestSometimesWitnessReplays(t *testing.T) {
	sys := chain0123(nil, map[string]func(int) bool{"a": is(2)})
	r := run(sys, Options{})
	var buf bytes.Buffer
	if err := NewITF("toy", nil, r.Witnesses[0]).Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"kind": "sometimes"`) {
		t.Errorf("witness trace:\n%s", buf.String())
	}
	tr, err := ReadITF(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if res := Replay(sys, tr); !res.Reproduced || !res.Witness || res.Steps != 2 {
		t.Errorf("replay: %+v", res)
	}
	other := chain0123(nil, map[string]func(int) bool{"a": is(3)})
	if res := Replay(other, tr); res.Reproduced || !strings.Contains(res.Reason, "no longer satisfies a") {
		t.Errorf("replay against a model where the state no longer satisfies a: %+v", res)
	}
}
