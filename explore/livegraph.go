package explore

import (
	"sort"

	"github.com/mxcheck/mxcheck/model"
)

// noClass marks an edge that owes nothing to fairness (request calls,
// adversary moves).
const noClass = ^uint32(0)

// liveGraph is the reachable state graph kept for liveness checking, in
// compressed sparse row form: a few flat arrays, no per-state objects.
// State ids are in BFS discovery order, so a smaller id is never deeper.
// The edges of state v are off[v] ≤ e < off[v+1]; within a state, the
// outcomes of one probabilistic draw are contiguous and the edge that
// starts a draw (or a deterministic step) has its bit set in start.
type liveGraph struct {
	off    []uint32        // len n+1
	dst    []uint32        // per edge: target state
	cls    []uint32        // per edge: fairness class, or noClass
	start  bitset          // per edge: first edge of its draw
	hungry []model.NodeSet // per state: the hungry nodes
	parent []uint32        // per state: BFS parent, noParent for roots
	fp     []uint64        // per state: fingerprint of its key
	roots  []uint32        // per root id (0..len-1): its index in Init()
	nclass int
}

func (g *liveGraph) states() int { return len(g.off) - 1 }

// bytes is the memory the graph's arrays hold.
func (g *liveGraph) bytes() int64 {
	return int64(cap(g.off)+cap(g.dst)+cap(g.cls)+cap(g.parent)+cap(g.roots))*4 +
		int64(cap(g.start)+cap(g.fp))*8 + int64(cap(g.hungry))*2
}

// drawEnd returns the end of the draw that starts at edge e.
func (g *liveGraph) drawEnd(e uint32) uint32 {
	src := g.srcOf(e)
	end := e + 1
	for end < g.off[src+1] && !g.start.has(end) {
		end++
	}
	return end
}

// drawStart returns the first edge of the draw edge e belongs to.
func (g *liveGraph) drawStart(e uint32) uint32 {
	for !g.start.has(e) {
		e--
	}
	return e
}

// srcOf finds the source state of edge e by binary search on off.
func (g *liveGraph) srcOf(e uint32) uint32 {
	return uint32(sort.Search(g.states(), func(v int) bool { return g.off[v+1] > e }))
}

// bitset is a set of small integers.
type bitset []uint64

func newBitset(n int) bitset       { return make(bitset, (n+63)/64) }
func (b bitset) has(i uint32) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) set(i uint32)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) unset(i uint32)    { b[i/64] &^= 1 << (i % 64) }
func (b bitset) grow(n int) bitset {
	for len(b)*64 < n {
		b = append(b, 0)
	}
	return b
}
func (b bitset) clear() { clear(b) }

// idTable maps fingerprints to state ids: open addressing, linear probing,
// 12 bytes a slot, grown at 3/4 load.
type idTable struct {
	keys []uint64
	vals []uint32 // id+1; 0 marks an empty slot
	n    int
}

func newIDTable() *idTable {
	return &idTable{keys: make([]uint64, 1024), vals: make([]uint32, 1024)}
}

// lookup returns the id of fp, inserting next as its id when absent.
func (t *idTable) lookup(fp uint64, next uint32) (id uint32, isNew bool) {
	if 4*(t.n+1) > 3*len(t.keys) {
		t.growTable()
	}
	mask := uint64(len(t.keys) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		switch {
		case t.vals[i] == 0:
			t.keys[i], t.vals[i] = fp, next+1
			t.n++
			return next, true
		case t.keys[i] == fp:
			return t.vals[i] - 1, false
		}
	}
}

// get returns the id of fp, if present.
func (t *idTable) get(fp uint64) (uint32, bool) {
	mask := uint64(len(t.keys) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		switch {
		case t.vals[i] == 0:
			return 0, false
		case t.keys[i] == fp:
			return t.vals[i] - 1, true
		}
	}
}

func (t *idTable) growTable() {
	old, oldv := t.keys, t.vals
	t.keys, t.vals = make([]uint64, 2*len(old)), make([]uint32, 2*len(old))
	mask := uint64(len(t.keys) - 1)
	for j, fp := range old {
		if oldv[j] == 0 {
			continue
		}
		i := fp & mask
		for t.vals[i] != 0 {
			i = (i + 1) & mask
		}
		t.keys[i], t.vals[i] = fp, oldv[j]
	}
}

// localEdge is one successor of a state as the graph stores it.
type localEdge struct {
	ord  uint32 // ordinal among the state's successors, as Successors yields them
	draw uint32 // index of its draw within the state, in order of first appearance
	cls  uint32
	fp   uint64
	dst  uint32 // the successor's id, set by the graph builder
}

