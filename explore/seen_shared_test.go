package explore

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSharedSeenStamps checks the level stamps of a shared seen-set: a
// state is new once; offered again in its level it is in the level, and a
// repeat by the same worker is flagged; at a later level it is old, but 4
// levels later its stamp is the level's again (its offer is then noted
// late and matches no candidate). settled, the lock-free test, never calls a state settled that an
// offer could change, and does for old states and same-worker repeats.
func TestSharedSeenStamps(t *testing.T) {
	s := newSharedSeen(false, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	var fps []fingerprint
	for range 20000 {
		fps = append(fps, fingerprint{lo: rng.Uint64() | 1})
	}
	by0, by1 := uint64(sharedBy0), uint64(sharedBy0<<1)
	level := stampOf(1)
	for _, f := range fps {
		sh := s.shard(f)
		if settledOK(s, f, level, by0) {
			t.Fatalf("%x: settled before it was reached", f.lo)
		}
		isNew, _, _ := sh.reachStamped(f, level, by0, 0, 0)
		if !isNew {
			t.Fatalf("%x: not new at first reach", f.lo)
		}
	}
	for _, f := range fps {
		sh := s.shard(f)
		if !settledOK(s, f, level, by0) {
			t.Fatalf("%x: a repeat by the same worker is not settled", f.lo)
		}
		if settledOK(s, f, level, by1) {
			t.Fatalf("%x: another worker's first offer is settled (it may lower the key)", f.lo)
		}
		isNew, inLevel, again := sh.reachStamped(f, level, by1, 0, 0)
		if isNew || !inLevel || again {
			t.Fatalf("%x: other worker's offer: new %v, in level %v, again %v", f.lo, isNew, inLevel, again)
		}
		if _, _, again := sh.reachStamped(f, level, by1, 0, 0); !again {
			t.Fatalf("%x: the other worker's repeat is not flagged", f.lo)
		}
	}
	for d := 2; d <= 5; d++ {
		for _, f := range fps[:100] {
			sh := s.shard(f)
			isNew, inLevel, _ := sh.reachStamped(f, stampOf(d), 0, 0, 0)
			if isNew || inLevel != (d == 5) {
				t.Fatalf("%x at depth %d: new %v, in level %v", f.lo, d, isNew, inLevel)
			}
			// Old: settled, but with this level's stamp and no flag of
			// the worker it is not (settlePart finds no candidate).
			by2 := uint64(sharedBy0 << 2)
			if !settledOK(s, f, stampOf(d), by1) || settledOK(s, f, stampOf(d), by2) != (d != 5) {
				t.Fatalf("%x at depth %d: settled wrongly", f.lo, d)
			}
		}
	}
	if got := s.count(); got != int64(len(fps)) {
		t.Fatalf("count %d, want %d", got, len(fps))
	}
	got := map[fingerprint]bool{}
	for part := range 3 {
		s.each(part, 3, func(f fingerprint) error {
			if got[f] {
				t.Fatalf("%x listed twice", f.lo)
			}
			got[f] = true
			return nil
		})
	}
	for _, f := range fps {
		if !got[f] {
			t.Fatalf("%x not listed by each", f.lo)
		}
	}
}

// TestSharedSeenConcurrent has several goroutines offer overlapping
// fingerprints as the workers of a search do (a read without the lock,
// then, unless it settles the offer, the addition: a claim without the
// lock, or under it): each fingerprint is new to exactly one of them, and
// late to the others the first time they offer it, whose repeats are
// settled or flagged again. The fingerprints fall in a few shards, whose
// tables grow many times while claims are made in them. Under the race
// detector (make race-smoke) it checks the reads and claims made without
// the lock against the writes made under it.
func TestSharedSeenConcurrent(t *testing.T) {
	var resolved atomic.Int64
	testResolved = func() { resolved.Add(1) }
	defer func() { testResolved = nil }()
	for _, wide := range []bool{false, true} {
		const n, workers = 60000, 4
		s := newSharedSeen(wide, workers)
		var tallies [workers]tally
		var news [n + 1]atomic.Int32
		var settled [workers]int
		var wg sync.WaitGroup
		errs := make(chan string, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(w), 9))
				by := uint64(0)
				if w < sharedByMax {
					by = sharedBy0 << w
				}
				offered := map[uint64]bool{}
				for range n {
					k := rng.Uint64N(n) + 1
					// Four shards: top bits 0 or 1, low bits 5 or 6.
					h := k * 0x9e3779b97f4a7c15 >> 6 &^ 15
					f := fingerprint{lo: h | (k&1)<<58 | (5 + k>>1&1)}
					if wide {
						f.hi = k
					}
					ok, at, tab := s.settled(f, stampOf(1), by)
					if ok {
						settled[w]++
						if !offered[k] {
							errs <- fmt.Sprintf("worker %d: %d settled before it offered it", w, k)
							return
						}
						continue
					}
					isNew, inLevel, again := s.add(f, stampOf(1), by, at, tab, &tallies[w])
					switch {
					case isNew:
						news[k].Add(1)
					case !inLevel:
						errs <- fmt.Sprintf("worker %d: %d not in the level", w, k)
						return
					case again != (offered[k] && by != 0):
						errs <- fmt.Sprintf("worker %d: %d flagged again %v, offered before %v", w, k, again, offered[k])
						return
					}
					offered[k] = true
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatalf("wide %v: %s", wide, e)
		}
		s.flushTallies([]*tally{&tallies[0], &tallies[1], &tallies[2], &tallies[3]})
		total := 0
		for k := range news {
			switch c := news[k].Load(); {
			case c > 1:
				t.Fatalf("wide %v: %d new to %d workers", wide, k, c)
			case c == 1:
				total++
			}
		}
		if int64(total) != s.count() {
			t.Fatalf("wide %v: %d new, %d in the set", wide, total, s.count())
		}
		listed := 0
		s.each(0, 1, func(fingerprint) error { listed++; return nil })
		if listed != total {
			t.Fatalf("wide %v: %d listed, %d new", wide, listed, total)
		}
		for k := range s.shards {
			if sh := &s.shards[k]; tableFull(sh.s.n, len(sh.s.lo)) {
				t.Fatalf("wide %v: shard %d holds %d in %d slots after the tallies were added", wide, k, sh.s.n, len(sh.s.lo))
			}
		}
		if !wide && settled[0] == 0 {
			t.Fatal("no offer was settled by the read alone")
		}
	}
	t.Logf("%d claims settled under the lock", resolved.Load())
}

