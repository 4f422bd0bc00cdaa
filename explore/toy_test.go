package explore

import (
	"encoding/binary"
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// toy is a hand-made transition system over int states, for tests where
// the right answer is known.
type toy struct {
	init    []int
	edges   map[int][]toyEdge
	next    func(s int) []toyEdge // used when edges is nil
	bad     map[string]func(s int) bool
	pending func(s int) bool
}

type toyEdge struct {
	to   int
	kind model.StepKind
}

func (g *toy) Init() []model.State {
	out := make([]model.State, len(g.init))
	for i, s := range g.init {
		out[i] = s
	}
	return out
}

func (g *toy) out(s int) []toyEdge {
	if g.edges != nil {
		return g.edges[s]
	}
	return g.next(s)
}

func (g *toy) Successors(s model.State, yield func(model.Transition, model.State) bool) {
	for i, e := range g.out(s.(int)) {
		if !yield(model.Transition{Kind: e.kind, Msg: uint16(i)}, e.to) {
			return
		}
	}
}

func (g *toy) Clone(s model.State) model.State { return s }

func (g *toy) AppendKey(dst []byte, s model.State) []byte {
	return binary.LittleEndian.AppendUint64(dst, uint64(s.(int)))
}

func (g *toy) Invariants() []model.Invariant {
	var out []model.Invariant
	for _, name := range []string{"a", "b"} {
		if f, ok := g.bad[name]; ok {
			out = append(out, model.Invariant{Name: name, Holds: func(s model.State) bool { return !f(s.(int)) }})
		}
	}
	return out
}

// toyWorker adds deadlock detection to a toy.
type toyWorker struct{ *toy }

func (g toyWorker) Pending(s model.State) bool { return g.pending(s.(int)) }

// toyDesc adds step descriptions and ITF states to a toy, so traces replay.
type toyDesc struct{ *toy }

func (g toyDesc) DescribeStep(s model.State, t model.Transition) string {
	return fmt.Sprintf("%d->%d", s.(int), g.out(s.(int))[t.Msg].to)
}
func (g toyDesc) Changes(from, to model.State) []string {
	return []string{fmt.Sprintf("s: %d -> %d", from.(int), to.(int))}
}
func (g toyDesc) Dump(s model.State) []string      { return []string{fmt.Sprint(s.(int))} }
func (g toyDesc) ITF(s model.State) map[string]any { return map[string]any{"s": s.(int)} }

// edges builds an edge map of node steps from pairs.
func edges(pairs ...[2]int) map[int][]toyEdge {
	m := map[int][]toyEdge{}
	for _, p := range pairs {
		m[p[0]] = append(m[p[0]], toyEdge{to: p[1]})
	}
	return m
}

func run(sys model.System, opt Options) *Result {
	c, err := New(sys, opt)
	if err != nil {
		panic(err)
	}
	return c.Run()
}
