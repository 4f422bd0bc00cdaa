package explore

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
)

// ltoy is a hand-made system for liveness tests. States are ints. Each edge
// has a fairness class ("" owes nothing, like an adversary move) and may be
// an outcome of a random draw: the edges of a state with the same draw > 0
// are the outcomes of one ctx.Choose.
type ltoy struct {
	init   []int
	out    map[int][]ledge
	hungry map[int]model.NodeSet
	name   string // LivenessProperty, when set
}

type ledge struct {
	to    int
	class string
	draw  uint8
}

// hungry0 makes node 0 hungry in the given states.
func hungry0(states ...int) map[int]model.NodeSet {
	m := map[int]model.NodeSet{}
	for _, s := range states {
		m[s] = m[s].Add(0)
	}
	return m
}

func (g *ltoy) Init() []model.State {
	out := make([]model.State, len(g.init))
	for i, s := range g.init {
		out[i] = s
	}
	return out
}

// trans is the Transition of edge i of state s.
func (g *ltoy) trans(s, i int) model.Transition {
	es := g.out[s]
	e := es[i]
	if e.draw == 0 {
		return model.Transition{Kind: model.NodeStep, Msg: uint16(i)}
	}
	var n, k uint8
	for j, f := range es {
		if f.draw == e.draw {
			if j < i {
				k++
			}
			n++
		}
	}
	return model.Transition{Kind: model.NodeStep, Action: e.draw, Msg: 0xffff, Choices: n, Choice: uint32(k)}
}

func (g *ltoy) edgeOf(s int, t model.Transition) ledge {
	for i := range g.out[s] {
		if g.trans(s, i) == t {
			return g.out[s][i]
		}
	}
	panic("no such transition")
}

func (g *ltoy) Successors(s model.State, yield func(model.Transition, model.State) bool) {
	for i, e := range g.out[s.(int)] {
		if !yield(g.trans(s.(int), i), e.to) {
			return
		}
	}
}

func (g *ltoy) Clone(s model.State) model.State { return s }
func (g *ltoy) AppendKey(dst []byte, s model.State) []byte {
	return binary.LittleEndian.AppendUint64(dst, uint64(s.(int)))
}
func (g *ltoy) Invariants() []model.Invariant { return nil }

func (g *ltoy) Hungry(s model.State) model.NodeSet { return g.hungry[s.(int)] }
func (g *ltoy) FairClass(dst []byte, s model.State, t model.Transition) ([]byte, bool) {
	e := g.edgeOf(s.(int), t)
	if e.class == "" {
		return dst, false
	}
	return append(dst, e.class...), true
}

func (g *ltoy) DescribeStep(s model.State, t model.Transition) string {
	e := g.edgeOf(s.(int), t)
	if e.draw > 0 {
		return fmt.Sprintf("%d->%d [%s] draw %d outcome %d", s.(int), e.to, e.class, e.draw, t.Choice)
	}
	return fmt.Sprintf("%d->%d [%s]", s.(int), e.to, e.class)
}
func (g *ltoy) Changes(from, to model.State) []string {
	return []string{fmt.Sprintf("s: %d -> %d", from.(int), to.(int))}
}
func (g *ltoy) Dump(s model.State) []string      { return []string{fmt.Sprint(s.(int))} }
func (g *ltoy) ITF(s model.State) map[string]any { return map[string]any{"s": s.(int)} }

// named adds LivenessProperty to an ltoy.
type named struct{ *ltoy }

func (g named) LivenessProperty() string { return g.name }

// lassoStates returns the states of a lasso trace and its loop start.
func lassoStates(t *testing.T, v Violation) ([]int, int) {
	t.Helper()
	var out []int
	for _, s := range v.Trace.Steps {
		out = append(out, s.State["s"].(int))
	}
	if v.Lasso == nil {
		t.Fatalf("violation of %s has no lasso", v.Property)
	}
	return out, v.Lasso.Loop
}

// mustReplayLasso writes v as ITF, reads it back and replays it.
func mustReplayLasso(t *testing.T, sys model.System, v Violation) *ITFTrace {
	t.Helper()
	var buf bytes.Buffer
	if err := NewITF("toy", nil, v).Write(&buf); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadITF(&buf)
	if err != nil {
		t.Fatalf("own lasso does not parse: %v", err)
	}
	if res := Replay(sys, tr); !res.Reproduced {
		t.Fatalf("lasso does not replay: %s", res.Reason)
	}
	return tr
}

