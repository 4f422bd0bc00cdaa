package explore

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// sharedSeen is the seen-set the workers of one in-process BFS share:
// sharedShards shards, each an open-addressing table with linear probing
// like a seenSet shard's, which every worker reads and adds to without a
// lock. A worker offers its successors here directly: there are no batches
// between workers, and a state is encoded only by the worker that reaches
// it first (who else offers it in the level is settled after it:
// bfs_late.go).
//
// A fingerprint's top 6 bits and low 4 bits pick its shard: the table slot
// keeps the low 58 bits (packed), so a shard holds exactly the same
// fingerprints a seenSet would, and the slot's home, taken from the top
// bits of the packed value, does not depend on which shard it is in.
//
// Every access to a slot is one atomic 8-byte operation. A fingerprint is
// added by a compare-and-swap of an empty slot, so two workers adding it at
// once find one slot, and exactly one of them gets it. Slots are never
// emptied, and a fingerprint's slot only ever gains offered flags, so a
// probe never passes the slot of the fingerprint it looks for. With 128-bit
// fingerprints the slot is first claimed (reserved), then the high half
// written, then the low half: a reader waits out a reserved slot.
//
// A shard's table grows, when it is 90% full, by 40%: the worker whose
// addition filled it (growShard) takes the shard's lock, which only growers
// take, marks each empty slot of the old table moved (a compare-and-swap:
// an addition and the mark cannot both succeed), copies the fingerprints
// into the new table and publishes it. A worker that meets a moved slot
// waits for the new table and starts its probe again there; a fingerprint
// added before its slot was reached is copied. (An offered flag added to a
// slot after it was copied is lost: the worker's next offer of that state
// is then noted late, to no effect, bfs_late.go.)
//
// The additions are counted in each worker's own tally, and added to the
// shard's count every so often (flushTally): a shared count would move one
// more cache line between the cores at every addition. A table is so at
// most 90% full plus what the tallies hold, at most 1/32 of it, and the
// tallies are emptied after each level (flushTallies), when the tables
// reach the sizes their counts call for: the same, whatever the order of
// the additions.
type sharedSeen struct {
	shards  [sharedShards]sharedShard
	wide    bool
	workers int // how many tallies there are (flushTally's slack)
}

type sharedShard struct {
	tab atomic.Pointer[sharedTable]
	mu  sync.Mutex // held while the table is replaced
	_   [48]byte   // the line above is read at every offer; n below changes
	n   atomic.Int64
	_   [56]byte
}

// sharedTable is one table of a shard: slots as in a seenSet shard (hi:
// the high halves of 128-bit fingerprints, nil with 64-bit).
type sharedTable struct {
	lo, hi []uint64
}

const (
	sharedLowBits = 4
	sharedShards  = seenShards << sharedLowBits
)

// Slot values that hold no fingerprint (a fingerprint's slot has the
// occupied bit): reserved while a 128-bit fingerprint is being written,
// moved when the table is being replaced.
const (
	slotReserved = 2
	slotMoved    = 4
)

// tally counts, per shard, the additions a worker has made and not yet
// added to the shard's count.
type tally [sharedShards]int32

func newSharedSeen(wide bool, workers int) *sharedSeen {
	s := &sharedSeen{wide: wide, workers: max(1, workers)}
	for i := range s.shards {
		s.shards[i].tab.Store(newSharedTable(firstSlots/(1<<sharedLowBits)*4, wide))
	}
	return s
}

func newSharedTable(n int, wide bool) *sharedTable {
	t := &sharedTable{lo: touched(make([]uint64, n))}
	if wide {
		t.hi = touched(make([]uint64, n))
	}
	return t
}

// prefetch reads the home slot of each fingerprint in its shard's table,
// and the slots 8 and 16 further on (see seenSet.prefetch), and returns
// their sum, to be kept.
func (s *sharedSeen) prefetch(fs []fingerprint) uint64 {
	var sum uint64
	for _, f := range fs {
		t := s.shards[shardOf(f)].tab.Load()
		i := home(packed(f)>>flagBits<<flagBits, len(t.lo))
		j, k := nextLines(i, len(t.lo))
		sum += atomic.LoadUint64(&t.lo[i]) + atomic.LoadUint64(&t.lo[j]) + atomic.LoadUint64(&t.lo[k])
	}
	return sum
}

