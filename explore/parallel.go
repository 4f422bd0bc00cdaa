package explore

import (
	"sync"
	"sync/atomic"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/reduce"
)

// Parallel BFS. Each level is expanded by Options.Workers goroutines that
// only read the seen-set as it stood when the level began; a sequential merge
// then inserts their successors in (parent, ordinal) order. States therefore
// get the same ids, parents, counts and first violations as in bfs: the
// result is identical to the sequential search's, whatever the scheduling.

// psucc is one successor as a worker saw it.
type psucc struct {
	fp    uint64
	fails uint64      // propTracker.eval's event bits for this successor
	st    model.State // a private copy, or nil when seen in an earlier level
}

// pexp is the expansion of one state.
type pexp struct {
	succ     []psucc
	deadlock bool // pending work and no step but stutters and adversary moves
}

// pworker holds one goroutine's scratch buffers.
type pworker struct {
	c              *Checker
	props          *propTracker // the search's, read only while workers run
	canon          *reduce.Canonical
	key, keyS, fpk []byte
	inv            string // the invariant being evaluated, for SpecPanic
}

func (w *pworker) fingerprint(st model.State) uint64 {
	if w.canon != nil {
		w.fpk = w.canon.AppendKey(w.fpk[:0], st)
	} else {
		w.fpk = w.c.sys.AppendKey(w.fpk[:0], st)
	}
	return model.Fingerprint(w.fpk)
}

// expand generates every successor of st; seen is read, never written.
func (w *pworker) expand(st model.State, cut bool, seen *seenSet, out *pexp) {
	c := w.c
	deadlock := c.worker != nil
	progress := false
	if deadlock {
		w.keyS = c.sys.AppendKey(w.keyS[:0], st)
	}
	out.succ = out.succ[:0]
	c.sys.Successors(st, func(t model.Transition, next model.State) bool {
		if deadlock && !progress && t.Kind != model.AdversaryStep {
			w.key = c.sys.AppendKey(w.key[:0], next)
			progress = string(w.key) != string(w.keyS)
		}
		if cut {
			out.succ = append(out.succ, psucc{})
			return true
		}
		fp := w.fingerprint(next)
		if seen.contains(fp) {
			out.succ = append(out.succ, psucc{fp: fp})
			return true
		}
		fails := w.props.eval(next, &w.inv)
		out.succ = append(out.succ, psucc{fp: fp, fails: fails, st: c.sys.Clone(next)})
		return true
	})
	out.deadlock = deadlock && !progress && c.worker.Pending(st)
}

// parallelBFS is bfs with the expansion of each level spread over workers.
func (c *Checker) parallelBFS() *Result {
	s := c.newSearch()
	var cur, next []entry
	s.queue = func() int { return len(cur) + len(next) }
	for i, st := range c.sys.Init() {
		if id, isNew := s.discover(link{noParent, uint32(i)}, st, 0); isNew {
			cur = append(cur, entry{st: c.sys.Clone(st), id: id})
		}
	}
	workers := make([]*pworker, c.opt.Workers)
	for i := range workers {
		workers[i] = &pworker{c: c, props: s.props}
		if c.sym != nil {
			workers[i].canon = reduce.NewCanonical(c.sym)
			workers[i].canon.Stop = func() bool { return s.lim.check(false) != "" }
		}
	}
	var exps []pexp
	for depth := 0; len(cur) > 0 && !s.stop; depth++ {
		cut := c.opt.MaxDepth > 0 && depth >= c.opt.MaxDepth
		if cap(exps) < len(cur) {
			exps = make([]pexp, len(cur))
		}
		exps = exps[:len(cur)]
		var nextBlock atomic.Int64
		const block = 64
		var wg sync.WaitGroup
		var limited atomic.Value // the limit a worker reached mid-level
		limited.Store("")
		var panicked atomic.Pointer[workerPanic] // the first panic of the system's code
		for _, w := range workers {
			wg.Add(1)
			go func(w *pworker) {
				defer wg.Done()
				i := -1
				defer func() {
					if v := recover(); v != nil {
						panicked.CompareAndSwap(nil, &workerPanic{value: v, id: cur[i].id, inv: w.inv})
						limited.CompareAndSwap("", "panic")
					}
				}()
				for {
					lo := int(nextBlock.Add(block)) - block
					if lo >= len(cur) {
						return
					}
					if l := s.lim.check(false); l != "" {
						limited.CompareAndSwap("", l)
						return
					}
					for i = lo; i < min(lo+block, len(cur)); i++ {
						w.expand(cur[i].st, cut, s.seen, &exps[i])
					}
				}
			}(w)
		}
		wg.Wait()
		if p := panicked.Load(); p != nil {
			panic(p) // to Check, on the search's own goroutine
		}
		if l := limited.Load().(string); l != "" {
			s.halt(l) // the level is only partly expanded: merge none of it
			break
		}
		next = nil
		for i := range cur {
			s.merge(cur[i], &exps[i], cut, depth, &next)
			cur[i], exps[i] = entry{}, pexp{succ: exps[i].succ[:0]}
			if s.stop {
				break
			}
		}
		cur, next = next, nil
	}
	for _, w := range workers {
		if w.canon != nil {
			s.symBounded += w.canon.Bounded
		}
	}
	return s.result()
}

// merge does for one expanded state what expand does in bfs, in the same
// order, from the workers' precomputed successors.
func (s *search) merge(e entry, x *pexp, cut bool, depth int, next *[]entry) {
	s.tick()
	if s.stop {
		return
	}
	for k, sc := range x.succ {
		s.trans++
		if cut {
			if s.limit == "" {
				s.limit = "max-depth"
			}
			continue
		}
		if sc.st == nil || !s.seen.insert(sc.fp) {
			continue
		}
		id := s.addLink(link{e.id, uint32(k)})
		s.depth = max(s.depth, depth+1)
		if sc.fails != 0 && s.props.note(sc.fails, id, depth+1) {
			s.stop = true
		}
		if s.c.opt.MaxStates > 0 && int(s.n) >= s.c.opt.MaxStates && !s.stop {
			s.halt("max-states")
		}
		*next = append(*next, entry{st: sc.st, id: id})
		if s.stop {
			return
		}
	}
	if x.deadlock && s.props.deadlocked(e.id, depth) {
		s.stop = true
	}
}
