package explore

import (
	"math/rand/v2"
	"testing"
)

// TestTouchedReachesEveryPage: the slots touched writes (eachPageSlot)
// fall in every 4 KiB page a table overlaps, wherever it starts: a page
// missed is read before it is written, which costs every other core a
// TLB flush.
func TestTouchedReachesEveryPage(t *testing.T) {
	const page = 4096
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		at := uintptr(rng.Uint64N(1<<20)) * 8
		n := 1 + int(rng.Uint64N(3000))
		if rng.Uint64N(4) == 0 {
			at = at &^ (page - 1) // page-aligned, as large tables are
		}
		written := map[uintptr]bool{}
		eachPageSlot(n, func(i int) {
			if i < 0 || i >= n {
				t.Fatalf("%d slots: slot %d named", n, i)
			}
			written[(at+uintptr(i)*8)/page] = true
		})
		for p := at / page; p <= (at+uintptr(n)*8-1)/page; p++ {
			if !written[p] {
				t.Fatalf("%d slots at %#x: page %#x not written", n, at, p*page)
			}
		}
	}
}
