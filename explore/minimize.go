package explore

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// DefaultMinimizeStates bounds the BFS that looks for a shorter trace after
// greedy deletion, in distinct states.
const DefaultMinimizeStates = 1_000_000

// MinimizeOptions configures Minimize. The zero value means: greedy
// deletion, then a BFS of at most DefaultMinimizeStates states.
type MinimizeOptions struct {
	// States bounds the BFS for a shorter trace, in distinct states: 0
	// means DefaultMinimizeStates; negative skips the BFS.
	States int
	// Interrupt, once closed, stops the BFS; the greedy result stands.
	Interrupt <-chan struct{}
}

// Minimized is a counterexample after minimisation.
type Minimized struct {
	// Violation is the minimised violation, its trace rendered.
	Violation Violation `json:"violation"`
	// Init and Steps are the minimised path: the index of its initial
	// state and its transitions.
	Init  int                `json:"-"`
	Steps []model.Transition `json:"-"`
	// Original is the length of the trace given; Greedy its length after
	// greedy deletion (at most Original); Violation.Trace.Len() the final
	// length (at most Greedy).
	Original int `json:"original_length"`
	Greedy   int `json:"greedy_length"`
	// BFS says what the bounded BFS did: "shorter" (it found a shorter
	// trace, which is shortest), "none shorter" (it searched every path
	// shorter than the greedy trace), "stopped at N states" (its bound hit
	// first) or "skipped".
	BFS string `json:"bfs"`
}

// shrinkStep is one step of a trace being shrunk: the transition as taken in
// the current trace and its label there, which identifies it (with its
// kind, node, action, choice and arguments) when earlier steps are deleted.
type shrinkStep struct {
	t     model.Transition
	label string
}

// shrinker re-executes candidate traces of one violation.
type shrinker struct {
	sys   model.System
	desc  model.Describer
	namer model.ActionNamer
	prop  string
	kind  model.Expectation
	inv   *model.Invariant
	execs int
}

// Minimize shrinks the path (initial state init, then steps) to a violation
// of prop (kind model.Always or model.NoDeadlock): greedy deletion, first of whole
// participants (a node with the deliveries of its messages; the adversary),
// then of blocks of steps, halving the block size down to single steps and
// repeating single deletions to a fixpoint. A candidate is executed step by
// step (each step matched by its kind, node, action, choice, arguments and
// label, or for a delivery the same sender, in the new state; steps no
// longer enabled are dropped too) and kept when it reaches a state violating
// prop (it is cut there): what is kept always executes. Then, unless
// opt.States < 0, a BFS bounded to fewer steps than the greedy trace and
// to opt.States distinct states looks for a shorter one. The result is
// never longer than the input.
func Minimize(sys model.System, init int, steps []model.Transition, prop string, kind model.Expectation, opt MinimizeOptions) (*Minimized, error) {
	sh := &shrinker{sys: sys, prop: prop, kind: kind}
	sh.desc, _ = sys.(model.Describer)
	sh.namer, _ = sys.(model.ActionNamer)
	switch kind {
	case model.Always:
		for _, iv := range sys.Invariants() {
			if iv.Name == prop && iv.Expect == model.Always {
				sh.inv = &iv
			}
		}
		if sh.inv == nil {
			return nil, fmt.Errorf("minimize: no invariant %q", prop)
		}
	case model.NoDeadlock:
	default:
		return nil, fmt.Errorf("minimize: cannot minimise a %s violation", kind)
	}
	states := replaySteps(sys, init, steps)
	if states == nil {
		return nil, fmt.Errorf("minimize: the path does not execute")
	}
	cur := make([]shrinkStep, len(steps))
	for i, t := range steps {
		cur[i] = shrinkStep{t: t, label: sh.label(states[i], t)}
	}
	// Cut at the first violating state, then check the path violates at all.
	newSteps, newStates, ok := sh.exec(states[0], cur)
	if !ok {
		return nil, fmt.Errorf("minimize: the path does not reach a violation of %s", prop)
	}
	cur, states = newSteps, append(states[:1:1], newStates...)
	m := &Minimized{Init: init, Original: len(steps)}
	// First drop whole participants: every step of one node together with
	// the deliveries of its messages, and every adversary move.
	for _, drop := range sh.groups(cur) {
		var cand []shrinkStep
		for i := range cur {
			if !drop(cur[i]) {
				cand = append(cand, cur[i])
			}
		}
		if len(cand) == len(cur) {
			continue
		}
		if tail, tailStates, ok := sh.exec(states[0], cand); ok {
			cur, states = tail, append(states[:1], tailStates...)
		}
	}
	for chunk := max(len(cur)/2, 1); ; {
		changed := false
		for i := 0; i+chunk <= len(cur); {
			cand := append(append([]shrinkStep(nil), cur[:i]...), cur[i+chunk:]...)
			tail, tailStates, ok := sh.exec(states[i], cand[i:])
			if !ok {
				i += chunk
				continue
			}
			cur = append(cand[:i], tail...)
			states = append(states[:i+1], tailStates...)
			changed = true
		}
		if chunk > 1 {
			chunk /= 2
			continue
		}
		if !changed {
			break
		}
	}
	m.Greedy = len(cur)
	m.Steps = make([]model.Transition, len(cur))
	for i := range cur {
		m.Steps[i] = cur[i].t
	}
	m.BFS = "skipped"
	if opt.States >= 0 && len(cur) > 1 {
		if err := sh.bfs(m, opt); err != nil {
			return nil, err
		}
	}
	if m.Violation.Trace.Steps == nil {
		states = replaySteps(sys, m.Init, m.Steps)
		m.Violation = sh.violation(states, m.Steps)
	}
	return m, nil
}

