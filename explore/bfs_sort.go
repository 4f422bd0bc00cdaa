package explore

import (
	"cmp"
	"math/bits"
	"slices"
)

// sortCandidates orders the level's new states by key. It finds each
// position's state (sortPacked, or a comparison sort of (key, index) pairs
// when the keys do not pack), then permutes the states in place, cycle by
// cycle, so that each 40-byte state moves once.
func (w *bfsWorker) sortCandidates() {
	if slices.IsSortedFunc(w.cands, func(a, b newState) int { return cmp.Compare(a.key, b.key) }) {
		return
	}
	order := w.sortOrder(len(w.cands), func(i int) uint64 { return w.cands[i].key })
	// Position j takes the state at order[j]; a done position is marked
	// by order[j] == j.
	for k := range w.cands {
		if order[k] == uint32(k) {
			continue
		}
		first := w.cands[k]
		for j := k; ; {
			src := int(order[j])
			order[j] = uint32(j)
			if src == k {
				w.cands[j] = first
				break
			}
			w.cands[j] = w.cands[src]
			j = src
		}
	}
	w.order = order
}

// sortOrder returns the indexes of n candidates in increasing order of
// their keys, in w.order's storage.
func (w *bfsWorker) sortOrder(n int, key func(i int) uint64) []uint32 {
	order, ok := w.sortPacked(w.order[:0], n, key)
	if !ok {
		pairs := make([]keyIndex, 0, n)
		for i := 0; i < n; i++ {
			pairs = append(pairs, keyIndex{key(i), uint32(i)})
		}
		slices.SortFunc(pairs, func(a, b keyIndex) int { return cmp.Compare(a.key, b.key) })
		for _, p := range pairs {
			order = append(order, p.i)
		}
	}
	return order
}

// keyIndex is a new state's key and its index, for sorting.
type keyIndex struct {
	key uint64
	i   uint32
}

// sortPacked fills order with the candidates' indexes in increasing key
// order, sorting plain integers rather than (key, index) pairs through a
// comparison function: each candidate becomes one uint64 made of its
// parent id less the least parent id, its ordinal and its index, in that
// order of significance, which sorts exactly as the keys do (keys of one
// worker's candidates are distinct; the index only rides along). It
// reports false, leaving order alone, when the three do not fit in 64
// bits.
func (w *bfsWorker) sortPacked(order []uint32, n int, key func(i int) uint64) ([]uint32, bool) {
	minP, maxP, maxO := ^uint32(0), uint32(0), uint32(0)
	for i := 0; i < n; i++ {
		k := key(i)
		p, o := uint32(k>>32), uint32(k)
		minP, maxP, maxO = min(minP, p), max(maxP, p), max(maxO, o)
	}
	pBits, oBits, iBits := bits.Len32(maxP-minP), bits.Len32(maxO), bits.Len(uint(n))
	if pBits+oBits+iBits > 64 {
		return order, false
	}
	ps := w.packed[:0]
	for i := 0; i < n; i++ {
		k := key(i)
		p, o := uint64(uint32(k>>32)-minP), uint64(uint32(k))
		ps = append(ps, (p<<oBits|o)<<iBits|uint64(i))
	}
	var sorted []uint64
	if len(ps) < radixMin {
		slices.Sort(ps)
		sorted = ps
	} else {
		w.radix = slices.Grow(w.radix[:0], len(ps))[:len(ps)]
		sorted = radixSort(ps, w.radix, pBits+oBits+iBits)
	}
	mask := uint64(1)<<iBits - 1
	for _, v := range sorted {
		order = append(order, uint32(v&mask))
	}
	w.packed = ps
	return order, true
}

// radixMin is the least number of candidates sorted by radix rather than
// by comparisons.
const radixMin = 1024

// radixBits is the width of one digit of radixSort: 2,048 counters, and as
// many places written at once, stay in the first-level caches.
const radixBits = 11

// radixSort sorts ps, whose values are below 1<<width, a digit of radixBits
// at a time from the least significant (a stable counting sort per digit),
// with tmp (as long as ps) as the other buffer. It returns the one of the
// two that holds the result.
func radixSort(ps, tmp []uint64, width int) []uint64 {
	const buckets = 1 << radixBits
	var counts [buckets]int
	src, dst := ps, tmp
	for shift := 0; shift < width; shift += radixBits {
		clear(counts[:])
		for _, v := range src {
			counts[v>>shift&(buckets-1)]++
		}
		if counts[src[0]>>shift&(buckets-1)] == len(src) {
			continue // one value of this digit: the order stands
		}
		sum := 0
		for i, c := range counts {
			counts[i] = sum
			sum += c
		}
		for _, v := range src {
			d := v >> shift & (buckets - 1)
			dst[counts[d]] = v
			counts[d]++
		}
		src, dst = dst, src
	}
	return src
}
