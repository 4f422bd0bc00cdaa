package explore

import (
	"slices"
	"sort"

	"github.com/mxcheck/mxcheck/model"
)

// The liveness graph recorded during the main BFS, so that the liveness
// pass does not explore the space a second time (buildGraph).
//
// Each BFS worker records the states it expands, in expansion order (which
// is increasing id order): their hungry nodes and their edges, exactly as
// the edgeLister lists them (one edge per successor; a draw's outcomes
// contiguous, stably sorted by draw; the draw-start bit; the fairness
// class), with each edge's target fingerprint. At the end of a level every
// state it reaches has its id: each owner enters its new states into its
// fingerprint→id table, then every worker resolves its pending targets in
// the owners' tables (read-only by then). At the end the workers' records
// are merged by id into one liveGraph; fairness classes are renumbered in
// order of first use (state id, ordinal), as buildGraph numbers them.
//
// buildGraph still serves what the BFS cannot:
//   - the DFS strategies (states not in BFS id order);
//   - symmetry reduction (the BFS explores the quotient, while the liveness
//     graph is the full state space);
//   - a depth cut (--max-depth: the last level is not expanded with
//     successors);
//   - 128-bit fingerprints whose low halves collide (the graph keys states
//     by 64 bits, as buildGraph does; the record is dropped).
//
// Partial-order reduction cannot be combined with liveness (New refuses).

// liveRecord is the graph being recorded by one BFS.
type liveRecord struct {
	r      *bfsRun
	w      []*liveRecorder // per worker
	fp     []uint64        // per state id
	parent []uint32        // per state id
	roots  []uint32
	failed bool
}

// liveRecorder is one worker's part of the record.
type liveRecorder struct {
	fair    model.Fair
	adv     bool
	next    func(*succ) bool // the BFS's own successor callback
	onSucc  func(*succ) bool // rc.successor, made once
	st      model.State      // the state being expanded
	cur     uint32           // its id
	classes map[string]uint32
	names   []string // per local class: its key
	first   []uint64 // per local class: (id, ordinal) of its first use
	buf     []byte
	draws   []model.Transition
	edges   []localEdge
	sorted  bool

	// recorded, in expansion order
	ids    []uint32
	off    []uint32
	dst    []uint32
	cls    []uint32
	start  bitset
	hungry []model.NodeSet
	pend   []uint64 // target fingerprints of dst[len(dst)-len(pend):]
	table  *idTable // fingerprint → id of the states this worker owns
	failed bool
}

// Test hooks: testNoLiveRecord makes every search build the graph with
// buildGraph; testLiveGraph, when set, sees the graph the liveness pass
// analyses and whether the BFS recorded it.
var (
	testNoLiveRecord bool
	testLiveGraph    func(g *liveGraph, recorded bool)
)

// newLiveRecord returns the record for r, or nil when the liveness pass is
// off or the BFS cannot serve it (see above).
func newLiveRecord(r *bfsRun) *liveRecord {
	c := r.c
	if !c.opt.Liveness || testNoLiveRecord || c.sym != nil || c.opt.MaxDepth > 0 || c.opt.POR {
		return nil
	}
	fair := c.sys.(model.Fair) // New has checked it
	lr := &liveRecord{r: r}
	for _, w := range r.w {
		rc := &liveRecorder{fair: fair, adv: c.opt.Choices == Adversarial, next: w.successor,
			classes: map[string]uint32{}, off: []uint32{0}, table: newIDTable()}
		rc.onSucc = rc.successor
		w.rec = rc
		lr.w = append(lr.w, rc)
	}
	return lr
}

// root records initial state id (index i in Init), owned by w.
func (lr *liveRecord) root(w *bfsWorker, f fingerprint, id uint32, i int) {
	if lr == nil {
		return
	}
	lr.fp = append(lr.fp, f.lo)
	lr.parent = append(lr.parent, noParent)
	lr.roots = append(lr.roots, uint32(i))
	if _, isNew := w.rec.table.lookup(f.lo, id); !isNew || int(id) != len(lr.fp)-1 {
		lr.failed = true
	}
}