// settledOK is settled's answer alone.
func settledOK(s *sharedSeen, f fingerprint, stamp, by uint64) bool {
	ok, _, _ := s.settled(f, stamp, by)
	return ok
}

// TestReachStampedFromSettled: an addition that starts its probe where
// settled's stopped finds what one from the home slot finds, also when
// other fingerprints (and the same one) were added between the two, and
// when the table grew meanwhile: under the lock (a worker without a flag)
// or by a claim (a worker with one), which in a replaced table is
// settled under the lock.
func TestReachStampedFromSettled(t *testing.T) {
	var resolved int
	testResolved = func() { resolved++ }
	defer func() { testResolved = nil }()
	for _, by0 := range []uint64{0, sharedBy0} {
		s := newSharedSeen(false, 2)
		var tl tally
		rng := rand.New(rand.NewPCG(3, 4))
		level, by1 := stampOf(1), uint64(sharedBy0<<1)
		// Fingerprints of one shard, many with the same home slot.
		fp := func() fingerprint {
			return fingerprint{lo: rng.Uint64()>>10<<4 | 0x4<<60 | 3}
		}
		grewBetween := 0
		for range 3000 {
			f := fp()
			sh := s.shard(f)
			ok, at, tab := s.settled(f, level, by0)
			if ok {
				continue
			}
			// Meanwhile another worker adds a few fingerprints, which
			// may grow the table; sometimes f itself.
			for range rng.IntN(4) {
				sh.reachStamped(fp(), level, by1, 0, 0)
			}
			if rng.IntN(5) == 0 {
				sh.reachStamped(f, level, by1, 0, 0)
			}
			if len(sh.s.lo) != len(tab) {
				grewBetween++
			}
			// The answer from the hint, checked against a probe from home.
			wantSlot, wantOK := sh.s.find(f)
			isNew, inLevel, again := s.add(f, level, by0, at, tab, &tl)
			if isNew == wantOK || (!isNew && (!inLevel || again)) {
				t.Fatalf("by %x, %x: new %v, in level %v, again %v; find said present %v", by0, f.lo, isNew, inLevel, again, wantOK)
			}
			if i, ok := sh.s.find(f); !ok || (i != wantSlot && len(sh.s.lo) == len(tab)) {
				t.Fatalf("by %x, %x: added at slot %d (found %v), probe from home said %d", by0, f.lo, i, ok, wantSlot)
			}
		}
		s.flushTallies([]*tally{&tl})
		if s.count() < 3000 {
			t.Fatalf("by %x: count %d: additions lost", by0, s.count())
		}
		if grewBetween == 0 {
			t.Fatalf("by %x: the table never grew between a read and its addition", by0)
		}
		if (by0 != 0) != (resolved > 0) {
			t.Fatalf("by %x: %d claims settled under the lock", by0, resolved)
		}
	}
}
