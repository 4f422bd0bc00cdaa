package explore

import (
	"github.com/mxcheck/mxcheck/model"
)

// ampleNode chooses, for partial-order reduction, a node whose enabled steps
// form a persistent (ample) set of st, or -1 to expand st fully. A node u
// qualifies when:
//
//   - no adversary move can ever touch u (Independence.Touchable): moves are
//     the only steps of other actors that conflict with u's;
//   - every enabled step of u is declared independent of all of u's other
//     steps (model.Action.Independent): u's future receives, of messages
//     not yet sent, are steps the set cannot contain, and they must commute
//     with it;
//   - every enabled step of u is invisible to the invariants (C2);
//   - no step of u is a stutter or leads to a state already seen (the cycle
//     proviso: the last state of any cycle to be expanded is then expanded
//     fully, whatever the search order, so no step is ignored forever and
//     deadlocks stay reachable);
//   - u does not own every enabled step (nothing would be saved).
//
// Among qualifying nodes it takes the one with the fewest steps, then the
// lowest id, so the choice is deterministic.
func (s *search) ampleNode(x *expander, st model.State, seen func(fingerprint) bool) int {
	ind := s.c.ind
	var count [model.MaxNodes]int
	var bad [model.MaxNodes]bool
	total := 0
	s.keyA = s.c.sys.AppendKey(s.keyA[:0], st)
	s.c.sys.Successors(st, func(t model.Transition, next model.State) bool {
		total++
		if t.Kind == model.AdversaryStep {
			return true
		}
		u := t.Node
		count[u]++
		if bad[u] {
			return true
		}
		if !ind.Independent(t) || ind.Visible(st, t, next) {
			bad[u] = true
			return true
		}
		s.key = s.c.sys.AppendKey(s.key[:0], next)
		if string(s.key) == string(s.keyA) || seen(x.fingerprint(next)) {
			bad[u] = true
		}
		return true
	})
	best := -1
	for u := range count {
		if count[u] == 0 || bad[u] || count[u] == total || ind.Touchable(st, model.NodeID(u)) {
			continue
		}
		if best < 0 || count[u] < count[best] {
			best = u
		}
	}
	if best >= 0 {
		s.reduced++
	}
	return best
}

// shorten makes BFS counterexamples found under partial-order reduction
// shortest: the reduction may insert invisible steps into a path, so a
// plain BFS bounded one step short of the longest trace looks for shorter
// ones and replaces them. Its states are reported in Stats.ShortenStates.
func (c *Checker) shorten(r *Result) {
	longest := 0
	for _, v := range r.Violations {
		longest = max(longest, v.Trace.Len())
	}
	if longest == 0 {
		return
	}
	opt := c.opt
	if opt.Timeout > 0 {
		// The time limit covers the whole run, shortening included.
		if opt.Timeout -= r.Stats.Elapsed; opt.Timeout <= 0 {
			return
		}
	}
	opt.POR, opt.Continue, opt.MaxDepth, opt.MaxStates, opt.Progress = false, true, longest-1, 0, nil
	opt.Checkpoint, opt.Resume, opt.levelHook = "", "", nil // the run's checkpoints are not this search's
	plain, err := New(c.sys, opt)
	if err != nil {
		return
	}
	short := plain.bfs()
	r.Stats.ShortenStates = short.Stats.Distinct
	for i, v := range r.Violations {
		for _, w := range short.Violations {
			if w.Property == v.Property && w.Trace.Len() < v.Trace.Len() {
				r.Violations[i] = w
			}
		}
	}
}
