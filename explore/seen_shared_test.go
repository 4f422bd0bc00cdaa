package explore

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestSharedSeenStamps checks the level stamps of a shared seen-set: a
// state is new once; offered again in its level it is in the level, and a
// repeat by the same worker is flagged; at a later level it is old, but 4
// levels later its stamp is the level's again (the level index tells them
// apart). settled, the lock-free test, never calls a state settled that an
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
		if s.settled(f, level, by0) {
			t.Fatalf("%x: settled before it was reached", f.lo)
		}
		isNew, _, _ := sh.s.reachStamped(f, level, by0)
		sh.publish()
		if !isNew {
			t.Fatalf("%x: not new at first reach", f.lo)
		}
	}
	for _, f := range fps {
		sh := s.shard(f)
		if lockFree && !s.settled(f, level, by0) {
			t.Fatalf("%x: a repeat by the same worker is not settled", f.lo)
		}
		if s.settled(f, level, by1) {
			t.Fatalf("%x: another worker's first offer is settled (it may lower the key)", f.lo)
		}
		isNew, inLevel, again := sh.s.reachStamped(f, level, by1)
		if isNew || !inLevel || again {
			t.Fatalf("%x: other worker's offer: new %v, in level %v, again %v", f.lo, isNew, inLevel, again)
		}
		if _, _, again := sh.s.reachStamped(f, level, by1); !again {
			t.Fatalf("%x: the other worker's repeat is not flagged", f.lo)
		}
	}
	for d := 2; d <= 5; d++ {
		for _, f := range fps[:100] {
			sh := s.shard(f)
			isNew, inLevel, _ := sh.s.reachStamped(f, stampOf(d), 0)
			if isNew || inLevel != (d == 5) {
				t.Fatalf("%x at depth %d: new %v, in level %v", f.lo, d, isNew, inLevel)
			}
			// Old: settled, but with this level's stamp and no flag of
			// the worker, which only the level index can tell.
			by2 := uint64(sharedBy0 << 2)
			if lockFree && (!s.settled(f, stampOf(d), by1) || s.settled(f, stampOf(d), by2) != (d != 5)) {
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

// TestRefIndex checks the level index: every state added is found, with
// its worker and place, including fingerprints that share the index's 24
// bits; a state not added is not found; reset empties it.
func TestRefIndex(t *testing.T) {
	cands := [][]newState{make([]newState, 0, 3000), make([]newState, 0, 3000)}
	cand := func(w int, i uint32) fingerprint { return cands[w][i].fp }
	var idx refIndex
	idx.slots = make([]uint64, refFirst)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		f := fingerprint{lo: rng.Uint64() | 1}
		if i%3 == 0 && i > 0 {
			// Same bits 57–34 as the previous one: only the whole
			// fingerprint tells them apart.
			prev := cands[(i-1)%2][len(cands[(i-1)%2])-1].fp
			f.lo = prev.lo ^ 0x5
		}
		w := i % 2
		cands[w] = append(cands[w], newState{fp: f})
		idx.add(f, w, uint32(len(cands[w])-1))
	}
	for w := range cands {
		for i, c := range cands[w] {
			ow, oi, ok := idx.find(c.fp, cand)
			if !ok || ow != w || oi != uint32(i) {
				t.Fatalf("%x: found (%d, %d, %v), want (%d, %d)", c.fp.lo, ow, oi, ok, w, i)
			}
		}
	}
	if _, _, ok := idx.find(fingerprint{lo: cands[0][0].fp.lo ^ 0x9}, cand); ok {
		t.Fatal("a fingerprint never added was found")
	}
	idx.reset()
	if _, _, ok := idx.find(cands[1][5].fp, cand); ok || idx.n != 0 {
		t.Fatal("reset left entries")
	}
}

// TestSharedSeenConcurrent has several goroutines insert overlapping
// fingerprints: each is new exactly once.
func TestSharedSeenConcurrent(t *testing.T) {
	s := newSharedSeen(true)
	const n, workers = 50000, 4
	var news [workers]int
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 9))
			for range n {
				k := rng.Uint64N(n) + 1
				f := fingerprint{lo: k * 0x9e3779b97f4a7c15, hi: k}
				sh := s.shard(f)
				sh.mu.Lock()
				isNew, _, _ := sh.s.reachStamped(f, stampOf(1), 0)
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
		t.Fatalf("%d new, %d in the set", total, s.count())
	}
}
