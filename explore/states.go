package explore

import (
	"errors"
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// States re-executes trace t against sys and returns its states and the
// steps between them (steps[i-1] leads from states[i-1] to states[i]), for
// renderers that need the system's own states rather than their ITF form.
// Unlike Replay it does not check the stored violation. The error says at
// which step the trace leaves the current model.
func States(sys model.System, t *ITFTrace) ([]model.State, []model.Transition, error) {
	desc, ok := sys.(model.Describer)
	if !ok {
		return nil, nil, errors.New("the system cannot describe its states")
	}
	if len(t.States) == 0 {
		return nil, nil, errors.New("trace has no states")
	}
	var cur model.State
	for _, s := range sys.Init() {
		if canonical(desc.ITF(s)) == canonical(t.States[0]) {
			cur = sys.Clone(s)
			break
		}
	}
	if cur == nil {
		return nil, nil, errors.New("the first state is not an initial state of the current model")
	}
	states := []model.State{cur}
	var steps []model.Transition
	for i := 1; i < len(t.States); i++ {
		want, label := canonical(t.States[i]), t.stepLabel(i)
		var next model.State
		var step model.Transition
		sys.Successors(cur, func(tr model.Transition, n model.State) bool {
			if desc.DescribeStep(cur, tr) == label && canonical(desc.ITF(n)) == want {
				next, step = sys.Clone(n), tr
				return false
			}
			return true
		})
		if next == nil {
			return nil, nil, fmt.Errorf("diverged at step %d: %q is not enabled or leads elsewhere", i, label)
		}
		cur = next
		states, steps = append(states, next), append(steps, step)
	}
	return states, steps, nil
}
