package explore

import (
	"runtime"
	"time"
)

// A BFS level runs in up to three phases one after the other (expand;
// settle and order; merge: bfsRun.level), each on every worker, with a few
// serial steps between two phases. A goroutine started for each worker and
// phase had first to wake a sleeping thread, about 20 µs a phase on the
// 2-core machine of our benchmarks, on the level's critical path; the
// serial steps take about as long. So the workers of a search live as long
// as it does, as its crew: worker 0 runs on the search's goroutine, and
// each other worker, between two phases, polls for the next one for a
// moment before it sleeps, as the search's goroutine does waiting for the
// others to finish. (RA N=4, 2 workers: the workers' waits for the start
// of their phases fell from 4.5–5 ms a search to 1.5–3.) With more workers
// than processors nobody polls: the poller would hold a processor a worker
// needs.

// crew runs phases on a BFS's workers 1 to n-1; worker 0 is the caller.
type crew struct {
	start []chan func() // per worker 1..n-1: its next phase (nil: stop)
	done  chan struct{} // one for each worker of 1..n-1 that finished its phase
	poll  time.Duration // how long a receiver polls before it blocks
}

// crewPoll is how long a crew's worker, or the search waiting for them,
// polls before it sleeps (when there is a processor for each worker).
const crewPoll = time.Millisecond

// newCrew starts the goroutines of workers 1 to n-1.
func newCrew(n int) *crew {
	c := &crew{done: make(chan struct{}, n)}
	if n <= runtime.GOMAXPROCS(0) {
		c.poll = crewPoll
	}
	for i := 1; i < n; i++ {
		ch := make(chan func(), 1)
		c.start = append(c.start, ch)
		go func() {
			for {
				phase := pollRecv(ch, c.poll)
				if phase == nil {
					return
				}
				phase()
				c.done <- struct{}{}
			}
		}()
	}
	return c
}

// phase runs each of phases[1:] on its worker's goroutine and phases[0] on
// the caller's, and returns when all have finished. None may panic.
func (c *crew) phase(phases []func()) {
	for i, ch := range c.start {
		ch <- phases[i+1]
	}
	phases[0]()
	for range c.start {
		pollRecv(c.done, c.poll)
	}
}

// stop ends the crew's goroutines (between phases).
func (c *crew) stop() {
	for _, ch := range c.start {
		ch <- nil
	}
}

// pollRecv receives from ch, polling it for up to d before it blocks. It
// yields the processor between polls, so that a garbage collector's
// worker, or the progress line, still runs.
func pollRecv[T any](ch chan T, d time.Duration) T {
	var until time.Time
	for i := 0; d > 0; i++ {
		select {
		case v := <-ch:
			return v
		default:
		}
		if i&31 == 31 {
			now := time.Now()
			if until.IsZero() {
				until = now.Add(d)
			} else if now.After(until) {
				break
			}
		}
		runtime.Gosched()
	}
	return <-ch
}
