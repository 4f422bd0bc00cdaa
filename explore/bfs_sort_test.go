package explore

import (
	"maps"
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
		if _, ok := w.sortPacked(nil, len(w.cands), func(i int) uint64 { return w.cands[i].key }); ok != tc.packs {
			t.Fatalf("%s: packed = %v, want %v", tc.name, ok, tc.packs)
		}
		for _, w := range []*bfsWorker{w} {
			w.sortCandidates()
			if !slices.IsSortedFunc(w.cands, func(a, b newState) int { return cmpU64(a.key, b.key) }) {
				t.Fatalf("%s: candidates not sorted by key", tc.name)
			}
			if len(w.cands) != len(seen) {
				t.Fatalf("%s: %d candidates, want %d", tc.name, len(w.cands), len(seen))
			}
			left := maps.Clone(seen)
			for _, c := range w.cands {
				if !left[c.key] || c.tix != uint32(c.key) || c.fp.lo != c.key^0x5555 {
					t.Fatalf("%s: candidate %x lost its fields", tc.name, c.key)
				}
				delete(left, c.key)
			}
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

// TestRadixSort: the radix sort agrees with the standard sort on values of
// every width, including digits that take one value in every element (a
// pass skipped) and values equal but for the low bits.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, width := range []int{1, 10, 11, 12, 33, 48, 63, 64} {
		for _, n := range []int{1, 2, 1000, 5000} {
			ps := make([]uint64, n)
			for i := range ps {
				v := rng.Uint64()
				if width < 64 {
					v &= 1<<width - 1
				}
				if width > 22 {
					v &^= 0x7ff << 11 // the second digit is 0 everywhere
				}
				ps[i] = v
			}
			want := slices.Clone(ps)
			slices.Sort(want)
			got := radixSort(ps, make([]uint64, n), width)
			if !slices.Equal(got, want) {
				t.Fatalf("width %d, %d values: radix sort differs from sort", width, n)
			}
		}
	}
}
