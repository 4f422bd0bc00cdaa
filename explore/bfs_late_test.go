package explore

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// settleAlone settles all of w's candidates by w alone, as one part.
// setCands makes cs the worker's candidates.
func setCands(w *bfsWorker, cs []newState) { w.cands = append(w.cands[:0], cs...) }

func settleAlone(w *bfsWorker, t *lateTable) (sorted bool) {
	if t == nil {
		return false
	}
	w.settleParts(1)
	w.settlePart(t, w, 0, 1)
	return w.settleDone()
}

// TestSettleLate checks the end of a shared level's late offers: a
// candidate takes the least key any other worker offered late when it is
// less than its own (and under symmetry the representative that offer
// kept), and moves to its place in key order; a greater late key changes
// nothing; a late offer no candidate matches (an older state with the
// level's stamp) is dropped; no late offers, no table.
func TestSettleLate(t *testing.T) {
	fp := func(k uint64) fingerprint { return fingerprint{lo: k*0x9e3779b97f4a7c15 | 1} }
	for _, sym := range []bool{false, true} {
		r := &bfsRun{sym: sym}
		w0, w1, w2 := &bfsWorker{r: r, id: 0}, &bfsWorker{r: r, id: 1}, &bfsWorker{r: r, id: 2}
		r.w = []*bfsWorker{w0, w1, w2}
		if r.lateTable() != nil {
			t.Fatal("a table with no late offers")
		}
		setCands(w0, []newState{{fp: fp(5), key: 100, tix: 5, blk: 5}, {fp: fp(6), key: 200, tix: 6, blk: 6}})
		setCands(w2, []newState{
			{fp: fp(1), key: 500, tix: 1, sw: 2, blk: 1},
			{fp: fp(2), key: 600, tix: 2, sw: 2, blk: 2},
			{fp: fp(3), key: 700, tix: 3, sw: 2, blk: 3},
			{fp: fp(4), key: 800, tix: 4, sw: 2, blk: 4},
		})
		w0.late = []newState{
			{fp: fp(3), key: 150, tix: 13, sw: 0, blk: 13}, // lowers, below fp(1)'s key
			{fp: fp(1), key: 120, tix: 11, sw: 0, blk: 11}, // lowers, and beats w1's offer
		}
		w1.late = []newState{
			{fp: fp(1), key: 300, tix: 21, sw: 1, blk: 21},
			{fp: fp(2), key: 650, tix: 22, sw: 1, blk: 22}, // greater: no change
			{fp: fp(9), key: 5, tix: 29, sw: 1, blk: 29},   // no candidate
		}
		tab := r.lateTable()
		for _, w := range r.w {
			if !settleAlone(w, tab) {
				t.Fatalf("sym=%v: worker %d's candidates, in key order, are said not to be", sym, w.id)
			}
		}
		type row struct {
			key     uint64
			tix     uint32
			sw, blk int32
		}
		got := func(w *bfsWorker) []row {
			var rs []row
			for _, c := range w.cands {
				rs = append(rs, row{c.key, c.tix, c.sw, c.blk})
			}
			return rs
		}
		want := []row{{120, 11, 0, 11}, {150, 13, 0, 13}, {600, 2, 2, 2}, {800, 4, 2, 4}}
		if !sym {
			want[0].sw, want[0].blk, want[1].sw, want[1].blk = 2, 1, 2, 3 // the state stays
		}
		if g := got(w2); !slices.Equal(g, want) {
			t.Fatalf("sym=%v: worker 2's candidates %v, want %v", sym, g, want)
		}
		if g, want := got(w0), []row{{100, 5, 0, 5}, {200, 6, 0, 6}}; !slices.Equal(g, want) {
			t.Fatalf("sym=%v: worker 0's candidates %v, want %v", sym, g, want)
		}

		// Out of key order (never so in a search), the keys are lowered
		// all the same and the order is left to sortCandidates.
		setCands(w2, []newState{{fp: fp(3), key: 700, tix: 3}, {fp: fp(1), key: 500, tix: 1}})
		if settleAlone(w2, tab) {
			t.Fatalf("sym=%v: candidates out of key order are said to be in it", sym)
		}
		if w2.cands[0].key != 150 || w2.cands[1].key != 120 {
			t.Fatalf("sym=%v: keys %d, %d, want 150, 120", sym, w2.cands[0].key, w2.cands[1].key)
		}
	}
}

