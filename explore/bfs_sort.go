package explore

import (
	"math/bits"
	"slices"
)

// sortPacked fills order with the candidates' indexes in increasing key
// order, sorting plain integers rather than (key, index) pairs through a
// comparison function: each candidate becomes one uint64 made of its
// parent id less the least parent id, its ordinal and its index, in that
// order of significance, which sorts exactly as the keys do (keys of one
// worker's candidates are distinct; the index only rides along). It
// reports false, leaving order alone, when the three do not fit in 64
// bits.
func (w *bfsWorker) sortPacked(order []keyIndex) ([]keyIndex, bool) {
	cs := w.cands
	minP, maxP, maxO := ^uint32(0), uint32(0), uint32(0)
	for i := range cs {
		p, o := uint32(cs[i].key>>32), uint32(cs[i].key)
		minP, maxP, maxO = min(minP, p), max(maxP, p), max(maxO, o)
	}
	pBits, oBits, iBits := bits.Len32(maxP-minP), bits.Len32(maxO), bits.Len(uint(len(cs)))
	if pBits+oBits+iBits > 64 {
		return order, false
	}
	ps := w.packed[:0]
	for i := range cs {
		p, o := uint64(uint32(cs[i].key>>32)-minP), uint64(uint32(cs[i].key))
		ps = append(ps, (p<<oBits|o)<<iBits|uint64(i))
	}
	slices.Sort(ps)
	mask := uint64(1)<<iBits - 1
	for _, v := range ps {
		order = append(order, keyIndex{i: uint32(v & mask)})
	}
	w.packed = ps
	return order, true
}
