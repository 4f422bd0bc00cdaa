package explore

import "github.com/mxcheck/mxcheck/model"

// Step classes: a walk first picks a class by its run's weights, then a step
// of that class uniformly.
const (
	classNode      = iota // a node's own action, receiving nothing
	classDelivery         // a node step that receives a message
	classEnv              // request-CS or exit-CS
	classAdversary        // a topology, membership or crash move
	numClasses
)

// ClassNames names the step classes a simulation weighs, in order.
var ClassNames = [numClasses]string{"node", "delivery", "env", "adversary"}

// maxWeight bounds a class's weight in a run. The protocol's own classes
// weigh 1..maxWeight, the adversary 0..maxWeight: a run that weighs it 0
// is churn-free while the protocol runs (the adversary moves only once
// nothing else can), one that weighs it maxWeight against 1s is
// churn-heavy.
const maxWeight = 8

// Ends of a walk.
const (
	endViolation  = "violation"  // an invariant failed or a deadlock was reached
	endTerminated = "terminated" // no enabled step changes the state
	endDepth      = "depth"      // the depth bound was reached
)

// candidate is an enabled, non-stuttering step: its ordinal among the
// state's successors and the transition.
type candidate struct {
	ord uint32
	t   model.Transition
}

// walker runs random walks over one system; one per goroutine.
type walker struct {
	sys    model.System
	h      model.Handle
	inv    []model.Invariant // the Always properties checked
	some   []model.Invariant // the Sometimes properties watched (sometimes.go)
	worker model.WorkPending // nil when deadlock is not checked
	namer  model.ActionNamer
	names  map[string]int // action name -> coverage index
	depth  int
	keep   bool // keep every state of the walk (Walk)
	cands  [numClasses][]candidate
	key    []byte
	self   []byte
}

// walk is the outcome of one run.
type walk struct {
	run     int
	seed    uint64
	weights [numClasses]int
	init    int
	steps   []model.Transition
	states  []model.State // when the walker keeps them
	end     string
	prop    string            // the violated property, when end is endViolation
	kind    model.Expectation // Always or NoDeadlock
	counts  []int64
	classes [numClasses]int64
	// reached[i] is the step after which w.some[i] first held (0: in the
	// initial state), or -1.
	reached []int
}

func newWalker(sys model.System, inv []model.Invariant, names []string, deadlock bool, depth int) *walker {
	w := &walker{sys: sys, h: handleOf(sys), inv: alwaysOnly(inv), some: sometimesOf(sys), depth: depth, names: map[string]int{}}
	w.namer, _ = sys.(model.ActionNamer)
	if wk, ok := sys.(model.WorkPending); ok && deadlock {
		w.worker = wk
	}
	for i, n := range names {
		w.names[n] = i
	}
	return w
}

// actionNames are the coverage entries of sys: its actions when it names
// them, else one entry per step kind.
func actionNames(sys model.System) []string {
	if n, ok := sys.(model.ActionNamer); ok {
		return n.ActionNames()
	}
	return []string{model.NodeStep.String(), model.EnvStep.String(), model.AdversaryStep.String()}
}

func (w *walker) actionName(t model.Transition) string {
	if w.namer != nil {
		return w.namer.ActionName(t)
	}
	return t.Kind.String()
}

func (w *walker) class(t model.Transition) int {
	switch t.Kind {
	case model.EnvStep:
		return classEnv
	case model.AdversaryStep:
		return classAdversary
	}
	if w.namer != nil && w.namer.Delivery(t) {
		return classDelivery
	}
	return classNode
}

// run performs run number run with the given seed: draw the class weights,
// then step from a random initial state, checking every invariant in every
// state and deadlock in every state it expands, until a violation, a state
// with no state-changing step, or the depth bound.
func (w *walker) run(run int, seed uint64) *walk {
	g := newGen(seed)
	r := &walk{run: run, seed: seed, counts: make([]int64, len(w.names)+1)}
	for c := range r.weights {
		if c == classAdversary {
			r.weights[c] = g.intn(maxWeight + 1)
		} else {
			r.weights[c] = 1 + g.intn(maxWeight)
		}
	}
	inits := w.sys.Init()
	r.init = g.intn(len(inits))
	cur := w.h.Clone(inits[r.init])
	if w.keep {
		r.states = append(r.states, cur)
	}
	w.witness(r, cur)
	if w.violated(r, cur) {
		return r
	}
	for len(r.steps) < w.depth {
		w.self = w.sys.AppendKey(w.self[:0], cur)
		for c := range w.cands {
			w.cands[c] = w.cands[c][:0]
		}
		progress := false
		var ord uint32
		w.h.Successors(cur, func(t model.Transition, next model.State) bool {
			o := ord
			ord++
			w.key = w.sys.AppendKey(w.key[:0], next)
			if string(w.key) == string(w.self) {
				return true // a stutter leads nowhere: never chosen
			}
			progress = progress || isProgress(t, w.self, w.key)
			c := w.class(t)
			w.cands[c] = append(w.cands[c], candidate{o, t})
			return true
		})
		if w.worker != nil && !progress && w.worker.Pending(cur) {
			r.end, r.prop, r.kind = endViolation, Deadlock, model.NoDeadlock
			return r
		}
		c, ok := pickClass(g, &w.cands, &r.weights)
		if !ok {
			r.end = endTerminated
			return r
		}
		cand := w.cands[c][g.intn(len(w.cands[c]))]
		cur = successor(w.h, cur, cand.ord)
		r.steps = append(r.steps, cand.t)
		if w.keep {
			r.states = append(r.states, cur)
		}
		r.classes[c]++
		if i, ok := w.names[w.actionName(cand.t)]; ok {
			r.counts[i]++
		} else {
			r.counts[len(w.names)]++
		}
		w.witness(r, cur)
		if w.violated(r, cur) {
			return r
		}
	}
	r.end = endDepth
	return r
}

