package explore

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// A crew runs each phase on every worker, the first on the caller's
// goroutine, and returns only when all have finished it (what a phase
// wrote is there to read); stopped, its goroutines end. With more workers
// than processors too (no polling).
func TestCrew(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, n := range []int{2, 3, 8, 4 * runtime.GOMAXPROCS(0)} {
		c := newCrew(n)
		if polls := c.poll > 0; polls != (n <= runtime.GOMAXPROCS(0)) {
			t.Errorf("%d workers on %d processors: poll %v", n, runtime.GOMAXPROCS(0), c.poll)
		}
		got := make([]int, n) // written by phase k of worker i: k
		var onCaller atomic.Int64
		caller := goid()
		for k := 1; k <= 50; k++ {
			phases := make([]func(), n)
			for i := range phases {
				phases[i] = func() {
					if k%7 == 0 {
						time.Sleep(time.Duration(i) * 100 * time.Microsecond) // finish out of order
					}
					if i == 0 && goid() == caller {
						onCaller.Add(1)
					}
					got[i] = k
				}
			}
			c.phase(phases)
			for i, g := range got {
				if g != k {
					t.Fatalf("%d workers, phase %d: worker %d is at phase %d when phase returns", n, k, i, g)
				}
			}
		}
		if onCaller.Load() != 50 {
			t.Errorf("%d workers: worker 0 ran %d of 50 phases on the caller's goroutine", n, onCaller.Load())
		}
		c.stop()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines after the crews stopped, %d before", g, before)
	}
}

// goid is the calling goroutine's id, from its stack trace's header.
func goid() string {
	var buf [64]byte
	s := string(buf[:runtime.Stack(buf[:], false)])
	s = s[len("goroutine "):]
	for i := range s {
		if s[i] == ' ' {
			return s[:i]
		}
	}
	return s
}