func TestLivenessToys(t *testing.T) {
	e := func(to int, class string) ledge { return ledge{to: to, class: class} }
	d := func(draw uint8, to int, class string) ledge { return ledge{to: to, class: class, draw: draw} }
	for _, tc := range []struct {
		name string
		sys  *ltoy
		// want[mode] is the expected lasso: states (stem then loop) and the
		// loop start; nil means the property holds.
		adversarial, probabilistic *[2][]int
		node                       string // the starving node; "" for n0
	}{
		{
			// 0 and 1 spin; serving (→2) is enabled only in 0, so it is not
			// continuously enabled: weak fairness cannot rescue node 0.
			name: "weak-fairness-cannot-rescue",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{
				0: {e(1, "spin"), e(2, "serve")}, 1: {e(0, "spin")}, 2: {}}},
			adversarial:   &[2][]int{{0, 1, 0}, {0}},
			probabilistic: &[2][]int{{0, 1, 0}, {0}},
		},
		{
			// Serving is enabled in both states of the cycle: weak fairness
			// forces it.
			name: "weak-fairness-rescues",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{
				0: {e(1, "spin"), e(2, "serve")}, 1: {e(0, "spin"), e(2, "serve")}, 2: {}}},
		},
		{
			// A fair cycle: every enabled class is taken in it.
			name: "fair-cycle",
			sys: &ltoy{init: []int{5}, hungry: hungry0(0, 1, 5), out: map[int][]ledge{
				5: {e(0, "go")}, 0: {e(1, "a")}, 1: {e(0, "b")}}},
			adversarial:   &[2][]int{{5, 0, 1, 0}, {1}},
			probabilistic: &[2][]int{{5, 0, 1, 0}, {1}},
		},
		{
			// The cycle 0→1→0 never serves node 0, but serving is always
			// enabled: the cycle is unfair and there is no lasso.
			name: "unfair-cycle",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{
				0: {e(1, "a"), e(2, "serve")}, 1: {e(0, "b"), e(2, "serve")}, 2: {e(2, "idle")}}},
		},
		{
			// A self-loop of the serving class satisfies its fairness.
			name: "self-loop-same-class",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0), out: map[int][]ledge{
				0: {e(0, "x"), e(1, "x")}, 1: {}}},
			adversarial:   &[2][]int{{0, 0}, {0}},
			probabilistic: &[2][]int{{0, 0}, {0}},
		},
		{
			name: "self-loop-other-class",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0), out: map[int][]ledge{
				0: {e(0, "spin"), e(1, "serve")}, 1: {}}},
		},
		{
			// Only an adversary move (no class) would serve node 0: it owes
			// nothing, so the system may stay in 0 forever.
			name: "adversary-owes-nothing",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0), out: map[int][]ledge{
				0: {e(1, "")}, 1: {}}},
			adversarial:   &[2][]int{{0}, {0}},
			probabilistic: &[2][]int{{0}, {0}},
		},
		{
			name: "deadlock-while-hungry",
			sys: &ltoy{init: []int{3}, hungry: hungry0(0), out: map[int][]ledge{
				3: {e(0, "go")}, 0: {}}},
			adversarial:   &[2][]int{{3, 0}, {1}},
			probabilistic: &[2][]int{{3, 0}, {1}},
		},
		{
			// Flip a coin until heads (→1): terminates with probability 1,
			// but not surely.
			name: "coin-until-heads",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0), out: map[int][]ledge{
				0: {d(1, 0, "flip"), d(1, 1, "flip")}, 1: {}}},
			adversarial: &[2][]int{{0, 0}, {0}},
		},
		{
			// Heads leads to a state where node 0 is still hungry but is
			// served next: the draw stays among hungry states, so only the
			// end-component refinement (the draw leaves the SCC {0}) sees
			// that tails forever has probability 0.
			name: "coin-heads-then-serve",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{
				0: {d(1, 0, "flip"), d(1, 1, "flip")}, 1: {e(2, "serve")}, 2: {}}},
			adversarial: &[2][]int{{0, 0}, {0}},
		},
		{
			// Two rounds of refinement: dropping 0's draw (one outcome
			// leaves to 2) splits {0, 1}; then 1's draw leaves {1}.
			name: "refinement-two-rounds",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1, 2), out: map[int][]ledge{
				0: {d(1, 1, "f"), d(1, 2, "f")}, 1: {d(2, 0, "g"), d(2, 1, "g")}, 2: {e(3, "serve")}, 3: {}}},
			adversarial: &[2][]int{{0, 1, 0}, {0}},
		},
		{
			// The same with a step between flips: tails → 1 → back to 0.
			name: "coin-retry",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{
				0: {d(1, 1, "flip"), d(1, 2, "flip")}, 1: {e(0, "retry")}, 2: {}}},
			adversarial: &[2][]int{{0, 1, 0}, {0}},
		},
		{
			// Tails (→1) is a trap where node 0 starves: positive probability.
			name: "coin-trap",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{
				0: {d(1, 1, "flip"), d(1, 2, "flip")}, 1: {e(1, "spin")}, 2: {}}},
			adversarial:   &[2][]int{{0, 1, 1}, {1}},
			probabilistic: &[2][]int{{0, 1, 1}, {1}},
		},
		{
			// An end component with a draw inside: 0 flips between 0 and
			// 1, 1 returns to 0; serving is enabled in 1 only. The loop must
			// visit both outcomes of the draw.
			name: "end-component-with-draw",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{
				0: {d(1, 0, "flip"), d(1, 1, "flip")}, 1: {e(0, "back"), e(2, "serve")}, 2: {}}},
			adversarial:   &[2][]int{{0, 0}, {0}},
			probabilistic: &[2][]int{{0, 0, 1, 0}, {0}},
		},
		{
			// A draw whose outcomes are both fine, with a trap behind one
			// of them only reachable by a later choice of the scheduler.
			name: "draw-then-scheduler-trap",
			sys: &ltoy{init: []int{0}, hungry: hungry0(0, 1, 3), out: map[int][]ledge{
				0: {d(1, 1, "flip"), d(1, 2, "flip")}, 1: {e(3, "x"), e(2, "serve")}, 2: {}, 3: {e(3, "spin")}}},
			adversarial:   &[2][]int{{0, 1, 3, 3}, {2}},
			probabilistic: &[2][]int{{0, 1, 3, 3}, {2}},
		},
		{
			// Node 1 starves with a shorter stem than node 0: its lasso is
			// the one reported.
			name: "two-nodes-shortest-stem",
			sys: &ltoy{init: []int{0}, hungry: map[int]model.NodeSet{0: 3, 1: 1, 2: 2, 4: 1}, out: map[int][]ledge{
				0: {e(1, "a"), e(2, "b")}, 1: {e(4, "c")}, 2: {e(2, "e")}, 4: {e(4, "e")}}},
			adversarial:   &[2][]int{{0, 2, 2}, {1}},
			probabilistic: &[2][]int{{0, 2, 2}, {1}},
			node:          "n1",
		},
	} {
		for _, mode := range []Choices{Adversarial, Probabilistic} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				want := tc.probabilistic
				if mode == Adversarial {
					want = tc.adversarial
				}
				r := run(tc.sys, Options{Liveness: true, Choices: mode})
				if !r.Exhausted || r.Liveness == nil {
					t.Fatalf("liveness did not run: %+v", r)
				}
				p := r.Properties[len(r.Properties)-1]
				if p.Name != StarvationFreedom {
					t.Errorf("property %q", p.Name)
				}
				if want == nil {
					if r.Verdict != Verified || p.Status != Holds || len(r.Violations) > 0 {
						t.Fatalf("want holds, got %s %s: %+v", r.Verdict, p.Status, r.Violations)
					}
					return
				}
				if r.Verdict != Violated || p.Status != Fails || len(r.Violations) != 1 {
					t.Fatalf("want a lasso, got %s %s", r.Verdict, p.Status)
				}
				v := r.Violations[0]
				states, loop := lassoStates(t, v)
				if fmt.Sprint(states) != fmt.Sprint(want[0]) || loop != want[1][0] {
					t.Errorf("lasso %v loop at %d, want %v loop at %d", states, loop, want[0], want[1][0])
				}
				if v.Kind != model.Eventually || v.Lasso.Choices != mode.String() {
					t.Errorf("kind %q choices %q", v.Kind, v.Lasso.Choices)
				}
				if node := cmp.Or(tc.node, "n0"); v.Lasso.Node != node {
					t.Errorf("starving node %s, want %s", v.Lasso.Node, node)
				}
				mustReplayLasso(t, tc.sys, v)
				var b strings.Builder
				if err := WriteText(&b, r); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(b.String(), "-- loop") || !strings.Contains(b.String(), "starves") {
					t.Errorf("text lacks the lasso:\n%s", b.String())
				}
			})
		}
	}
}

