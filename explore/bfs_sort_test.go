package explore

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortCandidates: candidates come out in increasing key order with
// their own fields, both when (parent, ordinal, index) pack into 64 bits
// and when they do not (the comparison sort then runs).
func TestSortCandidates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name       string
		base, span uint64 // parent ids in [base, base+span)
		ords       uint64
		packs      bool
	}{
		{"packed", 1000, 5000, 40, true},
		{"wide ordinals", 0, 1 << 31, 1 << 31, false},
	} {
		w := &bfsWorker{}
		seen := map[uint64]bool{}
		for len(w.cands) < 3000 {
			k := (tc.base+rng.Uint64N(tc.span))<<32 | rng.Uint64N(tc.ords)
			if seen[k] {
				continue // a worker's keys are distinct
			}
			seen[k] = true
			w.cands = append(w.cands, newState{key: k, tix: uint32(k), fp: fingerprint{lo: k ^ 0x5555}})
		}
		if _, ok := w.sortPacked(nil); ok != tc.packs {
			t.Fatalf("%s: packed = %v, want %v", tc.name, ok, tc.packs)
		}
		w.sortCandidates()
		if !slices.IsSortedFunc(w.cands, func(a, b newState) int { return cmpU64(a.key, b.key) }) {
			t.Fatalf("%s: candidates not sorted by key", tc.name)
		}
		if len(w.cands) != len(seen) {
			t.Fatalf("%s: %d candidates, want %d", tc.name, len(w.cands), len(seen))
		}
		for _, c := range w.cands {
			if !seen[c.key] || c.tix != uint32(c.key) || c.fp.lo != c.key^0x5555 {
				t.Fatalf("%s: candidate %x lost its fields", tc.name, c.key)
			}
			delete(seen, c.key)
		}
	}
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
