package explore

import "testing"

// TestFPIndex: a fingerprint maps to the index it was inserted with, across
// growth; with 128 bits, two fingerprints sharing their low half are two
// entries.
func TestFPIndex(t *testing.T) {
	for _, wide := range []bool{false, true} {
		x := newFPIndex()
		var cands []newState
		add := func(f fingerprint) {
			i, isNew := x.lookup(f, uint32(len(cands)), cands, wide)
			if !isNew || int(i) != len(cands) {
				t.Fatalf("wide=%v: inserting %v gave %d, %v", wide, f, i, isNew)
			}
			cands = append(cands, newState{fp: f})
		}
		for k := uint64(1); k <= 5000; k++ {
			add(fingerprint{lo: k * 0x9e3779b97f4a7c15})
		}
		if wide {
			add(fingerprint{lo: 0x9e3779b97f4a7c15, hi: 99}) // same low half as entry 0
		}
		for i, c := range cands {
			if j, isNew := x.lookup(c.fp, 0, cands, wide); isNew || int(j) != i {
				t.Fatalf("wide=%v: %v found at %d (new %v), want %d", wide, c.fp, j, isNew, i)
			}
		}
	}
}
