package explore

import (
	"fmt"
	"sort"

	"github.com/mxcheck/mxcheck/model"
)

// replayLasso checks a replayed liveness lasso on its own, without the
// state graph: the last state is the loop's first state; the starving node
// is hungry in every state of the loop; every fairness class enabled in all
// the loop's states is taken in the loop; and, with probabilistic choices,
// every draw taken in the loop has all its outcomes among the loop's states
// (so those states and steps form a fair end component). It returns "" when
// all hold, else the reason in one line. states[i] is the trace's state i
// and steps[i-1] the step into it.
func replayLasso(sys model.System, t *ITFTrace, states []model.State, steps []model.Transition) string {
	fair, ok := sys.(model.Fair)
	if !ok {
		return "the system declares no fairness (model.Fair)"
	}
	k, n := *t.Loop, len(states)-1
	key := func(s model.State) string { return string(sys.AppendKey(nil, s)) }
	if key(states[n]) != key(states[k]) {
		return fmt.Sprintf("the loop does not close: the last state is not state %d", k)
	}
	u, ok := nodeNamed(t.Meta.Node)
	if !ok {
		return fmt.Sprintf("the trace's starving node %q is not a node name", t.Meta.Node)
	}
	for i := k; i <= n; i++ {
		if !fair.Hungry(states[i]).Has(u) {
			return fmt.Sprintf("%s is not hungry in state %d, inside the loop", u, i)
		}
	}
	loop := states[k:n] // the loop's distinct positions
	if k == n {
		loop = states[n:]
	}
	taken := map[string]bool{}
	for j := k; j < n; j++ {
		if c, ok := fair.FairClass(nil, states[j], steps[j]); ok {
			taken[string(c)] = true
		}
	}
	var common map[string]model.Transition // class -> a step of it, from loop[0]
	for i, s := range loop {
		en := map[string]model.Transition{}
		sys.Successors(s, func(tr model.Transition, _ model.State) bool {
			if c, ok := fair.FairClass(nil, s, tr); ok {
				if _, dup := en[string(c)]; !dup {
					en[string(c)] = tr
				}
			}
			return true
		})
		if i == 0 {
			common = en
			continue
		}
		for c := range common {
			if _, ok := en[c]; !ok {
				delete(common, c)
			}
		}
	}
	var unfair []string
	for c := range common {
		if !taken[c] {
			unfair = append(unfair, c)
		}
	}
	if len(unfair) > 0 {
		sort.Strings(unfair)
		what := "a step"
		if desc, ok := sys.(model.Describer); ok {
			what = fmt.Sprintf("%q", desc.DescribeStep(loop[0], common[unfair[0]]))
		}
		return fmt.Sprintf("the loop is not fair: %s is enabled throughout it and its kind is never taken in it", what)
	}
	if t.Meta.Choices == "adversarial" {
		return ""
	}
	on := map[string]bool{}
	for _, s := range loop {
		on[key(s)] = true
	}
	for j := k; j < n; j++ {
		if steps[j].Choices == 0 {
			continue
		}
		draw := steps[j]
		draw.Choice = 0
		leaves := false
		sys.Successors(states[j], func(tr model.Transition, next model.State) bool {
			tr.Choice = 0
			if tr == draw && !on[key(next)] {
				leaves = true
				return false
			}
			return true
		})
		if leaves {
			return fmt.Sprintf("step %d is a random draw with an outcome outside the loop: with probabilistic choices the loop is no end component", j+1)
		}
	}
	return ""
}

// nodeNamed returns the node whose String is name.
func nodeNamed(name string) (model.NodeID, bool) {
	for i := 0; i < model.MaxNodes; i++ {
		if model.NodeID(i).String() == name {
			return model.NodeID(i), true
		}
	}
	return 0, false
}
