package explore

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCutAt: for random levels of 1 to 9 workers (keys distinct, each
// worker's in order, 0 among them at times), cutAt(rank) leaves exactly
// rank candidates below the cut, every one with a lesser key than every
// candidate above it.
func TestCutAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := 0; round < 500; round++ {
		n := 1 + rng.IntN(9)
		r := &bfsRun{}
		var all []uint64
		used := map[uint64]bool{}
		for i := 0; i < n; i++ {
			w := &bfsWorker{r: r, id: i}
			var keys []uint64
			for k := rng.IntN(30); k > 0; k-- {
				key := rng.Uint64N(200)
				if rng.IntN(4) == 0 {
					key = rng.Uint64() // far apart too
				}
				if !used[key] {
					used[key] = true
					keys = append(keys, key)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				w.cands = append(w.cands, newState{key: k})
			}
			all = append(all, keys...)
			r.w = append(r.w, w)
		}
		slices.Sort(all)
		for rank := 0; rank <= len(all); rank++ {
			cut := r.cutAt(rank)
			sum := 0
			for i, w := range r.w {
				sum += cut[i]
				for j, c := range w.cands {
					below := rank > 0 && c.key <= all[rank-1]
					if (j < cut[i]) != below {
						t.Fatalf("round %d, rank %d of %d: worker %d's candidate %d (key %d) on the wrong side of the cut %v",
							round, rank, len(all), i, j, c.key, cut)
					}
				}
			}
			if sum != rank {
				t.Fatalf("round %d: cut %v at rank %d holds %d below it", round, cut, rank, sum)
			}
		}
	}
}