// begin starts recording the expansion of state id and returns the
// successor callback to give the expansion core.
func (rc *liveRecorder) begin(id uint32, st model.State) func(*succ) bool {
	rc.st, rc.cur = st, id
	rc.edges, rc.draws, rc.sorted = rc.edges[:0], rc.draws[:0], true
	return rc.onSucc
}

// successor records one edge (as edgeLister.list does) and hands the
// successor to the BFS.
func (rc *liveRecorder) successor(sc *succ) bool {
	e := localEdge{ord: sc.ord, cls: noClass, fp: sc.fp.lo}
	t := sc.t
	e.draw = uint32(len(rc.draws))
	if t.Choices > 0 && !rc.adv {
		k := t
		k.Choice = 0
		for i := len(rc.draws) - 1; i >= 0; i-- {
			if rc.draws[i] == k {
				e.draw = uint32(i)
				break
			}
		}
		if e.draw == uint32(len(rc.draws)) {
			rc.draws = append(rc.draws, k)
		}
	} else {
		rc.draws = append(rc.draws, model.Transition{Kind: 255}) // a draw of its own
	}
	var fair bool
	rc.buf, fair = rc.fair.FairClass(rc.buf[:0], rc.st, t)
	if fair {
		c, ok := rc.classes[string(rc.buf)]
		if !ok {
			c = uint32(len(rc.names))
			name := string(rc.buf)
			rc.classes[name] = c
			rc.names = append(rc.names, name)
			rc.first = append(rc.first, uint64(rc.cur)<<32|uint64(sc.ord))
		}
		e.cls = c
	}
	if n := len(rc.edges); n > 0 && rc.edges[n-1].draw > e.draw {
		rc.sorted = false
	}
	rc.edges = append(rc.edges, e)
	return rc.next(sc)
}

// end finishes the record of the state begun, once expanded.
func (rc *liveRecorder) end() {
	if !rc.sorted {
		sort.SliceStable(rc.edges, func(i, j int) bool { return rc.edges[i].draw < rc.edges[j].draw })
	}
	if len(rc.dst)+len(rc.edges) > int(^uint32(0)>>1) {
		rc.failed = true // buildGraph reports the limit
		return
	}
	rc.ids = append(rc.ids, rc.cur)
	rc.hungry = append(rc.hungry, rc.fair.Hungry(rc.st))
	rc.st = nil
	rc.start = rc.start.grow(len(rc.dst) + len(rc.edges))
	prev := ^uint32(0)
	for _, e := range rc.edges {
		if e.draw != prev {
			rc.start.set(uint32(len(rc.dst)))
			prev = e.draw
		}
		rc.dst = append(rc.dst, 0)
		rc.cls = append(rc.cls, e.cls)
		rc.pend = append(rc.pend, e.fp)
	}
	rc.off = append(rc.off, uint32(len(rc.dst)))
}

// levelDone runs after a level's new states have their ids (start.. of
// total): the owners enter them in their tables, then every worker resolves
// the targets of the edges it recorded in the level.
func (lr *liveRecord) levelDone(start uint32, total int) {
	if lr == nil || lr.failed {
		return
	}
	n := int(start) + total
	if len(lr.fp) != int(start) {
		lr.failed = true
		return
	}
	lr.fp = slices.Grow(lr.fp, total)[:n]
	lr.parent = slices.Grow(lr.parent, total)[:n]
	lr.r.parallel(func(w *bfsWorker) {
		rc := w.rec
		for i := range w.cands {
			c, id := &w.cands[i], w.ids[i]
			lr.fp[id], lr.parent[id] = c.fp.lo, uint32(c.key>>32)
		}
		// Each worker's table holds the states its fingerprints own
		// (in a shared BFS, a state's owner is not the worker that
		// reached it first).
		for _, o := range lr.r.w {
			if o != w && lr.r.shared == nil {
				continue
			}
			for i := range o.cands {
				c, id := &o.cands[i], o.ids[i]
				if lr.r.shared != nil && c.fp.owner(len(lr.w)) != w.id {
					continue
				}
				if _, isNew := rc.table.lookup(c.fp.lo, id); !isNew {
					rc.failed = true // low halves of 128-bit fingerprints collide
				}
			}
		}
	})
	lr.r.parallel(func(w *bfsWorker) {
		rc := w.rec
		base := len(rc.dst) - len(rc.pend)
		for i, fp := range rc.pend {
			o := fingerprint{lo: fp}.owner(len(lr.w))
			id, ok := lr.w[o].table.get(fp)
			if !ok {
				rc.failed = true
				break
			}
			rc.dst[base+i] = id
		}
		rc.pend = rc.pend[:0]
	})
}

