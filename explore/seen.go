package explore

import "math/bits"

// seenShards is the number of independent shards of a seen-set; a
// fingerprint's top bits pick its shard, so each table grows in small steps.
const seenShards = 64

// seenSet is a set of fingerprints: open-addressing tables with linear
// probing, one per shard, holding 8 bytes a slot (64-bit fingerprints) or
// 16 (128-bit). A shard grows by 40% when it is 90% full, so a table is
// between 64% and 90% full: 8.9 to 12.4 bytes per 64-bit fingerprint, 10.5
// on average (with 5-byte parent links, 13.9 to 17.4 in all, 15.5 on
// average). A fingerprint's top 6 bits are its shard's number, so a slot
// stores the other 58 shifted up, with two flags below: occupied (a slot
// is never 0) and "reached in the current BFS level", which lets the BFS
// tell a state of this level from an older one without a second table.
// Not safe for concurrent use: each owner of a partition has its own.
type seenSet struct {
	wide   bool
	shards [seenShards]shard
}

type shard struct {
	lo, hi []uint64 // hi is nil with 64-bit fingerprints
	n      int
}

const (
	occupied  = 1
	thisLevel = 2
	flagBits  = 6
	// offeredBy0 is the first of offeredBits flags: flag k (bit 2+k) of a
	// state reached in the current level says that worker k has offered it
	// to its owner in this level (see bfsWorker.offer).
	offeredBy0  = 4
	offeredBits = flagBits - 2
	// levelBits are the flags a level sets and settle clears.
	levelBits = 1<<flagBits - 2
)

// packed is f's low half as a slot stores it.
func packed(f fingerprint) uint64 { return f.lo<<flagBits | occupied }

const firstSlots = 256

func newSeenSet(wide bool) *seenSet {
	s := &seenSet{wide: wide}
	for i := range s.shards {
		s.shards[i].alloc(firstSlots, wide)
	}
	return s
}

func (sh *shard) alloc(n int, wide bool) {
	sh.lo = touched(make([]uint64, n))
	if wide {
		sh.hi = touched(make([]uint64, n))
	}
}

// touched writes a zero into each 4 KiB page of a new table and returns
// it. Fresh memory from the operating system is mapped at its first touch:
// a read first maps a shared zero page, and the write that follows must
// replace it and flush that page from every core's TLB — an interrupt to
// each core running another worker, at every page of every table a probe
// reads before it writes. A write first maps the page once, locally.
func touched(t []uint64) []uint64 {
	eachPageSlot(len(t), func(i int) { t[i] = 0 })
	return t
}

// eachPageSlot calls fn with slots of a table of n 8-byte slots, one in
// each 4 KiB page the table overlaps wherever it starts: every 512th from
// the first, and the last. Tables under 32 KiB (a shared seen-set's
// shards, mostly) are not page-aligned, so their last page is partly
// theirs: without the last slot it was read first, and with two workers
// on RA N=4 the flushes that followed took 1.7% of the CPU time.
func eachPageSlot(n int, fn func(int)) {
	for i := 0; i < n; i += 4096 / 8 {
		fn(i)
	}
	if n > 0 {
		fn(n - 1)
	}
}

// home is the first slot of a fingerprint whose slot value is v in a table
// of n: v's bits scaled to n (no power of two needed).
func home(v uint64, n int) uint64 {
	h, _ := bits.Mul64(v, uint64(n))
	return h
}

// find returns the slot holding f, or the empty slot where it belongs.
func (sh *shard) find(f fingerprint) (uint64, bool) {
	return sh.findFrom(f, home(packed(f)>>flagBits<<flagBits, len(sh.lo)))
}

// findFrom is find with the probe started at slot i, on f's probe path
// past slots that hold other fingerprints.
func (sh *shard) findFrom(f fingerprint, i uint64) (uint64, bool) {
	v := packed(f)
	lo, hi := sh.lo, sh.hi // in locals: the loop does not reload them
	n := uint64(len(lo))
	for {
		x := lo[i]
		switch {
		case x == 0:
			return i, false
		case x&^levelBits == v && (hi == nil || hi[i] == f.hi):
			return i, true
		}
		if i++; i == n {
			i = 0
		}
	}
}

// insert adds f and reports whether it was new.
func (s *seenSet) insert(f fingerprint) bool {
	isNew, _ := s.reach(f, 0)
	return isNew
}

// reach adds f with the given flags (0, or thisLevel with any offered
// flags) unless present; it reports whether f was new and, if not, the
// flags it carried. A state present with thisLevel gains the flags given.
func (s *seenSet) reach(f fingerprint, flag uint64) (isNew bool, had uint64) {
	return s.shards[f.lo>>(64-flagBits)].reach(f, flag)
}

// reach is seenSet.reach within the shard.
func (sh *shard) reach(f fingerprint, flag uint64) (isNew bool, had uint64) {
	i, ok := sh.find(f)
	if ok {
		x := sh.lo[i]
		if x&thisLevel != 0 {
			storeSlot(&sh.lo[i], x|flag)
		}
		return false, x & levelBits
	}
	storeSlot(&sh.lo[i], packed(f)|flag)
	if sh.hi != nil {
		sh.hi[i] = f.hi // not read without a lock (settled: 64-bit only)
	}
	sh.n++
	if sh.n*10 > len(sh.lo)*9 {
		sh.grow()
	}
	return true, 0
}

