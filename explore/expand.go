package explore

import (
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/reduce"
)

// expander is the expansion core, one per goroutine: for a state it yields
// each successor with its ordinal and fingerprint, tells whether the state
// is a deadlock, and evaluates the properties of a new state. Every search
// (BFS with any number of workers, DFS, parallel DFS) and replay's deadlock
// test go through it, so the semantics of a step are written once.
type expander struct {
	c       *Checker
	sys     model.System
	h       model.Handle      // the system's handle for this goroutine
	pending model.WorkPending // nil: no deadlock detection
	canon   *reduce.Canonical // non-nil under symmetry reduction
	wide    bool              // 128-bit fingerprints
	keyEnc  bool              // a successor's key is its encoding (model.RawKeyed)
	viewer  model.KeyViewer   // gives a successor's key in place (keyEnc, 64-bit fingerprints)
	key     []byte            // a successor's key
	keyS    []byte            // the expanded state's key, for the progress test
	fpk     []byte            // a successor's canonical key, under symmetry
	inv     string            // the invariant being evaluated, for SpecPanic
	cur     expansion         // the expand call in progress
	step    func(model.Transition, model.State) bool
}

// succ is one successor as the core yields it. next is only valid during
// the callback.
type succ struct {
	t    model.Transition
	next model.State
	ord  uint32 // ordinal among all the state's successors (trace links)
	tix  uint32 // how many successors have been counted as transitions, this one included
	fp   fingerprint
	enc  []byte // next's encoding, when its key is that (keyEnc), or nil
}

// newExpander returns an expander with its own buffers and canonicaliser;
// stop, when not nil, lets a long canonical labelling see the limits.
func (c *Checker) newExpander(stop func() bool) *expander {
	x := &expander{c: c, sys: c.sys, h: handleOf(c.sys), pending: c.worker, wide: c.opt.Fingerprint == 128}
	if rk, ok := c.sys.(model.RawKeyed); ok && rk.RawKey() && c.codec != nil && c.sym == nil {
		x.keyEnc = true // AppendKey is the codec's AppendState
		if kv, ok := c.sys.(model.KeyViewer); ok && !x.wide {
			x.viewer = kv
		}
	}
	if c.sym != nil {
		x.canon = reduce.NewCanonical(c.sym)
		x.canon.Stop = stop
	}
	return x
}

// fingerprint is the fingerprint of st's key, canonical under symmetry.
func (x *expander) fingerprint(st model.State) fingerprint {
	if x.canon != nil {
		x.fpk = x.canon.AppendKey(x.fpk[:0], st)
		return fingerprintOf(x.fpk, x.wide)
	}
	x.key = x.sys.AppendKey(x.key[:0], st)
	return fingerprintOf(x.key, x.wide)
}

// expand calls fn for each successor of st in order, until fn returns
// false. Under partial-order reduction only the steps of node ample (≥ 0)
// are yielded and counted; ordinals count every step. Without withFP (a
// depth cut) fingerprints are not computed. When deadlocks are wanted and
// the enumeration ran to its end, deadlock reports pending work with no
// step but stutters and adversary moves. n is the number of transitions
// counted.
func (x *expander) expand(st model.State, ample int, withFP, wantDeadlock bool, fn func(sc *succ) bool) (n uint32, deadlock bool) {
	e := &x.cur
	*e = expansion{fn: fn, ample: ample, withFP: withFP, wantDeadlock: wantDeadlock && x.pending != nil, done: true}
	if e.wantDeadlock {
		x.keyS = x.sys.AppendKey(x.keyS[:0], st)
	}
	if x.step == nil {
		x.step = x.stepper()
	}
	x.h.Successors(st, x.step)
	return e.n, e.done && e.wantDeadlock && !e.progress && x.pending.Pending(st)
}

// expansion is the state of one expand call, kept in the expander so that
// the successor callback is one closure made once (no allocation per
// state).
type expansion struct {
	fn                                   func(sc *succ) bool
	sc                                   succ
	ord, n                               uint32
	ample                                int
	withFP, wantDeadlock, progress, done bool
}

// stepper returns expand's callback for one successor. It is a closure
// over x rather than a method value, which is a closure that calls the
// method: one more call and one more copy of the transition for every
// transition.
func (x *expander) stepper() func(model.Transition, model.State) bool {
	return func(t model.Transition, next model.State) bool {
		e := &x.cur
		sc := &e.sc
		sc.ord = e.ord
		e.ord++
		if e.ample >= 0 && (t.Kind == model.AdversaryStep || int(t.Node) != e.ample) {
			return true // outside the ample set: neither explored nor counted
		}
		e.n++
		sc.t, sc.next, sc.tix = t, next, e.n
		var key []byte // next's key, when made
		sc.enc = nil
		if e.withFP {
			if x.viewer != nil {
				key, _ = x.viewer.KeyView(next)
			}
			if key != nil {
				sc.fp = fingerprintOf(key, false)
			} else {
				sc.fp = x.fingerprint(next)
				if x.canon == nil {
					key = x.key
				}
			}
			if x.keyEnc {
				sc.enc = key
			}
		}
		if e.wantDeadlock && !e.progress && t.Kind != model.AdversaryStep {
			if key == nil {
				x.key = x.sys.AppendKey(x.key[:0], next)
				key = x.key
			}
			e.progress = isProgress(t, x.keyS, key)
		}
		if e.fn != nil && !e.fn(sc) {
			e.done = false
			return false
		}
		return true
	}
}

// handleOf returns a handle of sys for one goroutine: its own, when it has
// them, or sys itself.
func handleOf(sys model.System) model.Handle {
	if hs, ok := sys.(model.Handles); ok {
		return hs.NewHandle()
	}
	return sys
}

// nthSuccessor returns the transition with ordinal ord among st's
// successors and a copy of the state it leads to (nil when st has fewer):
// how traces are rebuilt from parent links, lassos from graph edges and
// walks from their choices.
func nthSuccessor(sys model.Handle, st model.State, ord uint32) (model.Transition, model.State) {
	var t model.Transition
	var next model.State
	var k uint32
	sys.Successors(st, func(u model.Transition, n model.State) bool {
		if k == ord {
			t, next = u, sys.Clone(n)
			return false
		}
		k++
		return true
	})
	return t, next
}

// deadlocked reports whether s has pending work and no step but stutters
// and adversary moves (replay's deadlock test, the search's own).
func deadlocked(sys model.System, s model.State) bool {
	p, ok := sys.(model.WorkPending)
	if !ok {
		return false
	}
	x := &expander{sys: sys, h: sys, pending: p}
	_, dead := x.expand(s, -1, false, true, nil)
	return dead
}

// events evaluates on a new state the state properties that have had no
// event yet (bit i of done): bit i of the result is set when property i is
// Always and fails, or is Sometimes and holds.
func (x *expander) events(st model.State, done uint64) uint64 {
	var ev uint64
	for i, iv := range x.c.inv {
		if done&(1<<i) != 0 {
			continue
		}
		x.inv = iv.Name
		if iv.Holds(st) == (iv.Expect == model.Sometimes) {
			ev |= 1 << i
		}
	}
	x.inv = ""
	return ev
}
