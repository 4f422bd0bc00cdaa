package explore

import (
	"fmt"
	"io"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// ReplayResult says whether a stored trace still executes step by step in the
// current model and still ends in the same violation.
type ReplayResult struct {
	// Reproduced is true when every step matched and the last state still
	// violates the stored property.
	Reproduced bool
	// Steps is the number of steps that matched.
	Steps int
	// Property is the stored violated property (or, for a witness, the
	// sometimes property it reaches).
	Property string
	// Witness is true for the trace of a sometimes property: it is
	// reproduced when its last state still satisfies the property.
	Witness bool
	// Reason explains a failure in one line.
	Reason string
}

// Replay re-runs trace t against sys: the first state must be an initial
// state; each later state must be reached from the previous one by an
// enabled step with the stored label; and the last state must violate the
// stored property (an invariant, or deadlock freedom). A liveness lasso must
// also close, keep its node hungry and be fair (see replayLasso).
func Replay(sys model.System, t *ITFTrace) ReplayResult {
	r := replay(sys, t)
	r.Property = t.Meta.Property
	r.Witness = t.Meta.Kind == model.Sometimes
	return r
}

func replay(sys model.System, t *ITFTrace) ReplayResult {
	desc, ok := sys.(model.Describer)
	if !ok {
		return ReplayResult{Reason: "the system cannot describe its states"}
	}
	if err := checkProperty(sys, t); err != nil {
		return ReplayResult{Reason: err.Error()}
	}
	states, steps, failed := follow(sys, desc, t.States, t.stepLabel)
	switch {
	case failed == 0:
		return ReplayResult{Reason: "the first state is not an initial state of the current model"}
	case failed > 0:
		return ReplayResult{Steps: failed - 1, Reason: fmt.Sprintf("diverged at step %d: %q is not enabled or leads elsewhere", failed, t.stepLabel(failed))}
	}
	for i, step := range steps {
		if k, ok := t.States[i+1]["#meta"].(map[string]any)["kind"]; ok && k != step.Kind.String() {
			return ReplayResult{Steps: i, Reason: fmt.Sprintf("diverged at step %d: %q is a %s step, not %v", i+1, t.stepLabel(i+1), step.Kind, k)}
		}
	}
	if t.Vars != nil && !sameVars(t.Vars, states[0], desc) {
		return ReplayResult{Reason: fmt.Sprintf("the trace's \"vars\" %v are not the model's variables", t.Vars)}
	}
	cur := states[len(states)-1]
	n := len(t.States) - 1
	switch t.Meta.Kind {
	case model.Eventually:
		if reason := replayLasso(sys, t, states, steps); reason != "" {
			return ReplayResult{Steps: n, Reason: reason}
		}
		return ReplayResult{Reproduced: true, Steps: n}
	case model.NoDeadlock:
		if deadlocked(sys, cur) {
			return ReplayResult{Reproduced: true, Steps: n}
		}
		return ReplayResult{Steps: n, Reason: "the last state is no longer a deadlock"}
	default:
		for _, iv := range sys.Invariants() {
			if iv.Name != t.Meta.Property {
				continue
			}
			if iv.Holds(cur) == (iv.Expect == model.Sometimes) {
				return ReplayResult{Reproduced: true, Steps: n}
			}
			if iv.Expect == model.Sometimes {
				return ReplayResult{Steps: n, Reason: fmt.Sprintf("the last state no longer satisfies %s", iv.Name)}
			}
			return ReplayResult{Steps: n, Reason: fmt.Sprintf("the last state no longer violates %s", iv.Name)}
		}
		return ReplayResult{Steps: n, Reason: fmt.Sprintf("the model has no invariant %q", t.Meta.Property)}
	}
}

// checkProperty checks that the trace's property is one sys has, of the
// trace's kind: an invariant of sys, deadlock freedom (only for a deadlock
// trace), or sys's liveness property (only for a lasso). Replay then
// re-evaluates exactly that property on the replayed states.
func checkProperty(sys model.System, t *ITFTrace) error {
	p := t.Meta.Property
	switch t.Meta.Kind {
	case model.NoDeadlock:
		if p != Deadlock {
			return fmt.Errorf("a deadlock trace violates %s, not %q", Deadlock, p)
		}
		if _, ok := sys.(model.WorkPending); !ok {
			return fmt.Errorf("the model has no deadlock check (no pending work)")
		}
		return nil
	case model.Eventually:
		name, err := livenessProperty(sys)
		if err != nil {
			return err
		}
		if p != name {
			return fmt.Errorf("the model's liveness property is %s, not %q", name, p)
		}
		return nil
	case model.Always, model.Sometimes:
		what := map[model.Expectation]string{model.Always: "invariant", model.Sometimes: "sometimes property"}[t.Meta.Kind]
		var names []string
		for _, iv := range sys.Invariants() {
			if iv.Expect != t.Meta.Kind {
				continue
			}
			if iv.Name == p {
				return nil
			}
			names = append(names, iv.Name)
		}
		return fmt.Errorf("the model has no %s %q (it has: %s)", what, p, strings.Join(names, ", "))
	}
	return fmt.Errorf("unknown violation kind %q", kindWord(t.Meta.Kind))
}

// sameVars reports whether vars are exactly the variables of s's ITF form.
func sameVars(vars []string, s model.State, desc model.Describer) bool {
	m := desc.ITF(s)
	if len(m) != len(vars) {
		return false
	}
	for _, v := range vars {
		if _, ok := m[v]; !ok {
			return false
		}
	}
	return true
}

// ReplayReader reads an ITF trace written by mxcheck, rebuilds the system it
// names through lookup (a spec registry) and replays it. An error means the
// trace is malformed or names an unknown spec or an impossible
// configuration.
func ReplayReader(r io.Reader, lookup func(name string) *model.Spec) (ReplayResult, error) {
	t, err := ReadITF(r)
	if err != nil {
		return ReplayResult{}, err
	}
	spec := lookup(t.Meta.Spec)
	if spec == nil {
		return ReplayResult{}, fmt.Errorf("unknown spec %q", t.Meta.Spec)
	}
	sys, _, err := spec.Compile(t.Meta.Params)
	if err != nil {
		return ReplayResult{}, err
	}
	if err := checkProperty(sys, t); err != nil {
		return ReplayResult{}, err
	}
	return Replay(sys, t), nil
}
