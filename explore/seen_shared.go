package explore

import (
	"sync"
	"sync/atomic"
)

// sharedSeen is the seen-set the workers of one in-process BFS share:
// sharedShards shards, each an open-addressing table (shard, as in
// seenSet) with its own lock. A worker offers its successors here
// directly: there are no batches between workers, and a state is encoded
// only by the worker that reaches it first (who else offers it in the
// level is settled after it: bfs_late.go).
//
// A fingerprint's top 6 bits and low 4 bits pick its shard: the table slot
// keeps the low 58 bits (packed), so a shard holds exactly the same
// fingerprints a seenSet would, and the slot's home, taken from the top
// bits of the packed value, does not depend on which shard it is in.
//
// The tables' current slices are also published apart from the locks
// (pub), for the reads and additions made without them (prefetch,
// settled, claim): those lines change only when a table is replaced, so
// they stay in every core's cache, while a shard's lock line moves between
// the cores that take it.
//
// Most offers take no lock. A read (settled) settles those that can change
// nothing, and a fingerprint that is not in the table is added by a
// compare-and-swap of the empty slot where the read stopped (claim), by
// workers 0–2 (which have an offered flag) with 64-bit fingerprints. The
// rest is done under the shard's lock: flagging a fingerprint of the level
// offered by one more worker, additions by the other workers, additions
// whose compare-and-swap lost the slot, and replacing a table. Under the
// lock, an addition is a compare-and-swap too (claims race for the empty
// slots); the occupied slots are written only under the lock.
//
// A table is replaced (grow) under the lock, with its shard's replacing
// word set while the old table is copied. A claim reads that word, and the
// published table, after its compare-and-swap: if no replacement had begun
// and the table is still the shard's, the copy, which reads the slots
// after setting the word, will see the claimed slot. Otherwise the claim
// is settled under the lock (resolveClaim): the fingerprint is then in the
// new table with the claimer's flag if it was copied (and is the
// claimer's new state), with only another worker's if that worker added it
// to the new table meanwhile (and the claimer's offer is late), or not at
// all (and is added).
//
// Claims are counted in each worker's own tally, added to the shard's
// count every so often (under the lock, where the table is grown if the
// count calls for it) and after each level (flushTallies): a shared count
// would move one more cache line between the cores at every addition. A
// table is so at most 90% full plus what the tallies hold, at most 1/32 of
// it; after each level, the tables have the sizes their counts call for,
// whatever the order of the additions.
type sharedSeen struct {
	shards  [sharedShards]lockedShard
	pub     [sharedShards]shardTables
	wide    bool
	workers int // how many tallies there are (added's slack)
}

type lockedShard struct {
	mu  sync.Mutex
	s   shard // n: the additions made under the lock and the tallies added
	pub *shardTables
	_   [56]byte // 128 bytes: no cache line shared with another shard
}

// shardTables is a shard's table as published for reads and claims
// without the lock.
type shardTables struct {
	tab       atomic.Pointer[[]uint64] // s.lo
	replacing atomic.Uint32            // 1 while the table is being copied into a larger one
	_         uint32
}

// tally counts, per shard, the claims a worker has made and not yet added
// to the shard's count.
type tally [sharedShards]int32

const (
	sharedLowBits = 4
	sharedShards  = seenShards << sharedLowBits
)

func newSharedSeen(wide bool, workers int) *sharedSeen {
	s := &sharedSeen{wide: wide, workers: max(1, workers)}
	for i := range s.shards {
		s.shards[i].pub = &s.pub[i]
		s.shards[i].s.alloc(firstSlots/(1<<sharedLowBits)*4, wide)
		s.shards[i].publish()
	}
	return s
}

// publish makes the shard's current table the one read without the lock;
// call it under the lock whenever it may have been replaced.
func (sh *lockedShard) publish() {
	p := sh.pub
	if t := p.tab.Load(); t == nil || len(*t) != len(sh.s.lo) {
		lo := sh.s.lo
		p.tab.Store(&lo)
	}
}

// prefetch reads the home slot of each fingerprint in its shard's table,
// and the slots 8 and 16 further on,
// without the locks (see seenSet.prefetch): the values read may be stale,
// and serve only to bring the slots into the cache.
func (s *sharedSeen) prefetch(fs []fingerprint) uint64 {
	var sum uint64
	for _, f := range fs {
		p := &s.pub[shardOf(f)]
		t := *p.tab.Load()
		i := home(packed(f)>>flagBits<<flagBits, len(t))
		j, k := nextLines(i, len(t))
		sum += atomic.LoadUint64(&t[i]) + atomic.LoadUint64(&t[j]) + atomic.LoadUint64(&t[k])
	}
	return sum
}