// MinimizeViolation minimises a violation found by a search (its trace is
// re-executed first). Liveness lassos are returned unchanged.
func MinimizeViolation(sys model.System, v Violation, opt MinimizeOptions) (*Minimized, error) {
	states, steps, err := Execute(sys, v.Trace)
	if err != nil {
		return nil, fmt.Errorf("minimize: %v", err)
	}
	init := -1
	key := string(sys.AppendKey(nil, states[0]))
	for i, s := range sys.Init() {
		if string(sys.AppendKey(nil, s)) == key {
			init = i
			break
		}
	}
	if v.Kind == model.Eventually {
		return &Minimized{Violation: v, Init: init, Steps: steps, Original: len(steps), Greedy: len(steps), BFS: "skipped"}, nil
	}
	return Minimize(sys, init, steps, v.Property, v.Kind, opt)
}

func (sh *shrinker) label(s model.State, t model.Transition) string {
	if sh.desc == nil {
		return ""
	}
	return sh.desc.DescribeStep(s, t)
}

// exec runs steps from state from, matching each step by identity in the
// current state and dropping the steps no longer enabled (they depended on
// deleted ones), and stops at the first state that violates the property.
// It returns the steps taken, the states after each, and whether a
// violation was reached.
func (sh *shrinker) exec(from model.State, steps []shrinkStep) ([]shrinkStep, []model.State, bool) {
	sh.execs++
	cur := from
	var outSteps []shrinkStep
	var outStates []model.State
	for _, st := range steps {
		var next, loose model.State
		var taken, looseT model.Transition
		delivery := sh.namer == nil || sh.namer.Delivery(st.t)
		sh.sys.Successors(cur, func(u model.Transition, n model.State) bool {
			t := st.t
			if u.Kind != t.Kind || u.Node != t.Node || u.Action != t.Action || u.Choices != t.Choices || u.Choice != t.Choice || u.Arg != t.Arg {
				return true
			}
			if delivery {
				lab := sh.label(cur, u)
				if lab != st.label {
					// Deleted steps may change a message's payload (a
					// timestamp); the same receiver taking a message from
					// the same sender with the same action still matches,
					// unless an exact match comes later.
					if loose == nil && endpoints(lab) == endpoints(st.label) {
						loose, looseT = sh.sys.Clone(n), u
					}
					return true
				}
			} else if u.Msg != t.Msg {
				return true
			}
			next, taken = sh.sys.Clone(n), u
			return false
		})
		if next == nil && loose != nil {
			next, taken = loose, looseT
		}
		if next == nil {
			continue // no longer enabled: dropped with the deleted steps
		}
		outSteps = append(outSteps, shrinkStep{t: taken, label: sh.label(cur, taken)})
		outStates = append(outStates, next)
		cur = next
		if sh.violates(cur) {
			return outSteps, outStates, true
		}
	}
	return nil, nil, false
}

