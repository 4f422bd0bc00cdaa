package main

import (
	"errors"
	"math"
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
// a failed run stops the measurement.
func TestMeasureAlternates(t *testing.T) {
	var order []int
	n := 0
	samples, err := measure(4, []int{1, 2}, func(w int) (sample, error) {
		order = append(order, w)
		n++
		return sample{wall: time.Duration(n)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 2, 2, 1, 1, 2, 2, 1}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
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
	_, err = measure(3, []int{1, 2}, func(w int) (sample, error) {
		if w == 2 {
			return sample{}, errors.New("boom")
		}
		return sample{wall: 1}, nil
	})
	if err == nil || err.Error() != "workers=2: boom" {
		t.Fatalf("error %v, want workers=2: boom", err)
	}
}
