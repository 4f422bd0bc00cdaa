package explore

import (
	"errors"
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// follow re-executes a stored path: the initial state whose ITF rendering
// equals states[0], then for each i ≥ 1 the enabled step labelled label(i)
// that leads to a state whose ITF rendering equals states[i]. It returns the
// states and steps it matched (steps[i-1] leads to sts[i]) and the index of
// the first state it could not match, or -1 when all matched.
func follow(sys model.System, desc model.Describer, states []map[string]any, label func(i int) string) (sts []model.State, steps []model.Transition, failed int) {
	var cur model.State
	first := canonical(states[0])
	for _, s := range sys.Init() {
		if canonical(desc.ITF(s)) == first {
			cur = sys.Clone(s)
			break
		}
	}
	if cur == nil {
		return nil, nil, 0
	}
	sts = []model.State{cur}
	for i := 1; i < len(states); i++ {
		want, lab := canonical(states[i]), label(i)
		var next model.State
		var step model.Transition
		sys.Successors(cur, func(tr model.Transition, n model.State) bool {
			if desc.DescribeStep(cur, tr) == lab && canonical(desc.ITF(n)) == want {
				next, step = sys.Clone(n), tr
				return false
			}
			return true
		})
		if next == nil {
			return sts, steps, i
		}
		cur = next
		sts, steps = append(sts, next), append(steps, step)
	}
	return sts, steps, -1
}

// Execute re-runs trace t in sys and returns its states and the steps
// between them (steps[i] leads from states[i] to states[i+1]). The error
// says where t no longer executes.
func Execute(sys model.System, t Trace) ([]model.State, []model.Transition, error) {
	desc, ok := sys.(model.Describer)
	if !ok {
		return nil, nil, errors.New("the system cannot describe its states")
	}
	if len(t.Steps) == 0 {
		return nil, nil, errors.New("the trace has no states")
	}
	maps := make([]map[string]any, len(t.Steps))
	for i := range t.Steps {
		maps[i] = t.Steps[i].State
	}
	sts, steps, failed := follow(sys, desc, maps, func(i int) string { return t.Steps[i].Label })
	switch {
	case failed == 0:
		return nil, nil, errors.New("the first state is not an initial state")
	case failed > 0:
		return nil, nil, fmt.Errorf("diverged at step %d: %q is not enabled or leads elsewhere", failed, t.Steps[failed].Label)
	}
	return sts, steps, nil
}

// ExecuteITF is Execute for a stored ITF trace.
func ExecuteITF(sys model.System, t *ITFTrace) ([]model.State, []model.Transition, error) {
	desc, ok := sys.(model.Describer)
	if !ok {
		return nil, nil, errors.New("the system cannot describe its states")
	}
	if len(t.States) == 0 {
		return nil, nil, errors.New("the trace has no states")
	}
	sts, steps, failed := follow(sys, desc, t.States, t.stepLabel)
	switch {
	case failed == 0:
		return nil, nil, errors.New("the first state is not an initial state of the current model")
	case failed > 0:
		return nil, nil, fmt.Errorf("diverged at step %d: %q is not enabled or leads elsewhere", failed, t.stepLabel(failed))
	}
	return sts, steps, nil
}