// A tampered lasso must not replay: wrong loop index, a node that is not
// hungry, an unfair loop, and an adversarial coin lasso read as
// probabilistic (its draw leaves the loop).
func TestLassoReplayRejects(t *testing.T) {
	coin := &ltoy{init: []int{0}, hungry: hungry0(0), out: map[int][]ledge{
		0: {{to: 0, class: "flip", draw: 1}, {to: 1, class: "flip", draw: 1}}, 1: {}}}
	r := run(coin, Options{Liveness: true, Choices: Adversarial})
	if len(r.Violations) != 1 {
		t.Fatalf("no lasso: %s", r.Verdict)
	}
	good := mustReplayLasso(t, coin, r.Violations[0])
	prob := *good
	prob.Meta.Choices = "probabilistic"
	if res := Replay(coin, &prob); res.Reproduced || !strings.Contains(res.Reason, "end component") {
		t.Errorf("probabilistic reading of a coin lasso: %+v", res)
	}
	noLoop := *good
	noLoop.Loop = nil
	var buf bytes.Buffer
	if err := noLoop.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadITF(&buf); err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("a liveness trace without a loop parses: %v", err)
	}
	node := *good
	node.Meta.Node = "n1"
	if res := Replay(coin, &node); res.Reproduced || !strings.Contains(res.Reason, "not hungry") {
		t.Errorf("wrong node: %+v", res)
	}

	unfair := &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{
		0: {{to: 1, class: "a"}, {to: 2, class: "serve"}}, 1: {{to: 0, class: "b"}, {to: 2, class: "serve"}}, 2: {}}}
	cheat := *good
	zero, one := 0, 1
	cheat.Loop = &zero
	cheat.States = []map[string]any{
		{"s": 0, "#meta": map[string]any{"index": 0}},
		{"s": 1, "#meta": map[string]any{"index": 1, "step": "0->1 [a]"}},
		{"s": 0, "#meta": map[string]any{"index": 2, "step": "1->0 [b]"}},
	}
	cheat.Meta.Choices = "adversarial"
	if res := Replay(unfair, &cheat); res.Reproduced || !strings.Contains(res.Reason, "not fair") {
		t.Errorf("unfair loop: %+v", res)
	}
	cheat.Loop = &one
	if res := Replay(unfair, &cheat); res.Reproduced || !strings.Contains(res.Reason, "does not close") {
		t.Errorf("open loop: %+v", res)
	}
}