// settled reports, without the lock, that an offer of f in the level whose
// stamp is stamp, by the worker whose offered flag is by, can change
// nothing: f is in the table from an earlier level, or from this one and
// offered before by the same worker. It reads the table prefetch reads:
// possibly one replaced since (it then holds a subset of the fingerprints,
// each with its stamp, and flags that are only ever added), and slots
// possibly being written (each is read whole: an 8-byte aligned load,
// and written whole: storeSlot or a compare-and-swap). A false answer says
// nothing. With 128-bit fingerprints it always answers false.
//
// It also returns the table it read and where its probe stopped, for claim
// and reachStamped: f's slot or the empty slot where f belonged (t nil: no
// probe).
func (s *sharedSeen) settled(f fingerprint, stamp, by uint64) (ok bool, at uint64, t []uint64) {
	if s.wide {
		return false, 0, nil
	}
	t = *s.pub[shardOf(f)].tab.Load()
	v := packed(f)
	for i := home(v>>flagBits<<flagBits, len(t)); ; {
		x := atomic.LoadUint64(&t[i])
		switch {
		case x == 0:
			return false, i, t
		case x&^levelBits == v:
			return x&stampMask != stamp || x&by != 0, i, t
		}
		if i++; i == uint64(len(t)) {
			i = 0
		}
	}
}

// Slots of a shared seen-set carry, instead of seenSet's level flags, the
// level at which the state was first reached (modulo 4: its stamp) and
// which of workers 0–2 have offered it in that level. A state whose stamp
// is the current level's may still be one of an earlier level (4, 8, ...
// levels before): its offer is then noted late, and matches no candidate
// of the level (bfs_late.go). Nothing is cleared when a level ends.
const (
	stampShift  = 1
	stampMask   = 3 << stampShift
	sharedBy0   = 1 << 3
	sharedByMax = 3
)

// stampOf is the stamp of the states first reached at depth d.
func stampOf(d int) uint64 { return uint64(d&3) << stampShift }

// canClaim reports whether the worker whose offered flag is by adds
// fingerprints without the lock (claim): only with a flag, by which
// resolveClaim tells its claim from another worker's addition, and with
// 64-bit fingerprints, whose slot is one word.
func (s *sharedSeen) canClaim(by uint64) bool { return by != 0 && !s.wide }

// claim adds f, first reached in the level whose stamp is stamp, by the
// worker whose offered flag is by and whose tally is tl, without the lock:
// into slot at of table t, where settled found it empty. It reports
// whether the slot was still empty. If so, f is new to the worker — also
// when the table was being replaced meanwhile (settled then under the
// lock: resolveClaim), unless another worker added it to the new table
// first, when inLevel says so (the offer is late).
func (s *sharedSeen) claim(f fingerprint, stamp, by, at uint64, t []uint64, tl *tally) (claimed, inLevel bool) {
	if !atomic.CompareAndSwapUint64(&t[at], 0, packed(f)|stamp|by) {
		return false, false
	}
	k := shardOf(f)
	p := &s.pub[k]
	if p.replacing.Load() == 0 && len(*p.tab.Load()) == len(t) {
		// No copy had begun (tables are only replaced by larger ones):
		// any copy will read the slot.
		s.added(k, len(t), tl)
		return true, false
	}
	return true, s.resolveClaim(f, stamp, by)
}

// add adds f, first reached in the level whose stamp is stamp, by the
// worker whose offered flag is by and whose tally is tl, after settled did
// not settle it (its probe stopped at slot at of table t): by a claim when
// the slot is empty and the worker may claim, under the shard's lock
// otherwise. It reports what reachStamped does.
func (s *sharedSeen) add(f fingerprint, stamp, by, at uint64, t []uint64, tl *tally) (isNew, inLevel, again bool) {
	if s.canClaim(by) && atomic.LoadUint64(&t[at]) == 0 {
		if claimed, late := s.claim(f, stamp, by, at, t, tl); claimed {
			return !late, late, false
		}
	}
	sh := s.shard(f)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.reachStamped(f, stamp, by, at, len(t))
}

// resolveClaim settles, under the lock, a claim of f (flag by) made in a
// table that was being replaced: it reports whether another worker added f
// to the new table first (f is then flagged offered by this one).
func (s *sharedSeen) resolveClaim(f fingerprint, stamp, by uint64) (inLevel bool) {
	if testResolved != nil {
		testResolved()
	}
	sh := s.shard(f)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	isNew, inLevel, again := sh.reachStamped(f, stamp, by, 0, 0)
	switch {
	case isNew:
		return false // the copy had read the slot before the claim
	case again:
		sh.s.n++ // copied, with the claimer's flag: counted here
		return false
	}
	return inLevel
}

// testResolved, when set, is told of every claim resolveClaim settles.
var testResolved func()

// added counts a claim in shard k, whose table had size slots, in tally
// tl, and adds the tally to the shard's count, under the lock, when it may
// matter: a table may be full once it holds 1/32 of it in all tallies.
func (s *sharedSeen) added(k uint64, size int, tl *tally) {
	c := &tl[k]
	*c++
	if int(*c)*32*s.workers < size {
		return
	}
	sh := &s.shards[k]
	sh.mu.Lock()
	sh.s.n += int(*c)
	*c = 0
	if tableFull(sh.s.n, len(sh.s.lo)) {
		sh.grow()
	}
	sh.mu.Unlock()
}

