package explore

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// offerOnce is a worker's offer of f in a shared seen-set: settled's read,
// then reach from where it stopped.
func offerOnce(s *sharedSeen, f fingerprint, stamp, by uint64, tl *tally) (isNew, inLevel, again bool) {
	ok, at, t := s.settled(f, stamp, by)
	if ok {
		return false, false, true
	}
	return s.reach(f, stamp, by, at, t, tl)
}

// TestSharedSeenStamps checks the level stamps of a shared seen-set: a
// state is new once; offered again in its level it is in the level, and a
// repeat by the same worker is flagged; at a later level it is old, but 4
// levels later its stamp is the level's again (its offer is then noted
// late and matches no candidate). settled, the read alone, never calls a
// state settled that an offer could change, and does for old states and
// same-worker repeats.
func TestSharedSeenStamps(t *testing.T) {
	for _, wide := range []bool{false, true} {
		s := newSharedSeen(wide, 1)
		rng := rand.New(rand.NewPCG(1, 2))
		var fps []fingerprint
		for range 20000 {
			f := fingerprint{lo: rng.Uint64() | 1, hi: rng.Uint64()}
			if !wide {
				f.hi = 0 // 64-bit fingerprints have none
			}
			fps = append(fps, f)
		}
		by0, by1 := uint64(sharedBy0), uint64(sharedBy0<<1)
		level := stampOf(1)
		reach := func(f fingerprint, stamp, by uint64) (bool, bool, bool) {
			_, at, tb := s.settled(f, stamp, by)
			return s.reach(f, stamp, by, at, tb, nil)
		}
		for _, f := range fps {
			if settledOK(s, f, level, by0) {
				t.Fatalf("wide %v, %x: settled before it was reached", wide, f.lo)
			}
			if isNew, _, _ := reach(f, level, by0); !isNew {
				t.Fatalf("wide %v, %x: not new at first reach", wide, f.lo)
			}
		}
		for _, f := range fps {
			if !settledOK(s, f, level, by0) {
				t.Fatalf("wide %v, %x: a repeat by the same worker is not settled", wide, f.lo)
			}
			if settledOK(s, f, level, by1) {
				t.Fatalf("wide %v, %x: another worker's first offer is settled (it may lower the key)", wide, f.lo)
			}
			isNew, inLevel, again := reach(f, level, by1)
			if isNew || !inLevel || again {
				t.Fatalf("wide %v, %x: other worker's offer: new %v, in level %v, again %v", wide, f.lo, isNew, inLevel, again)
			}
			if _, _, again := reach(f, level, by1); !again {
				t.Fatalf("wide %v, %x: the other worker's repeat is not flagged", wide, f.lo)
			}
			if wide {
				// The same low half with another high half is another
				// state.
				g := fingerprint{lo: f.lo, hi: ^f.hi}
				if settledOK(s, g, level, by0) {
					t.Fatalf("%x: settled as its low half's twin", g.lo)
				}
			}
		}
		for d := 2; d <= 5; d++ {
			for _, f := range fps[:100] {
				isNew, inLevel, _ := reach(f, stampOf(d), 0)
				if isNew || inLevel != (d == 5) {
					t.Fatalf("wide %v, %x at depth %d: new %v, in level %v", wide, f.lo, d, isNew, inLevel)
				}
				// Old: settled, but with this level's stamp and no flag of
				// the worker it is not (settlePart finds no candidate).
				by2 := uint64(sharedBy0 << 2)
				if !settledOK(s, f, stampOf(d), by1) || settledOK(s, f, stampOf(d), by2) != (d != 5) {
					t.Fatalf("wide %v, %x at depth %d: settled wrongly", wide, f.lo, d)
				}
			}
		}
		if got := s.count(); got != int64(len(fps)) {
			t.Fatalf("wide %v: count %d, want %d", wide, got, len(fps))
		}
		got := map[fingerprint]bool{}
		for part := range 3 {
			s.each(part, 3, func(f fingerprint) error {
				if got[f] {
					t.Fatalf("wide %v: %x listed twice", wide, f.lo)
				}
				got[f] = true
				return nil
			})
		}
		for _, f := range fps {
			if !got[f] {
				t.Fatalf("wide %v: %x not listed by each", wide, f.lo)
			}
		}
	}
}