func TestLivenessOptions(t *testing.T) {
	sys := &ltoy{init: []int{0}, hungry: hungry0(0), out: map[int][]ledge{0: {{to: 0, class: "spin"}}}}
	if _, err := New(&toy{init: []int{0}, edges: edges()}, Options{Liveness: true}); err == nil {
		t.Error("liveness on a system without model.Fair is accepted")
	}
	if _, err := New(named{&ltoy{}}, Options{Liveness: true}); err == nil {
		t.Error("liveness on a system that names no property is accepted")
	}
	r := run(named{&ltoy{init: sys.init, hungry: sys.hungry, out: sys.out, name: "lockout-freedom"}}, Options{Liveness: true})
	if len(r.Violations) != 1 || r.Violations[0].Property != "lockout-freedom" {
		t.Errorf("property name not taken from the system: %+v", r.Properties)
	}
	// A limit leaves the property unknown, never holds.
	big := &ltoy{init: []int{0}, hungry: hungry0(), out: map[int][]ledge{0: {{to: 1, class: "a"}}, 1: {{to: 2, class: "a"}}, 2: {}}}
	for _, opt := range []Options{{Liveness: true, MaxStates: 2}, {Liveness: true, MaxDepth: 1}} {
		r := run(big, opt)
		if p := r.Properties[len(r.Properties)-1]; p.Status != Unknown || r.Verdict != Incomplete {
			t.Errorf("%+v: liveness %s, verdict %s", opt, p.Status, r.Verdict)
		}
	}
	r = run(big, Options{Liveness: true})
	if r.Verdict != Verified || r.Liveness.HungryStates != 0 || r.Liveness.States != 3 || r.Liveness.Edges != 2 {
		t.Errorf("vacuous check: %s %+v", r.Verdict, r.Liveness)
	}
}
