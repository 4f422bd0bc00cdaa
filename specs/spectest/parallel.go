package spectest

import (
	"slices"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

// Parallel checks the BFS with several workers against bfs, the result of
// the one-worker BFS continuing past violations: with 2 and 5 workers the
// same result (counts, depth, statuses and every trace, step by step); and,
// stopping at the first violation (or at max-states, half the states),
// 1 and 3 workers stop at the same point with the same counts and trace.
// It also runs the parallel DFS with 3 workers, which must agree with bfs
// like the DFS does, and returns its result (its traces are to replay).
func Parallel(t testing.TB, name string, sys model.System, bfs *explore.Result) *explore.Result {
	t.Helper()
	pdfs := Run(t, sys, explore.Options{Continue: true, Strategy: explore.DFS, Workers: 3})
	CrossCheck(t, name+" (parallel DFS)", bfs, pdfs)
	for _, w := range []int{2, 5} {
		SameRun(t, name, bfs, Run(t, sys, explore.Options{Continue: true, Workers: w}), w)
	}
	for _, opt := range []explore.Options{{}, {MaxStates: int(max(1, bfs.Stats.Distinct/2))}} {
		one := Run(t, sys, opt)
		par := opt
		par.Workers = 3
		SameRun(t, name, one, Run(t, sys, par), 3)
	}
	return pdfs
}

// SameRun reports where b, a BFS with w workers, differs from a, the same
// search with one: verdict, counts, depth, limit, statuses, traces.
func SameRun(t testing.TB, name string, a, b *explore.Result, w int) {
	t.Helper()
	sa, sb := a.Stats, b.Stats
	if a.Verdict != b.Verdict || a.Limit != b.Limit || sa.Distinct != sb.Distinct || sa.Transitions != sb.Transitions || sa.Depth != sb.Depth {
		t.Errorf("%s: %d workers: %v %q %d states %d transitions depth %d; one worker: %v %q %d states %d transitions depth %d",
			name, w, b.Verdict, b.Limit, sb.Distinct, sb.Transitions, sb.Depth, a.Verdict, a.Limit, sa.Distinct, sa.Transitions, sa.Depth)
		return
	}
	if !slices.Equal(a.Properties, b.Properties) || len(a.Violations) != len(b.Violations) {
		t.Errorf("%s: %d workers: properties %v, %d violations; one worker: %v, %d", name, w, b.Properties, len(b.Violations), a.Properties, len(a.Violations))
		return
	}
	for i, x := range a.Violations {
		y := b.Violations[i]
		if x.Property != y.Property || !slices.EqualFunc(x.Trace.Steps, y.Trace.Steps, func(p, q explore.TraceStep) bool { return p.Label == q.Label }) {
			t.Errorf("%s: %d workers: %s trace differs from one worker's %s trace (%d and %d steps)", name, w, y.Property, x.Property, y.Trace.Len(), x.Trace.Len())
		}
	}
}
