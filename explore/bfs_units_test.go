package explore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mxcheck/mxcheck/model"
)

// padBytes encodes an int state followed by s%1000 filler bytes, so that a
// level of a few thousand of them fills several blocks.
type padBytes struct{}

func (padBytes) Encodable() bool { return true }
func (padBytes) AppendState(dst []byte, s model.State) []byte {
	v := s.(int)
	dst = binary.AppendUvarint(dst, uint64(v))
	return append(dst, bytes.Repeat([]byte{byte(v)}, v%1000)...)
}
func (padBytes) ReadState(src []byte, _ model.State) (model.State, error) {
	v, n := binary.Uvarint(src)
	if n <= 0 || len(src)-n != int(v)%1000 {
		return nil, errors.New("padBytes: bad encoding")
	}
	return int(v), nil
}

// eachIn, from any unit to any later state, yields what each yields there,
// with a codec (encodings across several blocks) and without.
func TestLevelEachIn(t *testing.T) {
	for _, cd := range []model.Codec{padBytes{}, nil} {
		l := &level{codec: cd, max: 1 << 30}
		n := 5000
		for i := 0; i < n; i++ {
			if cd != nil {
				l.push(nil, i, uint32(1000+i))
			} else {
				l.pushClone(i, uint32(1000+i))
			}
		}
		if cd != nil && l.mem.used < 3 {
			t.Fatalf("the level fills %d blocks, want several", l.mem.used)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for k := 0; k < 200; k++ {
			lo := rng.IntN(n/unitStates+1) * unitStates
			hi := lo + rng.IntN(n-lo+1)
			stopAt := -1
			if k%5 == 0 && hi > lo {
				stopAt = lo + rng.IntN(hi-lo)
			}
			var got []string
			var into model.State
			more, err := l.eachIn(lo, hi, &into, func(st model.State, id uint32) bool {
				got = append(got, fmt.Sprint(st, id))
				return int(id)-1000 != stopAt
			})
			want := []string{}
			for i := lo; i < hi; i++ {
				want = append(want, fmt.Sprint(i, 1000+i))
				if i == stopAt {
					break
				}
			}
			if err != nil || more != (stopAt < 0) || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("codec %v: eachIn(%d, %d) stopping at %d: more %v, err %v, %d states, want %d", cd != nil, lo, hi, stopAt, more, err, len(got), len(want))
			}
			if cd == nil {
				// Without a codec the clones are handed over: make
				// them again for the next range.
				for i := lo; i < lo+len(got); i++ {
					l.sts[i] = i
				}
			}
		}
		l.reset()
		if len(l.marks) != 0 {
			t.Errorf("reset kept %d marks", len(l.marks))
		}
	}
}

// Workers claiming and stealing units take every unit exactly once, each
// in increasing order, whatever the shares and the scheduling.
func TestClaimUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 300; round++ {
		n := 1 + rng.IntN(5)
		total := rng.IntN(400)
		r := &bfsRun{shares: make([]atomic.Uint64, n)}
		for i := range r.shares {
			lo, hi := total*i/n, total*(i+1)/n
			r.shares[i].Store(uint64(lo)<<32 | uint64(hi))
		}
		took := make([][]int, n)
		var wg sync.WaitGroup
		for w := 0; w < n; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				top := -1
				for {
					at, upto, ok := claimUnits(&r.shares[w])
					if !ok {
						if !r.stealUnits(w, top) {
							return
						}
						continue
					}
					for u := at; u < upto; u++ {
						took[w] = append(took[w], u)
					}
					top = upto - 1
				}
			}()
		}
		wg.Wait()
		count := make([]int, total)
		for w, us := range took {
			for i, u := range us {
				if i > 0 && u <= us[i-1] {
					t.Fatalf("round %d: worker %d took unit %d after %d", round, w, u, us[i-1])
				}
				count[u]++
			}
		}
		for u, c := range count {
			if c != 1 {
				t.Fatalf("round %d (%d workers, %d units): unit %d taken %d times", round, n, total, u, c)
			}
		}
	}
}

// A thief takes the second half of the largest share after its last unit,
// and nothing before it.
func TestStealUnits(t *testing.T) {
	r := &bfsRun{shares: make([]atomic.Uint64, 3)}
	set := func(i, lo, hi int) { r.shares[i].Store(uint64(lo)<<32 | uint64(hi)) }
	get := func(i int) [2]int { v := r.shares[i].Load(); return [2]int{int(v >> 32), int(uint32(v))} }
	set(0, 10, 10)
	set(1, 20, 30)
	set(2, 40, 60)
	if !r.stealUnits(0, 9) || get(0) != [2]int{50, 60} || get(2) != [2]int{40, 50} || get(1) != [2]int{20, 30} {
		t.Errorf("steal: %v %v %v", get(0), get(1), get(2))
	}
	// Worker 2 has taken unit 45: only a half after it may be its.
	set(2, 46, 46)
	set(0, 50, 60)
	if !r.stealUnits(2, 45) || get(2) != [2]int{55, 60} || get(0) != [2]int{50, 55} {
		t.Errorf("steal after 45: %v %v %v", get(0), get(1), get(2))
	}
	set(2, 60, 60)
	if r.stealUnits(2, 59) {
		t.Errorf("stole a share before the thief's last unit: %v %v %v", get(0), get(1), get(2))
	}
	set(0, 70, 71)
	set(1, 0, 0)
	if r.stealUnits(1, -1) {
		t.Error("stole the last unit of a share")
	}
	// A claim leaves most of a share to thieves.
	set(1, 0, 10)
	if at, upto, ok := claimUnits(&r.shares[1]); !ok || at != 0 || upto > 5 || get(1) != [2]int{upto, 10} {
		t.Errorf("claim of 10 units: %d-%d %v, left %v", at, upto, ok, get(1))
	}
}