// TestSharedSeenConcurrent has several goroutines offer overlapping
// fingerprints in one level, each with its own tally, while the tables
// grow many times over (from 64 slots a shard): each fingerprint is new
// for exactly one of them, a goroutine's repeat is flagged (unless its
// flag was lost to a table's replacement, which only makes it late), and
// once the tallies are in, the set counts and lists every fingerprint once
// and its tables have the sizes one goroutine adding the same fingerprints
// leaves: whatever the interleaving. With every fingerprint in one shard,
// additions meet slots of a table being replaced, and (128-bit) slots
// being written.
func TestSharedSeenConcurrent(t *testing.T) {
	var waits [8]atomic.Int64
	testSlotWait = func(m uint64) { waits[m].Add(1) }
	defer func() { testSlotWait = nil }()
	for _, c := range []struct{ wide, oneShard bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		for try := 0; ; try++ {
			waits[slotMoved].Store(0)
			waits[slotReserved].Store(0)
			concurrentOffers(t, c.wide, c.oneShard)
			moved, reserved := waits[slotMoved].Load(), waits[slotReserved].Load()
			if !c.oneShard || moved > 0 && (reserved > 0 || !c.wide) {
				break
			}
			if try == 10 {
				t.Fatalf("wide %v: in 10 tries, additions met %d moved slots and %d reserved ones", c.wide, moved, reserved)
			}
		}
	}
}

func concurrentOffers(t *testing.T, wide, oneShard bool) {
	const n, workers = 60000, 4
	s := newSharedSeen(wide, workers)
	fp := func(k uint64) fingerprint {
		f := fingerprint{lo: k * 0x9e3779b97f4a7c15}
		if wide {
			f.hi = k ^ 0x5555
		}
		if oneShard {
			f.lo = f.lo>>10<<4 | 0x4<<60 | 3
		}
		return f
	}
	var news [workers]map[fingerprint]bool
	var bad [workers]string
	var tallies []*tally
	var wg sync.WaitGroup
	for w := range workers {
		tl := new(tally)
		tallies = append(tallies, tl)
		news[w] = map[fingerprint]bool{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 9))
			by := uint64(sharedBy0 << w)
			if w >= sharedByMax {
				by = 0
			}
			mine := map[fingerprint]bool{}
			for range n {
				f := fp(rng.Uint64N(n) + 1)
				isNew, inLevel, again := offerOnce(s, f, stampOf(1), by, tl)
				switch {
				case isNew:
					news[w][f] = true
				case !inLevel && !again:
					bad[w] = "an offer in the level of a state of this level is said to be older"
				case again && !mine[f]:
					bad[w] = "a first offer by this worker is said to be a repeat"
				}
				mine[f] = true
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		if bad[w] != "" {
			t.Fatalf("wide %v, one shard %v, worker %d: %s", wide, oneShard, w, bad[w])
		}
	}
	s.flushTallies(tallies)
	total := 0
	owner := map[fingerprint]int{}
	for w := range workers {
		for f := range news[w] {
			if o, ok := owner[f]; ok {
				t.Fatalf("wide %v, one shard %v: %x new for workers %d and %d", wide, oneShard, f.lo, o, w)
			}
			owner[f] = w
			total++
		}
	}
	if int64(total) != s.count() {
		t.Fatalf("wide %v, one shard %v: %d new, %d counted", wide, oneShard, total, s.count())
	}
	listed := 0
	s.each(0, 1, func(f fingerprint) error {
		if _, ok := owner[f]; !ok {
			t.Fatalf("wide %v, one shard %v: %x listed, never new", wide, oneShard, f.lo)
		}
		listed++
		return nil
	})
	if listed != total {
		t.Fatalf("wide %v, one shard %v: %d listed, %d new", wide, oneShard, listed, total)
	}
	for k := range s.shards {
		if sh := &s.shards[k]; tableFull(sh.n.Load(), len(sh.tab.Load().lo)) {
			t.Fatalf("wide %v, one shard %v: shard %d holds %d in %d slots", wide, oneShard, k, sh.n.Load(), len(sh.tab.Load().lo))
		}
	}
	// The same fingerprints added by one goroutine, in another order.
	one := newSharedSeen(wide, 1)
	for f := range owner {
		if !one.insert(f) {
			t.Fatalf("wide %v, one shard %v: %x not new in a fresh set", wide, oneShard, f.lo)
		}
	}
	for k := range s.shards {
		if a, b := len(s.shards[k].tab.Load().lo), len(one.shards[k].tab.Load().lo); a != b {
			t.Fatalf("wide %v, one shard %v: shard %d has %d slots, %d added alone", wide, oneShard, k, a, b)
		}
	}
}

