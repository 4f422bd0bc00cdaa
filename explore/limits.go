package explore

import (
	"runtime/metrics"
	"time"
)

// limits are the wall-clock, memory and interrupt limits. Every phase of a
// run honours them the same way: the search, the liveness graph build, its
// analysis and the rebuilding of counterexamples.
type limits struct {
	deadline  time.Time // zero: no timeout
	interrupt <-chan struct{}
	memoryMB  int // 0: no limit
	mem       []metrics.Sample
}

func newLimits(o *Options, start time.Time) *limits {
	l := &limits{interrupt: o.Interrupt, memoryMB: o.MemoryMB}
	if o.Timeout > 0 {
		l.deadline = start.Add(o.Timeout)
	}
	if o.MemoryMB > 0 {
		l.mem = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	}
	return l
}

// check returns the name of the first limit reached ("timeout",
// "interrupt", "memory"), or "". Reading the heap size costs a few
// microseconds, so the memory limit is only checked when withMemory is set.
// Not safe for concurrent use when withMemory is set; the timeout and the
// interrupt are.
func (l *limits) check(withMemory bool) string {
	if l == nil {
		return ""
	}
	if !l.deadline.IsZero() && time.Now().After(l.deadline) {
		return "timeout"
	}
	if l.interrupt != nil {
		select {
		case <-l.interrupt:
			return "interrupt"
		default:
		}
	}
	if withMemory && l.mem != nil {
		metrics.Read(l.mem)
		if heapExceeds(l.mem[0].Value.Uint64(), l.memoryMB) {
			return "memory"
		}
	}
	return ""
}

// heapExceeds reports whether a heap of heap bytes exceeds mb MiB, for any
// mb (a limit beyond 2^44 MiB cannot be reached, rather than wrapping to 0).
func heapExceeds(heap uint64, mb int) bool {
	return mb > 0 && uint64(mb) < 1<<44 && heap > uint64(mb)<<20
}
