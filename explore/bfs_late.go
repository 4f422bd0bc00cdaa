package explore

import "github.com/mxcheck/mxcheck/model"

// In a shared BFS the first worker to reach a state in a level keeps it
// among its candidates, and nobody else touches that candidate during the
// level: an offer of the state by another worker is noted in the offering
// worker's late list, and once the level is over each candidate takes the
// least key offered for it (a sequential BFS meets its first discovery
// first). So a new state costs one table slot and no index, and a worker's
// candidates need no lock. Late offers are few: most diamonds close within
// one worker's range of the level.

// addLate notes an offer of a state another worker reached first in this
// level (or an older state with this level's stamp, which no candidate
// matches). Under symmetry it keeps the representative the offer reached,
// which replaces the candidate's if its key wins (see offer).
func (w *bfsWorker) addLate(f fingerprint, key uint64, tix uint32, enc []byte, st model.State, owned bool) {
	w.late = append(w.late, newState{fp: f, key: key, tix: tix})
	if w.r.sym {
		w.keep(&w.late[len(w.late)-1], enc, st, owned)
	}
}

// lateTable is the least-key late offer of each fingerprint offered late in
// the level by any worker: an open-addressing table, at most half full,
// whose slots hold the fingerprint's low half beside the offer, so that a
// probe past another fingerprint reads no offer. A candidate is first
// looked up in filter, one bit per 16 late offers' worth of fingerprints:
// small enough to stay in the first-level cache, it turns away most of
// the candidates no one offered late. least is the least key each worker
// offered late.
type lateTable struct {
	slots  []lateSlot
	mask   uint64
	filter []uint64
	least  []uint64
}

type lateSlot struct {
	lo uint64
	e  *newState // nil: an empty slot
}

// lateTable gathers every worker's late offers; nil when there are none.
func (r *bfsRun) lateTable() *lateTable {
	n := 0
	for _, w := range r.w {
		n += len(w.late)
	}
	if n == 0 {
		return nil
	}
	size := 16
	for size < 2*n {
		size *= 2
	}
	// The table's storage is the last level's, cleared, when it is large
	// enough: fresh memory each level would be mapped page by page.
	t := &r.late
	t.slots = reuse(t.slots, size)
	t.mask = uint64(size - 1)
	t.filter = reuse(t.filter, size/8) // 16 bits per offer and more
	t.least = reuse(t.least, len(r.w))
	for o, w := range r.w {
		t.least[o] = ^uint64(0)
		for i := range w.late {
			e := &w.late[i]
			t.least[o] = min(t.least[o], e.key)
			b := t.bit(e.fp)
			t.filter[b/64] |= 1 << (b % 64)
			j := t.home(e.fp)
			for t.slots[j].e != nil && t.slots[j].e.fp != e.fp {
				j = (j + 1) & t.mask
			}
			if o := t.slots[j].e; o == nil || e.key < o.key {
				t.slots[j] = lateSlot{e.fp.lo, e}
			}
		}
	}
	return t
}