// violated checks every invariant of s, in name order, and records the
// first that fails.
func (w *walker) violated(r *walk, s model.State) bool {
	for _, iv := range w.inv {
		if !iv.Holds(s) {
			r.end, r.prop, r.kind = endViolation, iv.Name, model.Always
			return true
		}
	}
	return false
}

// pickClass draws a non-empty class with probability proportional to its
// weight, or uniformly among the non-empty classes when they all weigh 0
// (only the adversary can weigh 0).
// It reports false when every class is empty.
func pickClass(g *gen, cands *[numClasses][]candidate, weights *[numClasses]int) (int, bool) {
	total, nonEmpty := 0, 0
	for c := range cands {
		if len(cands[c]) > 0 {
			total += weights[c]
			nonEmpty++
		}
	}
	if nonEmpty == 0 {
		return 0, false
	}
	if total == 0 {
		k := g.intn(nonEmpty)
		for c := range cands {
			if len(cands[c]) > 0 {
				if k == 0 {
					return c, true
				}
				k--
			}
		}
	}
	x := g.intn(total)
	for c := range cands {
		if len(cands[c]) == 0 {
			continue
		}
		if x < weights[c] {
			return c, true
		}
		x -= weights[c]
	}
	panic("unreachable")
}

// successor returns a copy of the successor of s with ordinal ord.
func successor(sys model.Handle, s model.State, ord uint32) model.State {
	_, next := nthSuccessor(sys, s, ord)
	return next
}

// replaySteps re-executes steps (transitions compared by value) from initial
// state init and returns every state, or nil when a step is not enabled.
func replaySteps(sys model.System, init int, steps []model.Transition) []model.State {
	inits := sys.Init()
	if init < 0 || init >= len(inits) {
		return nil
	}
	states := []model.State{sys.Clone(inits[init])}
	for _, t := range steps {
		cur := states[len(states)-1]
		var next model.State
		sys.Successors(cur, func(u model.Transition, n model.State) bool {
			if u == t {
				next = sys.Clone(n)
				return false
			}
			return true
		})
		if next == nil {
			return nil
		}
		states = append(states, next)
	}
	return states
}

// renderPath renders states and the steps between them as a Trace.
func renderPath(sys model.System, states []model.State, steps []model.Transition) Trace {
	desc, _ := sys.(model.Describer)
	var tr Trace
	tr.Steps = append(tr.Steps, TraceStep{State: itf(desc, states[0])})
	if desc != nil {
		tr.Initial = desc.Dump(states[0])
	}
	for i, t := range steps {
		step := TraceStep{Kind: t.Kind.String(), State: itf(desc, states[i+1])}
		if desc != nil {
			step.Label = desc.DescribeStep(states[i], t)
			step.Changes = desc.Changes(states[i], states[i+1])
		} else {
			step.Label = t.Kind.String()
		}
		tr.Steps = append(tr.Steps, step)
	}
	if desc != nil {
		tr.Final = desc.Dump(states[len(states)-1])
	}
	return tr
}

// Walk runs one random walk of sys as Simulate runs run 0 of seed (every
// invariant (Always property) checked, deadlock when deadlock is true, at most depth steps)
// and returns its states, its steps (steps[i] leads from states[i] to
// states[i+1]) and the property it violated in its last state ("" if
// none).
func Walk(sys model.System, seed uint64, depth int, deadlock bool) ([]model.State, []model.Transition, string) {
	w := newWalker(sys, sys.Invariants(), actionNames(sys), deadlock, depth)
	w.keep = true
	r := w.run(0, seed)
	return r.states, r.steps, r.prop
}
