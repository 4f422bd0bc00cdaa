package explore

import "github.com/mxcheck/mxcheck/model"

// Properties as data. A search hands every new state to a propTracker,
// which evaluates the system's state properties on it and answers with
// event bits: an Always property whose predicate fails, a Sometimes property
// whose predicate holds. The tracker keeps the first event of each property
// (the state's id and depth; under BFS the least depth) and, at the end,
// turns them into the property statuses, the verdict, the violations and
// the witnesses. A search loop needs four hooks: eval on a new state, note
// the bits, deadlocked for a stuck state, finish at the end.

// propEvent is the first event of one property: its first violation
// (Always, NoDeadlock) or its first witness (Sometimes).
type propEvent struct {
	prop  int // index in propTracker.props, or deadlockProp
	id    uint32
	depth int
}

// deadlockProp is the propEvent.prop of deadlock freedom.
const deadlockProp = -1

// maxStateProps is how many state properties an event mask holds.
const maxStateProps = 64

// propTracker follows the properties of one search.
type propTracker struct {
	props    []model.Invariant // the system's state properties, sorted by name
	deadlock bool              // deadlock freedom is checked
	liveness bool              // a liveness pass follows the search
	cont     bool              // Options.Continue
	done     uint64            // bit i: props[i] has had its first event
	deadDone bool              // a deadlock has been found
	events   []propEvent       // first events, in the order found
	failures int               // violations among events (deadlock included)
	always   int               // Always properties among props
}

func newPropTracker(props []model.Invariant, deadlock, liveness, cont bool) *propTracker {
	p := &propTracker{props: props, deadlock: deadlock, liveness: liveness, cont: cont}
	for _, iv := range props {
		if iv.Expect != model.Sometimes {
			p.always++
		}
	}
	return p
}

// eval evaluates on st every state property that has had no event yet and
// returns the event bits: bit i when props[i] is Always and fails in st, or
// is Sometimes and holds. It only reads the tracker, so parallel workers may
// call it while no note runs. *at names the property being evaluated, for a
// panic report ("" after).
func (p *propTracker) eval(st model.State, at *string) uint64 {
	var bits uint64
	for i, iv := range p.props {
		if p.done&(1<<i) != 0 {
			continue
		}
		*at = iv.Name
		if iv.Holds(st) == (iv.Expect == model.Sometimes) {
			bits |= 1 << i
		}
	}
	*at = ""
	return bits
}

// note records the events bits of state id (at depth) that are the first of
// their property, and reports whether the search must stop: at a violation,
// unless Continue; under Continue once every property that can be violated
// is. A witness never stops a search.
func (p *propTracker) note(bits uint64, id uint32, depth int) bool {
	bits &^= p.done
	for i := range p.props {
		if bits&(1<<i) == 0 {
			continue
		}
		p.done |= 1 << i
		p.events = append(p.events, propEvent{prop: i, id: id, depth: depth})
		if p.props[i].Expect != model.Sometimes {
			p.failures++
		}
	}
	return p.mustStop()
}

// checkDeadlock reports whether deadlock is still to be looked for.
func (p *propTracker) checkDeadlock() bool { return p.deadlock && !p.deadDone }

// deadlocked records a deadlock in state id and reports whether the search
// must stop.
func (p *propTracker) deadlocked(id uint32, depth int) bool {
	if !p.checkDeadlock() {
		return false
	}
	p.deadDone = true
	p.events = append(p.events, propEvent{prop: deadlockProp, id: id, depth: depth})
	p.failures++
	return p.mustStop()
}

func (p *propTracker) mustStop() bool {
	if p.failures == 0 {
		return false
	}
	n := p.always
	if p.deadlock {
		n++
	}
	if p.liveness {
		n++ // checked after the search, which must not stop early for it
	}
	return !p.cont || p.failures == n
}

// name is the property name of event e.
func (p *propTracker) name(e propEvent) string {
	if e.prop == deadlockProp {
		return Deadlock
	}
	return p.props[e.prop].Name
}

// expect is the expectation of event e's property.
func (p *propTracker) expect(e propEvent) model.Expectation {
	if e.prop == deadlockProp {
		return model.NoDeadlock
	}
	return p.props[e.prop].Expect
}

// finish fills in r's verdict, property statuses, violations and witnesses.
// r.Limit and r.Exhausted must be set; trace rebuilds the trace to a state.
// Statuses: Always properties and deadlock freedom first (by name, then
// no-deadlock), then the Sometimes properties. Verdict precedence: violated,
// incomplete, unreached, verified.
func (p *propTracker) finish(r *Result, sys model.System, trace func(id uint32) (Trace, model.State)) {
	first := map[string]bool{}
	for _, e := range p.events {
		first[p.name(e)] = true
	}
	// Without Continue the search stopped at the first violation: the
	// Always properties it had not violated yet are unknown.
	complete := r.Limit == "" && (p.failures == 0 || p.cont)
	status := func(name string, x model.Expectation) Status {
		switch {
		case x == model.Sometimes && first[name]:
			return Holds
		case x == model.Sometimes && r.Exhausted:
			return NeverReached
		case x == model.Sometimes:
			return Unknown
		case first[name]:
			return Fails
		case complete:
			return Holds
		}
		return Unknown
	}
	unreached := false
	for pass := 0; pass < 2; pass++ {
		for _, iv := range p.props {
			if (iv.Expect == model.Sometimes) != (pass == 1) {
				continue
			}
			st := status(iv.Name, iv.Expect)
			unreached = unreached || st == NeverReached
			r.Properties = append(r.Properties, PropertyResult{Name: iv.Name, Status: st, Kind: iv.Expect})
		}
		if pass == 0 && p.deadlock {
			r.Properties = append(r.Properties, PropertyResult{Name: Deadlock, Status: status(Deadlock, model.NoDeadlock), Kind: model.NoDeadlock})
		}
	}
	switch {
	case p.failures > 0:
		r.Verdict = Violated
	case r.Limit != "":
		r.Verdict = Incomplete
	case unreached:
		r.Verdict = Unreached
	default:
		r.Verdict = Verified
	}
	ex, _ := sys.(model.Explainer)
	for _, e := range p.events {
		x := p.expect(e)
		v := Violation{Property: p.name(e), Kind: x}
		var last model.State
		v.Trace, last = trace(e.id)
		if x == model.Sometimes {
			r.Witnesses = append(r.Witnesses, v)
			continue
		}
		if ex != nil {
			v.Explanation = ex.Explain(last, v.Property)
			v.DOT = ex.DOT(last, v.Property)
		}
		r.Violations = append(r.Violations, v)
	}
}

// stopped downgrades r's verdict when a pass after the search (liveness) is
// stopped by limit: verified and unreached become incomplete.
func (r *Result) stopped(limit string) {
	if r.Limit == "" {
		r.Limit = limit
	}
	if r.Verdict == Verified || r.Verdict == Unreached {
		r.Verdict = Incomplete
	}
}