// A shared BFS gives the same result, traces included, whether the workers
// share the level out in units or each expands its own, with a codec
// (levels of encodings) and without (clones).
func TestUnitsSameSearch(t *testing.T) {
	defer func() { testNoUnits = false }()
	m := modToy([]int{0, 3}, 5000)
	m.bad = map[string]func(int) bool{"a": func(s int) bool { return s == 4999 }, "b": func(s int) bool { return s == 2711 }}
	for _, sys := range []model.System{bytesToy{m, toyBytes{}}, m} {
		for _, workers := range []int{2, 3, 4} {
			for _, cont := range []bool{false, true} {
				opt := Options{Workers: workers, Continue: cont}
				testNoUnits = true
				own := run(sys, opt)
				testNoUnits = false
				units := run(sys, opt)
				if !sameResult(own, units) || own.Stats.Distinct < 3000 {
					t.Errorf("%T, %d workers, continue %v: units %v %+v, own levels %v %+v", sys, workers, cont, units.Verdict, units.Stats, own.Verdict, own.Stats)
				}
			}
		}
	}
}

// The level is shared out in units only when the workers' levels, wholly in
// memory, hold one run of ids in worker order; each worker then starts on
// a share of its own (shareStart).
func TestShareLevel(t *testing.T) {
	mk := func(ids ...[]uint32) *bfsRun {
		r := &bfsRun{shared: newSharedSeen(false)}
		for i, l := range ids {
			w := &bfsWorker{id: i, cur: &level{codec: toyBytes{}, max: 1 << 30}}
			for _, id := range l {
				w.cur.push(nil, int(id), id)
			}
			r.w = append(r.w, w)
		}
		return r
	}
	run := func(from, n uint32) []uint32 {
		var ids []uint32
		for i := uint32(0); i < n; i++ {
			ids = append(ids, from+i)
		}
		return ids
	}
	r := mk(run(10, 130), run(140, 64), nil, run(204, 1))
	r.shareLevel()
	if fmt.Sprint(r.units) != "[3 4 4 5]" {
		t.Fatalf("units %v, want [3 4 4 5]", r.units)
	}
	var shares []string
	for i := range r.shares {
		v := r.shares[i].Load()
		shares = append(shares, fmt.Sprint(v>>32, "-", uint32(v)))
	}
	if fmt.Sprint(shares) != "[0-1 1-2 2-3 3-5]" {
		t.Errorf("shares %v", shares)
	}
	for name, r := range map[string]*bfsRun{
		"ids out of worker order": mk(run(100, 10), run(50, 10)),
		"ids interleaved":         mk([]uint32{1, 3, 5}, []uint32{2, 4, 6}),
	} {
		if r.shareLevel(); r.units != nil {
			t.Errorf("%s: shared out in units %v", name, r.units)
		}
	}
	r = mk(run(0, 10), run(10, 10))
	r.w[1].cur.max = 5 // the rest on disk
	r.w[1].cur.reset()
	for i := uint32(10); i < 20; i++ {
		r.w[1].cur.push(nil, int(i), i)
	}
	defer r.w[1].cur.close()
	if r.shareLevel(); r.units != nil {
		t.Errorf("a level partly on disk shared out in units %v", r.units)
	}
	if k := r.w[1].cur.n - len(r.w[1].cur.ids); k != 5 {
		t.Fatalf("%d states on disk, want 5", k)
	}
}

// TestShareStart: the shares of a level cover its units in order, the last
// one lastShare percent larger than an even share (to within a unit), the
// others even (to within a unit).
func TestShareStart(t *testing.T) {
	for n := 1; n <= 64; n++ {
		for _, total := range []int{0, 1, 7, 100, 1000, 123457} {
			prev := 0
			if s := shareStart(total, 0, n); s != 0 {
				t.Fatalf("%d workers, %d units: the first share starts at %d", n, total, s)
			}
			for i := 1; i <= n; i++ {
				s := shareStart(total, i, n)
				if s < prev || s > total {
					t.Fatalf("%d workers, %d units: share %d starts at %d, after %d", n, total, i, s, prev)
				}
				size := float64(s - prev)
				want := float64(total) * (100 - float64(lastShare)/float64(n-1)) / float64(100*n)
				if i == n {
					want = float64(total) * float64(100+lastShare) / float64(100*n)
				}
				if n == 1 {
					want = float64(total)
				}
				if size < want-1 || size > want+1 {
					t.Fatalf("%d workers, %d units: share %d holds %v units, want %.1f", n, total, i-1, size, want)
				}
				prev = s
			}
			if prev != total {
				t.Fatalf("%d workers: shares end at %d of %d", n, prev, total)
			}
		}
	}
}

// TestGrowCands: the candidates' room doubles when full (up to bigCands),
// keeps what it holds, and is left alone while there is room.
func TestGrowCands(t *testing.T) {
	w := &bfsWorker{cands: make([]newState, 3000)}
	for i := range w.cands {
		w.cands[i].key = uint64(i)
	}
	w.growCands()
	if len(w.cands) != 3000 || cap(w.cands) < 6000 {
		t.Fatalf("full at 3000: len %d cap %d, want cap ≥ 6000", len(w.cands), cap(w.cands))
	}
	for i := range w.cands {
		if w.cands[i].key != uint64(i) {
			t.Fatalf("candidate %d lost in the growth", i)
		}
	}
	c := cap(w.cands)
	w.cands = append(w.cands, newState{})
	w.growCands()
	if cap(w.cands) != c {
		t.Fatalf("grown with room left: cap %d → %d", c, cap(w.cands))
	}
}
