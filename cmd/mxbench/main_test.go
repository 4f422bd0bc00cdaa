package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

func walls(secs ...float64) []sample {
	var ss []sample
	for _, s := range secs {
		ss = append(ss, sample{wall: time.Duration(s * float64(time.Second))})
	}
	return ss
}

// The speedup is the median of each round's ratio, with their range: here
// 2.0, while the ratio of the medians (1.0 / 0.6) would say 1.67, the
// machine having been twice as slow in the second round.
func TestSpeedupPerRound(t *testing.T) {
	med, lo, hi := speedup(walls(1.0, 2.0, 1.0), walls(0.5, 1.0, 0.6))
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(med, 2.0) || !near(lo, 1.0/0.6) || !near(hi, 2.0) {
		t.Fatalf("speedup %v (%v–%v), want 2 (1.67–2)", med, lo, hi)
	}
	if med, _, _ := speedup(walls(1, 1, 1, 1), walls(0.5, 0.25, 1, 2)); !near(med, 2) {
		t.Fatalf("even rounds: median %v, want the upper middle ratio 2", med)
	}
}

// Each round runs every worker count once, the order reversed every
// other round, and the samples come back by worker count in round order;
// the core distance is read before each round and after the last; a
// failed run stops the measurement.
func TestMeasureAlternates(t *testing.T) {
	var order []int
	n := 0
	samples, dist, err := measure(4, []int{1, 2}, func(w int) (sample, error) {
		order = append(order, w)
		n++
		return sample{wall: time.Duration(n)}, nil
	}, func() time.Duration {
		order = append(order, 0)
		return time.Duration(100 + n)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 0, 2, 1, 0, 1, 2, 0, 2, 1, 0}; !slices.Equal(order, want) {
		t.Fatalf("order %v (0: a distance read), want %v", order, want)
	}
	if want := []time.Duration{100, 102, 104, 106, 108}; !slices.Equal(dist, want) {
		t.Fatalf("distances %v, want %v", dist, want)
	}
	got := func(ss []sample) []time.Duration {
		var d []time.Duration
		for _, s := range ss {
			d = append(d, s.wall)
		}
		return d
	}
	if a, b := got(samples[0]), got(samples[1]); !slices.Equal(a, []time.Duration{1, 4, 5, 8}) || !slices.Equal(b, []time.Duration{2, 3, 6, 7}) {
		t.Fatalf("samples by worker count %v and %v", a, b)
	}
	_, _, err = measure(3, []int{1, 2}, func(w int) (sample, error) {
		if w == 2 {
			return sample{}, errors.New("boom")
		}
		return sample{wall: 1}, nil
	}, nil)
	if err == nil || err.Error() != "workers=2: boom" {
		t.Fatalf("error %v, want workers=2: boom", err)
	}
}

// A round is near when the readings before and after it are both at most
// the limit, far when both exceed it, and mixed otherwise, a missing
// reading (0) included.
func TestByDistance(t *testing.T) {
	base := walls(2, 2, 2, 2, 2, 2)
	ss := walls(1, 1.25, 0.8, 1.6, 2, 0.5) // speedups 2, 1.6, 2.5, 1.25, 1, 4
	dist := []time.Duration{40, 50, 100, 190, 200, 0, 45}
	near, far, mixed := byDistance(base, ss, dist, 100)
	if !slices.Equal(near, []float64{2, 1.6}) || !slices.Equal(far, []float64{1.25}) || !slices.Equal(mixed, []float64{2.5, 1, 4}) {
		t.Fatalf("near %v far %v mixed %v, want [2 1.6] [1.25] [2.5 1 4]", near, far, mixed)
	}
	line := distanceLine("ra-n4", 2, base, ss, dist, 100)
	if want := "ra-n4, 2 workers: cores 40–200 ns apart; near (≤ 100ns) 2.00x in 2 rounds, far 1.25x in 1 rounds, mixed 2.50x in 3 rounds"; line != want {
		t.Fatalf("line\n%s\nwant\n%s", line, want)
	}
	if line := distanceLine("x", 2, base, ss, []time.Duration{0, 0}, 100); line != "x, 2 workers: core distance not measured (fewer than 2 processors, or the two threads never ran at once)" {
		t.Fatalf("line without readings: %s", line)
	}
}

// coreDistance reads a time a cache line could take between two cores:
// at least a nanosecond, and at most what the one-second deadline allows
// (0 with one processor, or when other processes kept the two threads from
// running at once: then it reads again, up to 5 times).
func TestCoreDistance(t *testing.T) {
	if runtime.NumCPU() < 2 || runtime.GOMAXPROCS(0) < 2 {
		if d := coreDistance(distanceTrips); d != 0 {
			t.Fatalf("one processor: %v, want 0", d)
		}
		return
	}
	var d time.Duration
	for try := 0; try < 5 && d == 0; try++ {
		d = coreDistance(distanceTrips)
	}
	if d < time.Nanosecond || d > time.Second/distanceTrips {
		t.Fatalf("core distance %v", d)
	}
	if d := coreDistance(1); d != 0 {
		t.Fatalf("one trip: %v, want 0", d)
	}
}

// cpu x is the median of the rounds' processor-time ratios, and busy the
// median share of the workers' wall time they ran; in a round, speedup =
// workers × busy / cpu x. Here the second round's machine is twice as
// slow, which moves neither figure.
func TestWorkAndBusy(t *testing.T) {
	s := func(wall, cpu float64) sample {
		return sample{wall: time.Duration(wall * float64(time.Second)), cpu: time.Duration(cpu * float64(time.Second))}
	}
	base := []sample{s(1.0, 1.0), s(2.0, 2.0), s(1.0, 1.0)}
	two := []sample{s(0.55, 1.045), s(1.1, 2.09), s(0.6, 1.1)}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if w := work(base, two); !near(w, 1.045) {
		t.Fatalf("cpu x %v, want 1.045 (the median round)", w)
	}
	if b := busy(two, 2); !near(b, 0.95) {
		t.Fatalf("busy %v, want 0.95", b)
	}
	sp := ratios(base[:1], two[:1])[0]
	if b, w := busy(two[:1], 2), work(base[:1], two[:1]); !near(sp, 2*b/w) {
		t.Fatalf("speedup %v, but 2 × busy %v / cpu x %v = %v", sp, b, w, 2*b/w)
	}
}

// runOnce reads the run's summary and its resources from the process: a
// stand-in for mxcheck that spins for a while counts processor time.
func TestRunOnceMeasures(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fake")
	script := `#!/bin/sh
i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done
echo '{"verdict":"VERIFIED","stats":{"distinct":42,"bytes_per_state":14.5}}'
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := runOnce(bin, []string{"ra"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.distinct != 42 || s.perState != 14.5 || s.verdict != "VERIFIED" {
		t.Fatalf("summary read as %+v", s)
	}
	if s.cpu < 10*time.Millisecond || s.cpu > 2*s.wall+10*time.Millisecond || s.rssKB == 0 {
		t.Fatalf("cpu %v over wall %v, rss %d KB: not the process's", s.cpu, s.wall, s.rssKB)
	}
}
