package explore

import (
	"errors"

	"github.com/mxcheck/mxcheck/model"
)

// ViolationOfITF re-executes the stored safety trace t (an invariant
// violation or a deadlock) against sys and returns it as a Violation with
// every step described, as a search reports it (WriteViolation prints it).
// An error says in one line why t does not execute; a liveness lasso or a
// witness is refused.
func ViolationOfITF(sys model.System, t *ITFTrace) (Violation, error) {
	if t.Meta.Kind != model.Always && t.Meta.Kind != model.NoDeadlock {
		return Violation{}, errors.New("only invariant and deadlock traces are rendered here")
	}
	states, steps, err := ExecuteITF(sys, t)
	if err != nil {
		return Violation{}, err
	}
	v := Violation{Property: t.Meta.Property, Kind: t.Meta.Kind, Trace: renderPath(sys, states, steps)}
	if ex, ok := sys.(model.Explainer); ok {
		last := states[len(states)-1]
		v.Explanation = ex.Explain(last, v.Property)
		v.DOT = ex.DOT(last, v.Property)
	}
	return v, nil
}