// flushTallies adds every tally to its shard's count, empties it and grows
// the tables whose counts call for it (between levels, no worker adding).
func (s *sharedSeen) flushTallies(ts []*tally) {
	for k := range s.shards {
		sh := &s.shards[k]
		for _, tl := range ts {
			sh.s.n += int(tl[k])
			tl[k] = 0
		}
		for tableFull(sh.s.n, len(sh.s.lo)) {
			sh.grow()
		}
	}
}

// tableFull reports whether n fingerprints call for a larger table than
// one of size slots.
func tableFull(n, size int) bool { return n*10 > size*9 }

// reachStamped adds f, first reached in the level whose stamp is stamp, by
// the worker whose offered flag is by (0 for none), under the shard's
// lock; it reports whether f is new, and if not whether its stamp is the
// level's (inLevel) and whether the same worker had offered it. Its probe
// starts at slot at when the table still has n slots (where settled's
// stopped; 0: from f's home): a table is only ever replaced by a larger
// one, and the slots settled passed held other fingerprints, which no slot
// ever loses.
//
// Claims may fill empty slots meanwhile (and only those): the slots are
// read whole, and an addition is a compare-and-swap, whose loss sends the
// probe on from the slot it lost.
func (sh *lockedShard) reachStamped(f fingerprint, stamp, by, at uint64, n int) (isNew, inLevel, again bool) {
	t, hi := sh.s.lo, sh.s.hi
	v := packed(f)
	i := at
	if n != len(t) || hi != nil {
		i = home(v>>flagBits<<flagBits, len(t))
	}
	for {
		x := atomic.LoadUint64(&t[i])
		switch {
		case x == 0:
			if !atomic.CompareAndSwapUint64(&t[i], 0, v|stamp|by) {
				continue // claimed meanwhile: read it again
			}
			if hi != nil {
				hi[i] = f.hi // not read without the lock (settled: 64-bit only)
			}
			sh.s.n++
			if tableFull(sh.s.n, len(t)) {
				sh.grow()
			}
			return true, false, false
		case x&^levelBits == v && (hi == nil || hi[i] == f.hi):
			if x&stampMask != stamp {
				return false, false, false
			}
			if x&by == 0 {
				storeSlot(&t[i], x|by)
			}
			return false, true, x&by != 0
		}
		if i++; i == uint64(len(t)) {
			i = 0
		}
	}
}

// grow replaces the shard's table by one 40% larger (under the lock), and
// publishes it: the old table is copied with the replacing word set, so
// that a claim made in it meanwhile is settled under the lock
// (resolveClaim).
func (sh *lockedShard) grow() {
	sh.pub.replacing.Store(1)
	lo, hi := sh.s.lo, sh.s.hi
	sh.s.alloc(len(lo)+len(lo)*2/5, hi != nil)
	nlo, nhi := sh.s.lo, sh.s.hi
	n := uint64(len(nlo))
	for j := range lo {
		x := atomic.LoadUint64(&lo[j])
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
	sh.publish()
	sh.pub.replacing.Store(0)
}

// shardOf is the number of f's shard.
func shardOf(f fingerprint) uint64 {
	return f.lo>>(64-flagBits)<<sharedLowBits | f.lo&(1<<sharedLowBits-1)
}

// shard returns f's shard.
func (s *sharedSeen) shard(f fingerprint) *lockedShard { return &s.shards[shardOf(f)] }

// insert adds f and reports whether it was new (not for use while a level
// is being explored).
func (s *sharedSeen) insert(f fingerprint) bool {
	sh := s.shard(f)
	sh.mu.Lock()
	isNew, _ := sh.s.reach(f, 0)
	sh.publish()
	sh.mu.Unlock()
	return isNew
}

// count is the number of fingerprints in the set.
func (s *sharedSeen) count() int64 {
	var n int64
	for i := range s.shards {
		n += int64(s.shards[i].s.n)
	}
	return n
}

// bytes is the memory held by the tables.
func (s *sharedSeen) bytes() int64 {
	var b int64
	for i := range s.shards {
		b += s.shards[i].s.bytes()
	}
	return b
}

// each calls fn with every fingerprint of shards [part·n/parts,
// (part+1)·n/parts), until fn returns an error (not while a level is being
// explored).
func (s *sharedSeen) each(part, parts int, fn func(fingerprint) error) error {
	for i := part * sharedShards / parts; i < (part+1)*sharedShards/parts; i++ {
		sh := &s.shards[i]
		top := uint64(i >> sharedLowBits)
		for j, x := range sh.s.lo {
			if x == 0 {
				continue
			}
			f := fingerprint{lo: top<<(64-flagBits) | x>>flagBits}
			if sh.s.hi != nil {
				f.hi = sh.s.hi[j]
			}
			if err := fn(f); err != nil {
				return err
			}
		}
	}
	return nil
}