// prefetch reads the home slot of each fingerprint, and the slots 8 and
// 16 further on, and returns a value made of them (to be kept, so the
// loads are not optimised away): the loads are independent, so their
// cache misses overlap, and the probes that follow hit the cache. A probe
// for a new fingerprint runs about 15 slots at the loads a table sees
// (64-90%), so it crosses two or three 64-byte lines; loading only the
// home line left the others to miss one by one (RA N=4, one worker: the
// two further lines took 6% off the search).
func (s *seenSet) prefetch(fs []fingerprint) uint64 {
	var sum uint64
	for _, f := range fs {
		sum += s.homeSlot(f)
	}
	return sum
}

// homeSlot is the sum of f's home slot and the slots 8 and 16 further on
// (loads for prefetching: one in each of the next lines a probe reads).
func (s *seenSet) homeSlot(f fingerprint) uint64 {
	sh := &s.shards[f.lo>>(64-flagBits)]
	v := packed(f)
	i := home(v>>flagBits<<flagBits, len(sh.lo))
	j, k := nextLines(i, len(sh.lo))
	return sh.lo[i] + sh.lo[j] + sh.lo[k]
}

// nextLines are the slots 8 and 16 after slot i in a table of n (the last
// slot at most): one in each of the two lines after i's that a probe for a
// new fingerprint reads (see prefetch).
func nextLines(i uint64, n int) (uint64, uint64) {
	last := uint64(n - 1)
	return min(i+8, last), min(i+16, last)
}

// settle clears f's level flags: its level is over.
func (s *seenSet) settle(f fingerprint) {
	sh := &s.shards[f.lo>>(64-flagBits)]
	if i, ok := sh.find(f); ok {
		sh.lo[i] &^= levelBits
	}
}

// contains reports whether f is in the set.
func (s *seenSet) contains(f fingerprint) bool {
	_, ok := s.shards[f.lo>>(64-flagBits)].find(f)
	return ok
}

// bytes is the memory the shard's table holds.
func (sh *shard) bytes() int64 { return int64(len(sh.lo)+len(sh.hi)) * 8 }

func (sh *shard) grow() {
	lo, hi := sh.lo, sh.hi
	sh.alloc(len(lo)+len(lo)*2/5, hi != nil)
	nlo, nhi := sh.lo, sh.hi // in locals: the loop does not reload them
	n := uint64(len(nlo))
	for j, x := range lo {
		if x == 0 {
			continue
		}
		i := home(x>>flagBits<<flagBits, len(nlo))
		for nlo[i] != 0 {
			if i++; i == n {
				i = 0
			}
		}
		nlo[i] = x
		if hi != nil {
			nhi[i] = hi[j]
		}
	}
}

// count is the number of fingerprints in the set.
func (s *seenSet) count() int64 {
	var n int64
	for i := range s.shards {
		n += int64(s.shards[i].n)
	}
	return n
}

// bytes is the memory held by the tables.
func (s *seenSet) bytes() int64 {
	var b int64
	for i := range s.shards {
		b += s.shards[i].bytes()
	}
	return b
}

// fpIndex maps the fingerprints of one BFS level's new states to their
// index among the level's new states (whose entries keep the least key
// offered so far): open addressing, linear probing, one 8-byte slot per
// entry, grown at 3/4 load, emptied (not freed) between levels. A slot
// holds 32 bits of the fingerprint, which also place it, and the index+1
// (0 marks an empty slot); a match on the 32 bits is checked against the
// whole fingerprint of the new state it names, which the caller reads
// anyway.
type fpIndex struct {
	slots []uint64
	n     int
}

func newFPIndex() *fpIndex { return &fpIndex{slots: make([]uint64, 1024)} }

// fpCheck is the part of f an index slot holds.
func fpCheck(f fingerprint) uint64 { return f.lo >> 32 << 32 }

// lookup returns the index of f among cands, inserting it with index next
// when absent (isNew); cands holds every entry's state but the one being
// inserted.
func (t *fpIndex) lookup(f fingerprint, next uint32, cands []newState) (i uint32, isNew bool) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	n := uint64(len(t.slots))
	check := fpCheck(f)
	for j := home(check, len(t.slots)); ; {
		sl := t.slots[j]
		switch {
		case sl == 0:
			t.slots[j] = check | uint64(next+1)
			t.n++
			return next, true
		case sl>>32<<32 == check && cands[uint32(sl)-1].fp == f:
			return uint32(sl) - 1, false
		}
		if j++; j == n {
			j = 0
		}
	}
}

// prefetch reads the home slot of each fingerprint (see
// seenSet.prefetch), growing the table first when the batch could fill it,
// so that the lookups that follow hit the cache.
func (t *fpIndex) prefetch(fs []fingerprint) uint64 {
	for 4*(t.n+len(fs)) > 3*len(t.slots) {
		t.grow()
	}
	var sum uint64
	for _, f := range fs {
		sum += t.slots[home(fpCheck(f), len(t.slots))]
	}
	return sum
}

func (t *fpIndex) grow() { t.slots = doubled(t.slots, 32) }

// doubled returns a table twice as large holding the slots of old, an
// index whose slots are placed by their bits above the low low bits (0
// marks an empty slot).
func doubled(old []uint64, low int) []uint64 {
	slots := make([]uint64, 2*len(old))
	n := uint64(len(slots))
	for _, sl := range old {
		if sl == 0 {
			continue
		}
		i := home(sl>>low<<low, len(slots))
		for slots[i] != 0 {
			if i++; i == n {
				i = 0
			}
		}
		slots[i] = sl
	}
	return slots
}

// reset empties the index, shrinking a table far larger than its last use.
func (t *fpIndex) reset() {
	if len(t.slots) > 1024 && t.n*16 < len(t.slots) {
		*t = *newFPIndex()
		return
	}
	clear(t.slots)
	t.n = 0
}

// bytes is the memory the index holds.
func (t *fpIndex) bytes() int64 { return int64(len(t.slots)) * 8 }