// settledOK is settled's answer alone.
func settledOK(s *sharedSeen, f fingerprint, stamp, by uint64) bool {
	ok, _, _ := s.settled(f, stamp, by)
	return ok
}

// TestReachFromSettled: an addition that starts its probe where settled's
// stopped finds what one from the home slot finds, also when other
// fingerprints (and the same one) were added between the two, and when
// the table grew meanwhile.
func TestReachFromSettled(t *testing.T) {
	s := newSharedSeen(false, 1)
	rng := rand.New(rand.NewPCG(3, 4))
	level, by0, by1 := stampOf(1), uint64(sharedBy0), uint64(sharedBy0<<1)
	// Fingerprints of one shard, many with the same home slot.
	fp := func() fingerprint {
		return fingerprint{lo: rng.Uint64()>>10<<4 | 0x4<<60 | 3}
	}
	grew := 0
	added := map[fingerprint]bool{}
	for range 3000 {
		f := fp()
		ok, at, tb := s.settled(f, level, by0)
		if ok {
			continue
		}
		// Meanwhile another worker adds a few fingerprints, which may
		// grow the table; sometimes f itself.
		for range rng.IntN(4) {
			g := fp()
			offerOnce(s, g, level, by1, nil)
			added[g] = true
		}
		if rng.IntN(5) == 0 {
			offerOnce(s, f, level, by1, nil)
			added[f] = true
		}
		if s.shards[shardOf(f)].tab.Load() != tb {
			grew++
		}
		isNew, inLevel, again := s.reach(f, level, by0, at, tb, nil)
		if isNew == added[f] || (!isNew && (!inLevel || again)) {
			t.Fatalf("%x: new %v, in level %v, again %v; added before %v", f.lo, isNew, inLevel, again, added[f])
		}
		added[f] = true
		if !settledOK(s, f, level, by0) {
			t.Fatalf("%x: not there after its addition", f.lo)
		}
	}
	if s.count() != int64(len(added)) {
		t.Fatalf("count %d, want %d: additions lost", s.count(), len(added))
	}
	if grew == 0 {
		t.Fatal("the table never grew between a read and its addition")
	}
}

// TestFlushTalliesGrows: a shard whose count, with a tally's additions,
// calls for a larger table gets it when the tallies are flushed, though
// the count alone did not.
func TestFlushTalliesGrows(t *testing.T) {
	s := newSharedSeen(false, 1)
	tl := new(tally)
	sh := &s.shards[shardOf(fingerprint{lo: 0x4<<60 | 3})]
	for k := uint64(1); ; k++ {
		f := fingerprint{lo: (k*0x9e3779b97f4a7c15)>>10<<4 | 0x4<<60 | 3}
		if !offerOnceNew(s, f, tl) {
			t.Fatalf("%x: not new", f.lo)
		}
		size, n := len(sh.tab.Load().lo), sh.n.Load()
		if held := int64(tl[shardOf(f)]); !tableFull(n, size) && tableFull(n+held, size) {
			s.flushTallies([]*tally{tl})
			if got := len(sh.tab.Load().lo); got != grownSize(size) || sh.n.Load() != n+held || tl[shardOf(f)] != 0 {
				t.Fatalf("after %d additions: %d slots (want %d), count %d (want %d)", k, got, grownSize(size), sh.n.Load(), n+held)
			}
			return
		}
		if k == 1e6 {
			t.Fatal("no tally ever held a table's growth")
		}
	}
}

func offerOnceNew(s *sharedSeen, f fingerprint, tl *tally) bool {
	isNew, _, _ := offerOnce(s, f, stampOf(1), sharedBy0, tl)
	return isNew
}
