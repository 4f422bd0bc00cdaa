package explore

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Sometimes properties in random walks: a walk watches every sometimes
// property and notes the step at which each first holds; a simulation
// reports, per property, how many runs reached it and the earliest step.

// SimWitness is what a simulation saw of one sometimes property.
type SimWitness struct {
	Name string `json:"name"`
	// Runs is the number of runs that reached a state satisfying it.
	Runs int64 `json:"runs"`
	// FirstStep is the fewest steps after which a run reached it (0: an
	// initial state), and FirstRun that run's index (the lowest such
	// index); both -1 when no run reached it.
	FirstStep int `json:"first_step"`
	FirstRun  int `json:"first_run"`
}

// alwaysOnly returns the Always properties of props.
func alwaysOnly(props []model.Invariant) []model.Invariant {
	var out []model.Invariant
	for _, iv := range props {
		if iv.Expect == model.Always {
			out = append(out, iv)
		}
	}
	return out
}

// sometimesOf returns the Sometimes properties of sys, sorted by name.
func sometimesOf(sys model.System) []model.Invariant {
	var out []model.Invariant
	for _, iv := range sys.Invariants() {
		if iv.Expect == model.Sometimes {
			out = append(out, iv)
		}
	}
	return out
}

// witness notes the sometimes properties that first hold in s, reached
// after the walk's current number of steps.
func (w *walker) witness(r *walk, s model.State) {
	if len(w.some) == 0 {
		return
	}
	if r.reached == nil {
		r.reached = make([]int, len(w.some))
		for i := range r.reached {
			r.reached[i] = -1
		}
	}
	for i, iv := range w.some {
		if r.reached[i] < 0 && iv.Holds(s) {
			r.reached[i] = len(r.steps)
		}
	}
}

// mergeWitnesses adds walk r's witnesses to ws (one per sometimes
// property, in order); runs are merged in index order.
func mergeWitnesses(ws []SimWitness, r *walk) {
	for i, k := range r.reached {
		if k < 0 {
			continue
		}
		x := &ws[i]
		x.Runs++
		if x.FirstStep < 0 || k < x.FirstStep {
			x.FirstStep, x.FirstRun = k, r.run
		}
	}
}

// newSimWitnesses returns the empty witness table of sys.
func newSimWitnesses(sys model.System) []SimWitness {
	ws := []SimWitness{}
	for _, iv := range sometimesOf(sys) {
		ws = append(ws, SimWitness{Name: iv.Name, FirstStep: -1, FirstRun: -1})
	}
	return ws
}

// writeSimWitnesses renders one line per sometimes property, then those no
// run reached.
func writeSimWitnesses(b *strings.Builder, r *SimResult) {
	for _, x := range r.Witnesses {
		if x.Runs == 0 {
			fmt.Fprintf(b, "sometimes %s: reached in no run\n", x.Name)
			continue
		}
		fmt.Fprintf(b, "sometimes %s: reached in %d of %d runs, first after %d steps (run %d)\n", x.Name, x.Runs, r.Runs, x.FirstStep, x.FirstRun)
	}
	if len(r.Unreached) > 0 {
		fmt.Fprintf(b, "sometimes properties no run reached: %s (not a violation, but suspicious: nothing is proven either way)\n", strings.Join(r.Unreached, ", "))
	}
}

// writeWitnesses renders one line per witness of a search's result.
func writeWitnesses(b *strings.Builder, r *Result) {
	for _, w := range r.Witnesses {
		fmt.Fprintf(b, "sometimes %s: reached in %d steps\n", w.Property, w.Trace.Len())
	}
	for _, p := range r.Properties {
		if p.Status == NeverReached {
			fmt.Fprintf(b, "sometimes %s: UNREACHED: no reachable state satisfies it\n", p.Name)
		}
	}
}
