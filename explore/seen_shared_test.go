package explore

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestSharedSeenStamps checks the level stamps of a shared seen-set: a
// state is new once; offered again in its level it is in the level, and a
// repeat by the same worker is flagged; at a later level it is old, but 4
// levels later its stamp is the level's again (its offer is then noted
// late and matches no candidate). settled, the lock-free test, never calls a state settled that an
// offer could change, and does for old states and same-worker repeats.
func TestSharedSeenStamps(t *testing.T) {
	s := newSharedSeen(false)
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
		isNew, _, _ := sh.s.reachStamped(f, level, by0, 0, 0)
		sh.publish()
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
		isNew, inLevel, again := sh.s.reachStamped(f, level, by1, 0, 0)
		if isNew || !inLevel || again {
			t.Fatalf("%x: other worker's offer: new %v, in level %v, again %v", f.lo, isNew, inLevel, again)
		}
		if _, _, again := sh.s.reachStamped(f, level, by1, 0, 0); !again {
			t.Fatalf("%x: the other worker's repeat is not flagged", f.lo)
		}
	}
	for d := 2; d <= 5; d++ {
		for _, f := range fps[:100] {
			sh := s.shard(f)
			isNew, inLevel, _ := sh.s.reachStamped(f, stampOf(d), 0, 0, 0)
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
// then, unless it settles the offer, the addition under the lock from
// where the read stopped): each is new exactly once. Under the race
// detector (make race-smoke) it checks the reads made without the lock
// against the writes made under it.
func TestSharedSeenConcurrent(t *testing.T) {
	for _, wide := range []bool{false, true} {
		s := newSharedSeen(wide)
		const n, workers = 50000, 4
		var news, settled [workers]int
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(w), 9))
				by := uint64(0)
				if w < sharedByMax {
					by = sharedBy0 << w
				}
				for range n {
					k := rng.Uint64N(n) + 1
					f := fingerprint{lo: k * 0x9e3779b97f4a7c15}
					if wide {
						f.hi = k
					}
					ok, at, size := s.settled(f, stampOf(1), by)
					if ok {
						settled[w]++
						continue
					}
					sh := s.shard(f)
					sh.mu.Lock()
					isNew, _, _ := sh.s.reachStamped(f, stampOf(1), by, at, size)
					sh.publish()
					sh.mu.Unlock()
					if isNew {
						news[w]++
					}
				}
			}()
		}
		wg.Wait()
		total := 0
		for _, k := range news {
			total += k
		}
		if int64(total) != s.count() {
			t.Fatalf("wide %v: %d new, %d in the set", wide, total, s.count())
		}
		if !wide && settled[0] == 0 {
			t.Fatal("no offer was settled by the read alone")
		}
	}
}

// settledOK is settled's answer alone.
func settledOK(s *sharedSeen, f fingerprint, stamp, by uint64) bool {
	ok, _, _ := s.settled(f, stamp, by)
	return ok
}

// TestReachStampedFromSettled: an addition that starts its probe where
// settled's stopped finds what one from the home slot finds, also when
// other fingerprints (and the same one) were added between the two, and
// when the table grew meanwhile.
func TestReachStampedFromSettled(t *testing.T) {
	s := newSharedSeen(false)
	rng := rand.New(rand.NewPCG(3, 4))
	level, by0, by1 := stampOf(1), uint64(sharedBy0), uint64(sharedBy0<<1)
	// Fingerprints of one shard, many with the same home slot.
	fp := func() fingerprint {
		return fingerprint{lo: rng.Uint64()>>10<<4 | 0x4<<60 | 3}
	}
	for range 3000 {
		f := fp()
		sh := s.shard(f)
		ok, at, n := s.settled(f, level, by0)
		if ok {
			continue
		}
		// Meanwhile another worker adds a few fingerprints, which may
		// grow the table; sometimes f itself.
		for range rng.IntN(4) {
			sh.s.reachStamped(fp(), level, by1, 0, 0)
			sh.publish()
		}
		if rng.IntN(5) == 0 {
			sh.s.reachStamped(f, level, by1, 0, 0)
		}
		// The answer from the hint, checked against a probe from home.
		wantSlot, wantOK := sh.s.find(f)
		isNew, inLevel, again := sh.s.reachStamped(f, level, by0, at, n)
		sh.publish()
		if isNew == wantOK || (!isNew && (!inLevel || again)) {
			t.Fatalf("%x: new %v, in level %v, again %v; find said present %v", f.lo, isNew, inLevel, again, wantOK)
		}
		if i, ok := sh.s.find(f); !ok || (i != wantSlot && len(sh.s.lo) == n) {
			t.Fatalf("%x: added at slot %d (found %v), probe from home said %d", f.lo, i, ok, wantSlot)
		}
	}
	if s.count() < 3000 {
		t.Fatalf("count %d: additions lost", s.count())
	}
}