// graph assembles the recorded graph, or returns nil when the record is
// incomplete (the caller then builds the graph with buildGraph). It hands
// the workers' arrays over: call it once.
func (lr *liveRecord) graph() *liveGraph {
	if lr == nil || lr.failed {
		return nil
	}
	n := len(lr.fp)
	expanded, edges := 0, 0
	for _, rc := range lr.w {
		if rc.failed || len(rc.pend) > 0 {
			return nil
		}
		expanded += len(rc.ids)
		edges += len(rc.dst)
		rc.table = nil // no longer needed: free it before the analysis
	}
	if expanded != n {
		return nil
	}
	g := &liveGraph{fp: lr.fp, parent: lr.parent, roots: lr.roots}
	tr := lr.classNumbers(g)
	if len(lr.w) == 1 {
		rc := lr.w[0]
		for i, id := range rc.ids {
			if id != uint32(i) {
				return nil
			}
		}
		g.off, g.dst, g.cls, g.start, g.hungry = rc.off, rc.dst, rc.cls, rc.start, rc.hungry
		for i, c := range g.cls {
			if c != noClass {
				g.cls[i] = tr[0][c]
			}
		}
		*rc = liveRecorder{}
		return g
	}
	// Merge by id: state id was expanded by its fingerprint's owner, or
	// in a shared BFS by the worker that reached it first.
	g.off = make([]uint32, 1, n+1)
	g.dst = make([]uint32, 0, edges)
	g.cls = make([]uint32, 0, edges)
	g.start = newBitset(edges)
	g.hungry = make([]model.NodeSet, 0, n)
	next := make([]int, len(lr.w))
	for id := 0; id < n; id++ {
		o := fingerprint{lo: lr.fp[id]}.owner(len(lr.w))
		if lr.r.shared != nil {
			for p, rc := range lr.w {
				if next[p] < len(rc.ids) && rc.ids[next[p]] == uint32(id) {
					o = p
					break
				}
			}
		}
		rc, k := lr.w[o], next[o]
		if k >= len(rc.ids) || rc.ids[k] != uint32(id) {
			return nil
		}
		next[o]++
		for e := rc.off[k]; e < rc.off[k+1]; e++ {
			if rc.start.has(e) {
				g.start.set(uint32(len(g.dst)))
			}
			g.dst = append(g.dst, rc.dst[e])
			c := rc.cls[e]
			if c != noClass {
				c = tr[o][c]
			}
			g.cls = append(g.cls, c)
		}
		g.off = append(g.off, uint32(len(g.dst)))
		g.hungry = append(g.hungry, rc.hungry[k])
	}
	for _, rc := range lr.w {
		*rc = liveRecorder{}
	}
	return g
}

// classNumbers numbers the fairness classes of every worker in order of
// first use (state id, ordinal), as buildGraph does, sets g.nclass, and
// returns, per worker, the global number of each local class.
func (lr *liveRecord) classNumbers(g *liveGraph) [][]uint32 {
	firstUse := map[string]uint64{}
	for _, rc := range lr.w {
		for c, name := range rc.names {
			if f, ok := firstUse[name]; !ok || rc.first[c] < f {
				firstUse[name] = rc.first[c]
			}
		}
	}
	names := make([]string, 0, len(firstUse))
	for name := range firstUse {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return firstUse[names[i]] < firstUse[names[j]] })
	global := make(map[string]uint32, len(names))
	for i, name := range names {
		global[name] = uint32(i)
	}
	tr := make([][]uint32, len(lr.w))
	for o, rc := range lr.w {
		tr[o] = make([]uint32, len(rc.names))
		for c, name := range rc.names {
			tr[o][c] = global[name]
		}
	}
	g.nclass = len(names)
	return tr
}