// reuse returns s with length n, zeroed, in s's storage when it has room.
func reuse[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func (t *lateTable) home(f fingerprint) uint64 { return (f.lo * 0x9e3779b97f4a7c15) >> 32 & t.mask }

// bit is f's bit in the filter (from other bits of f than home's).
func (t *lateTable) bit(f fingerprint) uint64 { return f.lo >> 13 & (uint64(len(t.filter))*64 - 1) }

// get returns the least-key late offer of f, or nil.
func (t *lateTable) get(f fingerprint) *newState {
	if b := t.bit(f); t.filter[b/64]&(1<<(b%64)) == 0 {
		return nil
	}
	for j := t.home(f); ; j = (j + 1) & t.mask {
		sl := &t.slots[j]
		if sl.e == nil || sl.lo == f.lo && sl.e.fp == f {
			return sl.e
		}
	}
}

// bound is the least key another worker than w offered late: no candidate
// of w with a key up to it can be lowered. (w's own late offers lower none
// of its candidates: a state it reached first it offers again only with a
// greater key, since it offers in increasing key order.)
func (t *lateTable) bound(w int) uint64 {
	b := ^uint64(0)
	for o, k := range t.least {
		if o != w {
			b = min(b, k)
		}
	}
	return b
}

// settlePart is what settling one part of a worker's candidates found:
// the part's first and last keys as they were offered, whether it was in
// key order, and the candidates (by index) whose key it lowered.
type settlePart struct {
	first, last uint64
	empty       bool
	sorted      bool
	lowered     []int32
}

// settleParts readies the worker's candidates to be settled in n parts
// (before the workers settle them side by side, each part by one).
func (w *bfsWorker) settleParts(n int) {
	if len(w.parts) != n {
		w.parts = make([]settlePart, n)
	}
	w.pending.Store(int32(n))
}

// settlePart gives each candidate of o's part-th of parts equal parts the
// least key offered for it late, if less than its own; under symmetry the
// representative that offer reached comes with it (it may be in another
// worker's store: the candidate's sw says whose). The worker doing it
// (w) only reads t and writes the candidates of that part, so the workers
// settle the parts of every worker's candidates side by side (each part
// claimed by one: bfsRun.level): the work
// falls mostly on the candidates of workers that reached states late in
// the level (those keys are above bound), which one worker alone would
// otherwise carry.
func (w *bfsWorker) settlePart(t *lateTable, o *bfsWorker, part, parts int) {
	res := &o.parts[part]
	lo, hi := len(o.cands)*part/parts, len(o.cands)*(part+1)/parts
	res.empty, res.sorted, res.lowered = lo == hi, true, res.lowered[:0]
	if lo == hi {
		return
	}
	res.first, res.last = o.cands[lo].key, o.cands[hi-1].key
	bound := t.bound(o.id)
	prev := uint64(0)
	for i := lo; i < hi; i++ {
		c := &o.cands[i]
		if c.key < prev {
			res.sorted = false
		}
		prev = c.key
		if c.key <= bound {
			continue
		}
		e := t.get(c.fp)
		if e == nil || e.key >= c.key {
			continue
		}
		c.key, c.tix = e.key, e.tix
		if w.r.sym {
			c.sw, c.blk, c.off, c.n = e.sw, e.blk, e.off, e.n
		}
		res.lowered = append(res.lowered, int32(i))
	}
}

// settleDone gathers the parts settlePart made of the worker's candidates
// and reports whether the candidates are in key order: they arrive in it
// (a worker offers in increasing key order), and the few lowered are
// merged back into it here, which costs far less than sorting the level
// again.
func (w *bfsWorker) settleDone() (sorted bool) {
	sorted = true
	lowered := w.lowered[:0]
	prev, any := uint64(0), false
	for i := range w.parts {
		p := &w.parts[i]
		if p.empty {
			continue
		}
		if !p.sorted || any && p.first < prev {
			sorted = false
		}
		prev, any = p.last, true
		lowered = append(lowered, p.lowered...)
	}
	w.lowered = lowered
	if sorted && len(lowered) > 0 {
		w.mergeLowered()
	}
	return sorted
}

// mergeLowered restores key order when the candidates at w.lowered (in
// increasing order) have had their keys lowered and the others are in
// order: it sorts the lowered ones apart (by their indexes: a candidate
// is large), then merges the two runs from
// the back, in place. A lowered candidate's new key is below its old one,
// so when it is placed its old position has already been passed: the
// merge never writes over a candidate it has yet to read.
func (w *bfsWorker) mergeLowered() {
	cands, lowered := w.cands, w.lowered
	order := w.sortOrder(len(lowered), func(j int) uint64 { return cands[lowered[j]].key })
	side := w.side[:0]
	for _, j := range order {
		side = append(side, cands[lowered[j]])
	}
	w.order = order
	// The candidates after the last lowered one keep their places (every
	// lowered key was below theirs and still is): the merge starts at it.
	li, sp, wp := len(lowered)-1, len(side)-1, int(lowered[len(lowered)-1])
	for rp := wp; sp >= 0; wp-- {
		for li >= 0 && rp == int(lowered[li]) {
			rp, li = rp-1, li-1
		}
		if rp >= 0 && cands[rp].key > side[sp].key {
			cands[wp] = cands[rp]
			rp--
		} else {
			cands[wp] = side[sp]
			sp--
		}
	}
	clear(side) // no state stays referenced
	w.side = side[:0]
}