// settled reports, without writing, that an offer of f in the level whose
// stamp is stamp, by the worker whose offered flag is by, can change
// nothing: f is in the table from an earlier level, or from this one and
// offered before by the same worker. A false answer says nothing. It also
// returns the table it probed and where its probe stopped (f's slot, or
// the slot where f belongs), for reach to start from.
func (s *sharedSeen) settled(f fingerprint, stamp, by uint64) (ok bool, at uint64, t *sharedTable) {
	t = s.shards[shardOf(f)].tab.Load()
	v := packed(f)
	for i := home(v>>flagBits<<flagBits, len(t.lo)); ; {
		x := atomic.LoadUint64(&t.lo[i])
		switch {
		case x&occupied == 0:
			return false, i, t // empty, or not a fingerprint yet
		case x&^levelBits == v && (t.hi == nil || atomic.LoadUint64(&t.hi[i]) == f.hi):
			return x&stampMask != stamp || x&by != 0, i, t
		}
		if i++; i == uint64(len(t.lo)) {
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

// reach adds f, first reached in the level whose stamp is stamp, by the
// worker whose offered flag is by (0 for none) and whose tally is tl (nil:
// counted at once); it reports whether f is new, and if not whether its
// stamp is the level's (inLevel) and whether the same worker had offered
// it. Its probe starts at slot at when t, the table settled probed, is
// still the shard's (from f's home otherwise): the slots settled passed
// held other fingerprints, which no slot ever loses.
func (s *sharedSeen) reach(f fingerprint, stamp, by, at uint64, t *sharedTable, tl *tally) (isNew, inLevel, again bool) {
	sh := &s.shards[shardOf(f)]
	v := packed(f)
	for {
		cur := sh.tab.Load()
		i := at
		if cur != t {
			i = home(v>>flagBits<<flagBits, len(cur.lo))
		}
		t = cur
	probe:
		for {
			p := &t.lo[i]
			x := atomic.LoadUint64(p)
			switch {
			case x == 0:
				if !s.claim(t, i, f, v|stamp|by) {
					continue // another worker took the slot first: read it again
				}
				s.added(sh, t, shardOf(f), tl)
				return true, false, false
			case x == slotMoved:
				if testSlotWait != nil {
					testSlotWait(x)
				}
				for sh.tab.Load() == t {
					runtime.Gosched() // the table is being replaced
				}
				break probe // and start again in the new one, from f's home
			case x == slotReserved:
				if testSlotWait != nil {
					testSlotWait(x)
				}
				runtime.Gosched() // a 128-bit fingerprint is being written
				continue
			case x&^levelBits == v && (t.hi == nil || atomic.LoadUint64(&t.hi[i]) == f.hi):
				switch {
				case x&stampMask != stamp:
					return false, false, false
				case x&by != 0:
					return false, true, true
				case by != 0:
					atomic.OrUint64(p, by)
				}
				return false, true, false
			}
			if i++; i == uint64(len(t.lo)) {
				i = 0
			}
		}
	}
}

// testSlotWait, when set, is told of every slot reach waits on (moved or
// reserved).
var testSlotWait func(marker uint64)

// claim writes x, f's slot value, into empty slot i of t, and reports
// whether the slot was still empty.
func (s *sharedSeen) claim(t *sharedTable, i uint64, f fingerprint, x uint64) bool {
	p := &t.lo[i]
	if t.hi == nil {
		return atomic.CompareAndSwapUint64(p, 0, x)
	}
	if !atomic.CompareAndSwapUint64(p, 0, slotReserved) {
		return false
	}
	atomic.StoreUint64(&t.hi[i], f.hi)
	atomic.StoreUint64(p, x)
	return true
}

// added counts an addition to shard k (sh), whose table was t, in tally tl
// (nil: at once), and grows the table when its count calls for it.
func (s *sharedSeen) added(sh *sharedShard, t *sharedTable, k uint64, tl *tally) {
	d := int64(1)
	if tl != nil {
		c := &tl[k]
		*c++
		if int(*c)*32*s.workers < len(t.lo) {
			return
		}
		d, *c = int64(*c), 0
	}
	if n := sh.n.Add(d); tableFull(n, len(t.lo)) {
		s.grow(sh)
	}
}

// tableFull reports whether n fingerprints call for a larger table than one of
// size slots.
func tableFull(n int64, size int) bool { return n*10 > int64(size)*9 }

// grownSize is the size of a table that replaces one of size slots.
func grownSize(size int) int { return size + size*2/5 }

// flushTallies adds every tally to its shard's count, empties it and grows
// the tables whose counts call for it (between levels, no worker adding).
func (s *sharedSeen) flushTallies(ts []*tally) {
	for k := range s.shards {
		sh := &s.shards[k]
		for _, tl := range ts {
			if c := tl[k]; c != 0 {
				sh.n.Add(int64(c))
				tl[k] = 0
			}
		}
		if tableFull(sh.n.Load(), len(sh.tab.Load().lo)) {
			s.grow(sh)
		}
	}
}

// grow replaces the shard's table with one large enough for its count
// (grown by 40% as many times as that takes), unless another worker has
// already done so.
func (s *sharedSeen) grow(sh *sharedShard) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	old := sh.tab.Load()
	size := len(old.lo)
	for tableFull(sh.n.Load(), size) {
		size = grownSize(size)
	}
	if size == len(old.lo) {
		return
	}
	t := newSharedTable(size, s.wide)
	n := uint64(size)
	for j := range old.lo {
		p := &old.lo[j]
		x := atomic.LoadUint64(p)
		for x == 0 || x == slotReserved {
			if x == 0 && atomic.CompareAndSwapUint64(p, 0, slotMoved) {
				break
			}
			if x == slotReserved {
				runtime.Gosched()
			}
			x = atomic.LoadUint64(p)
		}
		if x == 0 {
			continue // marked moved
		}
		i := home(x>>flagBits<<flagBits, size)
		for t.lo[i] != 0 {
			if i++; i == n {
				i = 0
			}
		}
		t.lo[i] = x
		if t.hi != nil {
			t.hi[i] = atomic.LoadUint64(&old.hi[j])
		}
	}
	sh.tab.Store(t)
}

// shardOf is the number of f's shard.
func shardOf(f fingerprint) uint64 {
	return f.lo>>(64-flagBits)<<sharedLowBits | f.lo&(1<<sharedLowBits-1)
}

// insert adds f and reports whether it was new (not for use while a level
// is being explored).
func (s *sharedSeen) insert(f fingerprint) bool {
	ok, at, t := s.settled(f, 0, 0)
	if ok {
		return false
	}
	isNew, _, _ := s.reach(f, 0, 0, at, t, nil)
	return isNew
}

// count is the number of fingerprints in the set (with the tallies
// flushed).
func (s *sharedSeen) count() int64 {
	var n int64
	for i := range s.shards {
		n += s.shards[i].n.Load()
	}
	return n
}

// bytes is the memory held by the tables.
func (s *sharedSeen) bytes() int64 {
	var b int64
	for i := range s.shards {
		t := s.shards[i].tab.Load()
		b += int64(len(t.lo)+len(t.hi)) * 8
	}
	return b
}

// each calls fn with every fingerprint of shards [part·n/parts,
// (part+1)·n/parts), until fn returns an error (not while a level is being
// explored).
func (s *sharedSeen) each(part, parts int, fn func(fingerprint) error) error {
	for i := part * sharedShards / parts; i < (part+1)*sharedShards/parts; i++ {
		t := s.shards[i].tab.Load()
		top := uint64(i >> sharedLowBits)
		for j, x := range t.lo {
			if x&occupied == 0 {
				continue
			}
			f := fingerprint{lo: top<<(64-flagBits) | x>>flagBits}
			if t.hi != nil {
				f.hi = t.hi[j]
			}
			if err := fn(f); err != nil {
				return err
			}
		}
	}
	return nil
}
