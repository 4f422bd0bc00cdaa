package main

import (
	"runtime"
	"slices"
	"sync/atomic"
	"time"
)

// coreDistance measures how long a cache line takes to travel from one
// core to another: two goroutines, each on its own thread, hand a counter
// back and forth trips times, and the time per one-way trip is returned.
// On a virtual machine it changes as the host moves the virtual processors
// (on the 2-core machines these figures come from, about 40–55 ns at some
// times and 180–270 ns at others), and the two workers
// of a shared search exchange many lines: a reading explains a round's
// speedup. It returns 0 when there are not two processors to run on, or
// when the trips take over a second (the two threads were not running at
// once).
func coreDistance(trips int) time.Duration {
	if runtime.NumCPU() < 2 || runtime.GOMAXPROCS(0) < 2 || trips < 2 {
		return 0
	}
	var line struct {
		_ [64]byte
		n atomic.Int64
		_ [64]byte
	}
	deadline := time.Now().Add(time.Second)
	var late atomic.Bool
	// pass waits for the counter to reach mine, then hands it on; false
	// once the deadline has passed (on either side).
	pass := func(mine int64) bool {
		for spins := 0; line.n.Load() != mine; spins++ {
			if spins&4095 == 4095 && (late.Load() || time.Now().After(deadline)) {
				late.Store(true)
				return false
			}
		}
		line.n.Store(mine + 1)
		return true
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for i := int64(1); i < int64(trips); i += 2 {
			if !pass(i) {
				return
			}
		}
	}()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	for i := int64(0); i < int64(trips); i += 2 {
		if !pass(i) {
			break
		}
	}
	<-done
	took := time.Since(start)
	if late.Load() {
		return 0
	}
	return took / time.Duration(trips)
}

// distanceTrips is how many one-way trips a reading of coreDistance makes
// (a few milliseconds).
const distanceTrips = 20000

// byDistance splits the rounds' speedups (base's wall time over ss's, as
// speedup takes them) by the core distances read before and after each
// round (dist[r] and dist[r+1]): near when both are at most limit, far when
// both exceed it, and the others (a reading missing, or the two on either
// side of limit) mixed.
func byDistance(base, ss []sample, dist []time.Duration, limit time.Duration) (near, far, mixed []float64) {
	for r, ratio := range ratios(base, ss) {
		if r+1 >= len(dist) {
			mixed = append(mixed, ratio)
			continue
		}
		a, b := dist[r], dist[r+1]
		switch {
		case a > 0 && b > 0 && a <= limit && b <= limit:
			near = append(near, ratio)
		case a > limit && b > limit:
			far = append(far, ratio)
		default:
			mixed = append(mixed, ratio)
		}
	}
	return near, far, mixed
}

// medianOf is the median of v (the upper middle value of an even count),
// or 0 for none.
func medianOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
