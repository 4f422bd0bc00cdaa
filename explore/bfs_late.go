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
// the level by any worker: an open-addressing table, at most half full.
type lateTable struct {
	slots []*newState
	mask  uint64
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
	t := &lateTable{slots: make([]*newState, size), mask: uint64(size - 1)}
	for _, w := range r.w {
		for i := range w.late {
			e := &w.late[i]
			j := t.home(e.fp)
			for t.slots[j] != nil && t.slots[j].fp != e.fp {
				j = (j + 1) & t.mask
			}
			if o := t.slots[j]; o == nil || e.key < o.key {
				t.slots[j] = e
			}
		}
	}
	return t
}

func (t *lateTable) home(f fingerprint) uint64 { return (f.lo * 0x9e3779b97f4a7c15) >> 32 & t.mask }

// get returns the least-key late offer of f, or nil.
func (t *lateTable) get(f fingerprint) *newState {
	for j := t.home(f); ; j = (j + 1) & t.mask {
		e := t.slots[j]
		if e == nil || e.fp == f {
			return e
		}
	}
}

// settleLate gives each of the worker's candidates the least key offered
// for it late, if less than its own; under symmetry the representative
// that offer reached comes with it (it may be in another worker's store:
// the candidate's sw says whose).
func (w *bfsWorker) settleLate(t *lateTable) {
	if t == nil {
		return
	}
	for i := range w.cands {
		c := &w.cands[i]
		e := t.get(c.fp)
		if e == nil || e.key >= c.key {
			continue
		}
		c.key, c.tix = e.key, e.tix
		if w.r.sym {
			c.sw, c.blk, c.off, c.n, c.st = e.sw, e.blk, e.off, e.n, e.st
		}
	}
}
