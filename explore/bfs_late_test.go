package explore

import "testing"

// TestSettleLate checks the end of a shared level's late offers: a
// candidate takes the least key any worker offered late when it is less
// than its own (and under symmetry the representative that offer kept);
// a greater late key changes nothing; a late offer no candidate matches
// (an older state with the level's stamp) is dropped; no late offers, no
// table.
func TestSettleLate(t *testing.T) {
	fp := func(k uint64) fingerprint { return fingerprint{lo: k*0x9e3779b97f4a7c15 | 1} }
	for _, sym := range []bool{false, true} {
		r := &bfsRun{sym: sym}
		w0, w1 := &bfsWorker{r: r, id: 0}, &bfsWorker{r: r, id: 1}
		r.w = []*bfsWorker{w0, w1}
		if r.lateTable() != nil {
			t.Fatal("a table with no late offers")
		}
		w0.cands = []newState{
			{fp: fp(1), key: 50, tix: 1, sw: 0, blk: 1},
			{fp: fp(2), key: 60, tix: 2, sw: 0, blk: 2},
			{fp: fp(3), key: 70, tix: 3, sw: 0, blk: 3},
		}
		w1.late = []newState{
			{fp: fp(1), key: 40, tix: 11, sw: 1, blk: 11}, // lowers, but w0's own late 30 is less
			{fp: fp(2), key: 65, tix: 12, sw: 1, blk: 12}, // greater: no change
			{fp: fp(9), key: 5, tix: 19, sw: 1, blk: 19},  // no candidate
			{fp: fp(3), key: 20, tix: 13, sw: 1, blk: 13}, // lowers
		}
		w0.late = []newState{
			{fp: fp(1), key: 30, tix: 21, sw: 0, blk: 21},
			{fp: fp(3), key: 25, tix: 23, sw: 0, blk: 23},
		}
		tab := r.lateTable()
		w0.settleLate(tab)
		w1.settleLate(tab)
		want := []struct {
			key     uint64
			tix     uint32
			sw, blk int32
		}{{30, 21, 0, 21}, {60, 2, 0, 2}, {20, 13, 1, 13}}
		for i, c := range w0.cands {
			wk := want[i]
			if c.key != wk.key || c.tix != wk.tix {
				t.Fatalf("sym=%v: candidate %d has key %d tix %d, want %d %d", sym, i, c.key, c.tix, wk.key, wk.tix)
			}
			if sym && (c.sw != wk.sw || c.blk != wk.blk) {
				t.Fatalf("sym=true: candidate %d kept (%d, %d), want the winner's (%d, %d)", i, c.sw, c.blk, wk.sw, wk.blk)
			}
			if !sym && (c.sw != 0 || c.blk != int32(i+1)) {
				t.Fatalf("sym=false: candidate %d's state moved to (%d, %d)", i, c.sw, c.blk)
			}
		}
	}
}
