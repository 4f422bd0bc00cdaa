package reduce

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// CheckIndependence verifies, on every state reachable in sys (at most
// maxStates of them; 0 means no limit), the independence that its actions
// declare (model.Action.Independent): for each pair of enabled steps of the
// same node where one is declared independent, each stays enabled after the
// other and both orders reach the same state. Partial-order reduction is
// only sound if this holds; every spec that declares independence runs this
// check in its tests. Steps are identified across states by their
// description (action, node, message, choices).
func CheckIndependence(sys model.System, maxStates int) error {
	ind, ok1 := sys.(model.Independence)
	desc, ok2 := sys.(model.Describer)
	if !ok1 || !ok2 {
		return fmt.Errorf("system lacks Independence or Describer")
	}
	type step struct {
		t     model.Transition
		label string
		next  model.State
	}
	steps := func(s model.State) []step {
		var out []step
		sys.Successors(s, func(t model.Transition, n model.State) bool {
			if t.Kind != model.AdversaryStep {
				out = append(out, step{t, desc.DescribeStep(s, t), sys.Clone(n)})
			}
			return true
		})
		return out
	}
	after := func(s model.State, label string) model.State {
		for _, x := range steps(s) {
			if x.label == label {
				return x.next
			}
		}
		return nil
	}
	return walk(sys, maxStates, func(s model.State) error {
		en := steps(s)
		for i, a := range en {
			if !ind.Independent(a.t) {
				continue
			}
			for j, b := range en {
				if i == j || a.t.Node != b.t.Node {
					continue
				}
				ab, ba := after(a.next, b.label), after(b.next, a.label)
				switch {
				case ab == nil:
					return fmt.Errorf("%q disables %q, yet %s is declared independent", a.label, b.label, a.label)
				case ba == nil:
					return fmt.Errorf("%q disables %q, yet %s is declared independent", b.label, a.label, a.label)
				case string(sys.AppendKey(nil, ab)) != string(sys.AppendKey(nil, ba)):
					return fmt.Errorf("%q and %q do not commute, yet %s is declared independent", a.label, b.label, a.label)
				}
			}
		}
		return nil
	})
}