// TestMergeLowered: candidates in key order, some of whose keys are then
// lowered, come out in key order, each with its own fields, for many
// random levels.
func TestMergeLowered(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 300; round++ {
		n := 1 + rng.IntN(200)
		used := map[uint64]bool{}
		fresh := func(below uint64) uint64 {
			for {
				k := rng.Uint64N(below)
				if !used[k] {
					used[k] = true
					return k
				}
			}
		}
		var keys []uint64
		for len(keys) < n {
			keys = append(keys, fresh(1<<20))
		}
		slices.Sort(keys)
		w := &bfsWorker{}
		for i, k := range keys {
			w.cands = append(w.cands, newState{key: k, tix: uint32(i)})
		}
		for i := range w.cands {
			if rng.IntN(4) == 0 && w.cands[i].key > 0 {
				w.cands[i].key = fresh(w.cands[i].key)
				w.lowered = append(w.lowered, int32(i))
			}
		}
		want := slices.Clone(w.cands)
		slices.SortFunc(want, func(a, b newState) int { return cmpU64(a.key, b.key) })
		if len(w.lowered) > 0 {
			w.mergeLowered()
		}
		for i := range want {
			if w.cands[i].key != want[i].key || w.cands[i].tix != want[i].tix {
				t.Fatalf("round %d (%d candidates, %d lowered): position %d holds (%d, %d), want (%d, %d)",
					round, n, len(w.lowered), i, w.cands[i].key, w.cands[i].tix, want[i].key, want[i].tix)
			}
		}
	}
}

// TestSettleParts: the workers of a level settling the parts of every
// worker's candidates side by side (settlePart, then settleDone) leave
// each worker's candidates exactly as that worker settling them alone
// would, and say the same of their order, for random levels of 1 to 4
// workers (among them candidates out of key order).
func TestSettleParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 300; round++ {
		n := 1 + rng.IntN(4)
		build := func() *bfsRun {
			r := &bfsRun{}
			for i := 0; i < n; i++ {
				r.w = append(r.w, &bfsWorker{r: r, id: i})
			}
			return r
		}
		a, b := build(), build()
		next := uint64(0)
		for i := 0; i < n; i++ {
			var cs []newState
			for k := rng.IntN(50); k > 0; k-- {
				next += 1 + rng.Uint64N(5)
				cs = append(cs, newState{fp: fingerprint{lo: next*0x9e3779b97f4a7c15 | 1}, key: next + 1000, tix: uint32(next)})
			}
			if rng.IntN(5) == 0 && len(cs) > n {
				// Out of order across a boundary between two parts
				// (each part in order by itself), or anywhere.
				j := len(cs) * (1 + rng.IntN(max(1, n-1))) / n
				if n == 1 {
					j = 1 + rng.IntN(len(cs)-1)
				}
				cs[j-1], cs[j] = cs[j], cs[j-1]
			}
			setCands(a.w[i], cs)
			setCands(b.w[i], cs)
		}
		// Many late offers, or a few (whose least key, the bound below
		// which nothing is looked up, is then high); some just below the
		// candidate's key.
		rate := []int{3, 40}[rng.IntN(2)]
		for i := 0; i < n; i++ {
			for _, o := range a.w {
				for _, c := range o.cands {
					if o.id != i && rng.IntN(rate) == 0 {
						k := rng.Uint64N(c.key + 500)
						if rng.IntN(2) == 0 {
							k = c.key - 1
						}
						e := newState{fp: c.fp, key: k, tix: uint32(rng.IntN(1000))}
						a.w[i].late = append(a.w[i].late, e)
						b.w[i].late = append(b.w[i].late, e)
					}
				}
			}
		}
		// Each candidate's key must come out as the least of its own
		// and those the other workers offered late for it.
		least := map[fingerprint]uint64{}
		for i, w := range a.w {
			for _, c := range w.cands {
				k := c.key
				for _, o := range a.w {
					for _, e := range o.late {
						if o.id != i && e.fp == c.fp {
							k = min(k, e.key)
						}
					}
				}
				least[c.fp] = k
			}
		}
		ta, tb := a.lateTable(), b.lateTable()
		if ta == nil {
			continue
		}
		var sortedA []bool
		for _, w := range a.w {
			sortedA = append(sortedA, settleAlone(w, ta))
		}
		for _, w := range b.w {
			w.settleParts(n)
		}
		for _, w := range b.w {
			for _, o := range b.w {
				w.settlePart(tb, o, w.id, n)
			}
		}
		for i, w := range a.w {
			for _, c := range w.cands {
				if c.key != least[c.fp] {
					t.Fatalf("round %d: worker %d of %d: a candidate settled with key %d, want %d", round, i, n, c.key, least[c.fp])
				}
			}
		}
		for i, w := range b.w {
			if got := w.settleDone(); got != sortedA[i] {
				t.Fatalf("round %d: worker %d of %d: in key order %v in parts, %v alone", round, i, n, got, sortedA[i])
			}
			for j := range w.cands {
				x, y := a.w[i].cands[j], w.cands[j]
				if x.key != y.key || x.tix != y.tix || x.fp != y.fp {
					t.Fatalf("round %d: worker %d of %d, candidate %d: (%d, %d) in parts, (%d, %d) alone",
						round, i, n, j, y.key, y.tix, x.key, x.tix)
				}
			}
		}
	}
}
