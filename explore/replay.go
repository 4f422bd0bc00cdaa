package explore

import (
	"fmt"
	"io"

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
	// Property is the stored violated property.
	Property string
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
	return r
}

func replay(sys model.System, t *ITFTrace) ReplayResult {
	desc, ok := sys.(model.Describer)
	if !ok {
		return ReplayResult{Reason: "the system cannot describe its states"}
	}
	states, steps, failed := follow(sys, desc, t.States, t.stepLabel)
	switch {
	case failed == 0:
		return ReplayResult{Reason: "the first state is not an initial state of the current model"}
	case failed > 0:
		return ReplayResult{Steps: failed - 1, Reason: fmt.Sprintf("diverged at step %d: %q is not enabled or leads elsewhere", failed, t.stepLabel(failed))}
	}
	cur := states[len(states)-1]
	n := len(t.States) - 1
	switch t.Meta.Kind {
	case "liveness":
		if reason := replayLasso(sys, t, states, steps); reason != "" {
			return ReplayResult{Steps: n, Reason: reason}
		}
		return ReplayResult{Reproduced: true, Steps: n}
	case "deadlock":
		if deadlocked(sys, cur) {
			return ReplayResult{Reproduced: true, Steps: n}
		}
		return ReplayResult{Steps: n, Reason: "the last state is no longer a deadlock"}
	default:
		for _, iv := range sys.Invariants() {
			if iv.Name != t.Meta.Property {
				continue
			}
			if !iv.Holds(cur) {
				return ReplayResult{Reproduced: true, Steps: n}
			}
			return ReplayResult{Steps: n, Reason: fmt.Sprintf("the last state no longer violates %s", iv.Name)}
		}
		return ReplayResult{Steps: n, Reason: fmt.Sprintf("the model has no invariant %q", t.Meta.Property)}
	}
}

// deadlocked reports whether s has pending work and no step but stutters and
// adversary moves.
func deadlocked(sys model.System, s model.State) bool {
	w, ok := sys.(model.WorkPending)
	if !ok || !w.Pending(s) {
		return false
	}
	self := sys.AppendKey(nil, s)
	stuck := true
	sys.Successors(s, func(t model.Transition, next model.State) bool {
		if t.Kind != model.AdversaryStep && isProgress(t, self, sys.AppendKey(nil, next)) {
			stuck = false
			return false
		}
		return true
	})
	return stuck
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
	return Replay(sys, t), nil
}
