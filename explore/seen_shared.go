package explore

import (
	"sync"
	"sync/atomic"
)

// sharedSeen is the seen-set the workers of one in-process BFS share:
// sharedShards shards, each an open-addressing table (shard, as in
// seenSet) with its own lock. A worker offers its successors here
// directly, under the shard's lock: there are no batches between workers,
// and a state is encoded only by the worker that reaches it first (who
// else offers it in the level is settled after it: bfs_late.go).
//
// A fingerprint's top 6 bits and low 4 bits pick its shard: the table slot
// keeps the low 58 bits (packed), so a shard holds exactly the same
// fingerprints a seenSet would, and the slot's home, taken from the top
// bits of the packed value, does not depend on which shard it is in.
//
// The tables' current slices are also published apart from the locks
// (pub), for the reads made without them (prefetch, settled): those lines
// change only when a table is replaced, so they stay in every core's
// cache, while a shard's lock line moves between the cores that take it.
type sharedSeen struct {
	shards [sharedShards]lockedShard
	pub    [sharedShards]shardTables
	wide   bool
}

type lockedShard struct {
	mu  sync.Mutex
	s   shard
	pub *shardTables
	_   [56]byte // 128 bytes: no cache line shared with another shard
}

// shardTables is a shard's table as published for reads without the lock.
type shardTables struct {
	tab atomic.Pointer[[]uint64] // s.lo
}

const (
	sharedLowBits = 4
	sharedShards  = seenShards << sharedLowBits
)

func newSharedSeen(wide bool) *sharedSeen {
	s := &sharedSeen{wide: wide}
	for i := range s.shards {
		s.shards[i].pub = &s.pub[i]
		s.shards[i].s.alloc(firstSlots/(1<<sharedLowBits)*4, wide)
		s.shards[i].publish()
	}
	return s
}

// publish makes the shard's current table the one prefetch reads; call it
// under the lock whenever it may have been replaced.
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
// and written whole: storeSlot). A false answer says nothing. With
// 128-bit fingerprints it always answers false.
//
// It also returns where its probe stopped, for reachStamped: f's slot or
// the empty slot where f belonged, in a table of n slots (0: no probe).
func (s *sharedSeen) settled(f fingerprint, stamp, by uint64) (ok bool, at uint64, n int) {
	if s.wide {
		return false, 0, 0
	}
	t := *s.pub[shardOf(f)].tab.Load()
	v := packed(f)
	for i := home(v>>flagBits<<flagBits, len(t)); ; {
		x := atomic.LoadUint64(&t[i])
		switch {
		case x == 0:
			return false, i, len(t)
		case x&^levelBits == v:
			return x&stampMask != stamp || x&by != 0, i, len(t)
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

// reachStamped adds f, first reached in the level whose stamp is stamp, by
// the worker whose offered flag is by (0 for none); it reports whether f
// is new, and if not whether its stamp is the level's (inLevel) and
// whether the same worker had offered it. Its probe starts at slot at when
// the table still has n slots (where settled's stopped; 0: from f's home):
// a table is only ever replaced by a larger one, and the slots settled
// passed held other fingerprints, which no slot ever loses.
func (sh *shard) reachStamped(f fingerprint, stamp, by, at uint64, n int) (isNew, inLevel, again bool) {
	var i uint64
	var ok bool
	if n == len(sh.lo) && sh.hi == nil {
		i, ok = sh.findFrom(f, at)
	} else {
		i, ok = sh.find(f)
	}
	if ok {
		x := sh.lo[i]
		if x&stampMask != stamp {
			return false, false, false
		}
		storeSlot(&sh.lo[i], x|by)
		return false, true, x&by != 0
	}
	storeSlot(&sh.lo[i], packed(f)|stamp|by)
	if sh.hi != nil {
		sh.hi[i] = f.hi // not read without the lock (settled: 64-bit only)
	}
	sh.n++
	if sh.n*10 > len(sh.lo)*9 {
		sh.grow()
	}
	return true, false, false
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