// edgeLister turns a state's successors into its graph edges; the graph
// builder and the lasso rebuilder share it, so both see the same edge order.
type edgeLister struct {
	sys     model.System
	h       model.Handle // nil until first used
	fair    model.Fair
	adv     bool // adversarial choices: every outcome is its own step
	classes map[string]uint32
	buf     []byte
	key     []byte
	draws   []model.Transition
	edges   []localEdge
}

// list returns st's edges, sorted so that each draw's outcomes are
// contiguous; onNext, if not nil, sees every successor (valid only during
// the call) with its edge.
func (l *edgeLister) list(st model.State, onNext func(e *localEdge, next model.State)) []localEdge {
	l.edges, l.draws = l.edges[:0], l.draws[:0]
	var ord uint32
	sorted := true
	if l.h == nil {
		l.h = handleOf(l.sys)
	}
	l.h.Successors(st, func(t model.Transition, next model.State) bool {
		e := localEdge{ord: ord, cls: noClass}
		ord++
		e.draw = uint32(len(l.draws))
		if t.Choices > 0 && !l.adv {
			k := t
			k.Choice = 0
			for i := len(l.draws) - 1; i >= 0; i-- {
				if l.draws[i] == k {
					e.draw = uint32(i)
					break
				}
			}
			if e.draw == uint32(len(l.draws)) {
				l.draws = append(l.draws, k)
			}
		} else {
			l.draws = append(l.draws, model.Transition{Kind: 255}) // a draw of its own
		}
		var fair bool
		l.buf, fair = l.fair.FairClass(l.buf[:0], st, t)
		if fair {
			c, ok := l.classes[string(l.buf)]
			if !ok {
				c = uint32(len(l.classes))
				l.classes[string(l.buf)] = c
			}
			e.cls = c
		}
		l.key = l.sys.AppendKey(l.key[:0], next)
		e.fp = model.Fingerprint(l.key)
		if n := len(l.edges); n > 0 && l.edges[n-1].draw > e.draw {
			sorted = false
		}
		l.edges = append(l.edges, e)
		if onNext != nil {
			onNext(&l.edges[len(l.edges)-1], next)
		}
		return true
	})
	if !sorted {
		sort.SliceStable(l.edges, func(i, j int) bool { return l.edges[i].draw < l.edges[j].draw })
	}
	return l.edges
}

// graphLimits applies the search's limits to the graph build.
type graphLimits struct {
	maxStates int
	lim       *limits
}

func (gl *graphLimits) exceeded(n int) string {
	if gl.maxStates > 0 && n > gl.maxStates {
		return "max-states"
	}
	return gl.lim.check(true)
}

// buildGraph explores sys breadth-first and stores every state and edge.
// It returns the name of the limit that stopped it, if any.
func buildGraph(l *edgeLister, lim *graphLimits, progress func(states, edges int)) (*liveGraph, string) {
	sys := l.sys
	g := &liveGraph{off: []uint32{0}}
	ids := newIDTable()
	var queue []model.State
	addState := func(fp uint64, parent uint32, st model.State) (uint32, bool) {
		id, isNew := ids.lookup(fp, uint32(len(g.fp)))
		if isNew {
			g.fp = append(g.fp, fp)
			g.parent = append(g.parent, parent)
			queue = append(queue, sys.Clone(st))
		}
		return id, isNew
	}
	for i, st := range sys.Init() {
		key := sys.AppendKey(nil, st)
		if _, isNew := addState(model.Fingerprint(key), noParent, st); isNew {
			g.roots = append(g.roots, uint32(i))
		}
	}
	for v := 0; v < len(queue); v++ {
		st := queue[v]
		queue[v] = nil
		if v&1023 == 0 {
			if limit := lim.exceeded(len(g.fp)); limit != "" {
				return g, limit
			}
			if progress != nil {
				progress(len(g.fp), len(g.dst))
			}
		}
		if len(g.dst) > int(^uint32(0)>>1) {
			return g, "memory"
		}
		edges := l.list(st, func(e *localEdge, next model.State) {
			e.dst, _ = addState(e.fp, uint32(v), next)
		})
		g.hungry = append(g.hungry, l.fair.Hungry(st))
		g.start = g.start.grow(len(g.dst) + len(edges))
		prev := ^uint32(0)
		for _, e := range edges {
			if e.draw != prev {
				g.start.set(uint32(len(g.dst)))
				prev = e.draw
			}
			g.dst = append(g.dst, e.dst)
			g.cls = append(g.cls, e.cls)
		}
		g.off = append(g.off, uint32(len(g.dst)))
	}
	if lim.maxStates > 0 && len(g.fp) > lim.maxStates {
		return g, "max-states"
	}
	g.nclass = len(l.classes)
	return g, ""
}