func (sh *shrinker) violates(s model.State) bool {
	if sh.inv != nil {
		return !sh.inv.Holds(s)
	}
	return deadlocked(sh.sys, s)
}

// bfs looks for a violation of the property in fewer steps than m.Steps.
func (sh *shrinker) bfs(m *Minimized, mo MinimizeOptions) error {
	states := mo.States
	if states == 0 {
		states = DefaultMinimizeStates
	}
	opt := Options{MaxDepth: len(m.Steps) - 1, MaxStates: states, Continue: true, NoDeadlock: sh.kind != model.NoDeadlock, Interrupt: mo.Interrupt}
	chk, err := New(sh.sys, opt)
	if err != nil {
		return fmt.Errorf("minimize: %v", err)
	}
	res := chk.Run()
	for _, v := range res.Violations {
		if v.Property != sh.prop || v.Trace.Len() >= len(m.Steps) {
			continue
		}
		states, steps, err := Execute(sh.sys, v.Trace)
		if err != nil {
			return fmt.Errorf("minimize: the BFS trace does not execute: %v", err)
		}
		init := 0
		key := string(sh.sys.AppendKey(nil, states[0]))
		for i, s := range sh.sys.Init() {
			if string(sh.sys.AppendKey(nil, s)) == key {
				init = i
				break
			}
		}
		m.Init, m.Steps, m.BFS = init, steps, "shorter"
		m.Violation = sh.violation(states, steps)
		return nil
	}
	if res.Limit == "max-depth" || res.Limit == "" {
		m.BFS = "none shorter"
	} else {
		m.BFS = fmt.Sprintf("stopped at %d states", res.Stats.Distinct)
	}
	return nil
}

// violation renders the violation at the end of the path.
func (sh *shrinker) violation(states []model.State, steps []model.Transition) Violation {
	v := Violation{Property: sh.prop, Kind: sh.kind, Trace: renderPath(sh.sys, states, steps)}
	if ex, ok := sh.sys.(model.Explainer); ok {
		last := states[len(states)-1]
		v.Explanation = ex.Explain(last, sh.prop)
		v.DOT = ex.DOT(last, sh.prop)
	}
	return v
}

// endpoints is the sender and receiver part of a delivery's label, the
// first field with an arrow: "n0->n1" in "n1 ReceiveRequest n0->n1
// request(ts=1)", "n0.1->n1.2" with ports; "" when there is none.
func endpoints(label string) string {
	for _, f := range strings.Fields(label) {
		if strings.Contains(f, "->") {
			return f
		}
	}
	return ""
}

// groups returns the participants minimisation tries to drop at once: each
// node that acts in the trace (its node and env steps and the deliveries of
// the messages it sent), then the adversary.
func (sh *shrinker) groups(steps []shrinkStep) []func(shrinkStep) bool {
	var nodes model.NodeSet
	adversary := false
	for _, st := range steps {
		if st.t.Kind == model.AdversaryStep {
			adversary = true
		} else {
			nodes = nodes.Add(st.t.Node)
		}
	}
	var out []func(shrinkStep) bool
	for _, u := range nodes.All() {
		name := u.String()
		out = append(out, func(st shrinkStep) bool {
			if st.t.Kind == model.AdversaryStep {
				return false
			}
			if st.t.Node == u {
				return true
			}
			e := endpoints(st.label)
			return strings.HasPrefix(e, name+"->") || strings.HasPrefix(e, name+".")
		})
	}
	if adversary {
		out = append(out, func(st shrinkStep) bool { return st.t.Kind == model.AdversaryStep })
	}
	return out
}
