package explore

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
)

// refResult is what the reference search finds.
type refResult struct {
	distinct, trans int64
	depth           int
	first           map[string]int // property -> length of its first trace
}

// refBFS is the plain search the engine is checked against: a sequential
// BFS written as simply as possible, deduplicating whole keys in a map,
// checking a state's invariants when it is discovered and deadlock after
// it is expanded, stopping where the engine's one-worker BFS is specified
// to stop (at the first violation unless Continue, once every property is
// violated with Continue, at max-states).
func refBFS(sys model.System, opt Options) refResult {
	r := refResult{first: map[string]int{}}
	inv := sys.Invariants()
	pending, deadlocks := sys.(model.WorkPending)
	total := len(inv)
	if deadlocks {
		total++
	}
	seen := map[string]bool{}
	type item struct {
		st model.State
		d  int
	}
	var queue []item
	stop := false
	violate := func(prop string, d int) {
		if _, ok := r.first[prop]; ok {
			return
		}
		r.first[prop] = d
		if !opt.Continue || len(r.first) == total {
			stop = true
		}
	}
	discover := func(st model.State, d int) {
		key := string(sys.AppendKey(nil, st))
		if seen[key] {
			return
		}
		seen[key] = true
		r.distinct++
		r.depth = max(r.depth, d)
		for _, iv := range inv {
			if _, done := r.first[iv.Name]; !done && iv.Holds(st) == (iv.Expect == model.Sometimes) && iv.Expect != model.Sometimes {
				violate(iv.Name, d)
			}
		}
		if opt.MaxStates > 0 && r.distinct >= int64(opt.MaxStates) {
			stop = true
		}
		queue = append(queue, item{sys.Clone(st), d})
	}
	for _, st := range sys.Init() {
		if !stop {
			discover(st, 0)
		}
	}
	for len(queue) > 0 && !stop {
		it := queue[0]
		queue = queue[1:]
		if opt.MaxDepth > 0 && it.d >= opt.MaxDepth {
			sys.Successors(it.st, func(model.Transition, model.State) bool { r.trans++; return true })
			continue
		}
		self := string(sys.AppendKey(nil, it.st))
		progress := false
		sys.Successors(it.st, func(t model.Transition, next model.State) bool {
			r.trans++
			if t.Kind != model.AdversaryStep && string(sys.AppendKey(nil, next)) != self {
				progress = true
			}
			discover(next, it.d+1)
			return !stop
		})
		if _, done := r.first[Deadlock]; !stop && deadlocks && !done && !progress && pending.Pending(it.st) {
			violate(Deadlock, it.d)
		}
	}
	return r
}

// sameAsRef reports where an engine result differs from the reference's.
func sameAsRef(t *testing.T, name string, want refResult, got *Result) {
	t.Helper()
	if got.Stats.Distinct != want.distinct || got.Stats.Transitions != want.trans || got.Stats.Depth != want.depth {
		t.Errorf("%s: %d states %d transitions depth %d; the plain search: %d %d %d", name,
			got.Stats.Distinct, got.Stats.Transitions, got.Stats.Depth, want.distinct, want.trans, want.depth)
	}
	if len(got.Violations) != len(want.first) {
		t.Errorf("%s: %d violations, the plain search %d (%v)", name, len(got.Violations), len(want.first), want.first)
	}
	for _, v := range got.Violations {
		if n, ok := want.first[v.Property]; !ok || n != v.Trace.Len() {
			t.Errorf("%s: %s in %d steps, the plain search: %v", name, v.Property, v.Trace.Len(), want.first)
		}
	}
}
