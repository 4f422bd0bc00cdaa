package explore

import "testing"

// TestFPIndex: a fingerprint maps to the index it was inserted with, across
// growth; two fingerprints sharing the 32 bits a slot holds are two
// entries, and so are two sharing their low half (128 bits).
func TestFPIndex(t *testing.T) {
	for _, wide := range []bool{false, true} {
		x := newFPIndex()
		var cands []newState
		add := func(f fingerprint) {
			i, isNew := x.lookup(f, uint32(len(cands)), cands)
			if !isNew || int(i) != len(cands) {
				t.Fatalf("wide=%v: inserting %v gave %d, %v", wide, f, i, isNew)
			}
			cands = append(cands, newState{fp: f})
		}
		for k := uint64(1); k <= 5000; k++ {
			add(fingerprint{lo: k * 0x9e3779b97f4a7c15})
		}
		add(fingerprint{lo: 0x9e3779b97f4a7c15 ^ 1}) // the same 32 bits in its slot as entry 0
		if wide {
			add(fingerprint{lo: 0x9e3779b97f4a7c15, hi: 99}) // same low half as entry 0
		}
		for i, c := range cands {
			if j, isNew := x.lookup(c.fp, 0, cands); isNew || int(j) != i {
				t.Fatalf("wide=%v: %v found at %d (new %v), want %d", wide, c.fp, j, isNew, i)
			}
		}
	}
}
