package explore

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// WriteText renders r for a person: each violation's trace (numbered steps,
// what each changed, the violating state), the status of every property,
// the verdict and the figures. It returns the first write error.
func WriteText(w io.Writer, r *Result) error {
	var b strings.Builder
	for _, v := range r.Violations {
		writeViolation(&b, v)
	}
	b.WriteString("properties:\n")
	width := 0
	for _, p := range r.Properties {
		width = max(width, len(p.Name))
	}
	for _, p := range r.Properties {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, p.Name, p.Status)
	}
	writeWitnesses(&b, r) // sometimes.go
	verdict := strings.ToUpper(r.Verdict.String())
	switch r.Verdict {
	case Incomplete:
		verdict += " (stopped by " + r.Limit + "; nothing is proven)"
	case Unreached:
		verdict += " (no property is violated, but a sometimes property holds in no reachable state)"
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	fmt.Fprintf(&b, "verdict: %s\n", verdict)
	writeStats(&b, r.Stats)
	if r.Liveness != nil {
		writeLivenessStats(&b, r.Liveness)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteViolation renders one violation for a person: its numbered trace
// with what each step changed, and the violating state (for a lasso, the
// stem and the loop). It returns the write error.
func WriteViolation(w io.Writer, v Violation) error {
	var b strings.Builder
	writeViolation(&b, v)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeViolation(b *strings.Builder, v Violation) {
	if v.Kind == model.Eventually {
		writeLasso(b, v)
		return
	}
	what := "invariant " + v.Property
	if v.Kind == model.NoDeadlock {
		what = "deadlock (" + v.Property + ")"
	}
	fmt.Fprintf(b, "VIOLATION of %s after %d steps:\n", what, v.Trace.Len())
	writeTrace(b, v.Trace)
	if v.Kind == model.NoDeadlock {
		b.WriteString("deadlocked state (work pending, no step but stutters and adversary moves):\n")
	} else {
		fmt.Fprintf(b, "state that breaks %s:\n", v.Property)
	}
	for _, line := range v.Trace.Final {
		fmt.Fprintf(b, "    %s\n", line)
	}
	if v.Explanation != "" {
		fmt.Fprintf(b, "why: %s\n", v.Explanation)
	}
	b.WriteByte('\n')
}

func writeTrace(b *strings.Builder, t Trace) {
	b.WriteString("  0. initial state\n")
	for _, line := range t.Initial {
		fmt.Fprintf(b, "       %s\n", line)
	}
	for i, s := range t.Steps[1:] {
		fmt.Fprintf(b, "%3d. %s\n", i+1, s.Label)
		for _, c := range s.Changes {
			fmt.Fprintf(b, "       %s\n", c)
		}
	}
}

func writeStats(b *strings.Builder, s Stats) {
	fmt.Fprintf(b, "distinct states: %d  transitions: %d  depth: %d\n", s.Distinct, s.Transitions, s.Depth)
	fmt.Fprintf(b, "time: %.2fs  workers: %d  states/s: %.0f  seen-set: %.1f bytes/state  %d-bit fingerprint collision probability: %.1e\n",
		s.Elapsed.Seconds(), s.Workers, s.Rate, s.BytesPerState, s.Fingerprint, s.Collision)
	if s.SymmetryBounded > 0 {
		fmt.Fprintf(b, "symmetry: %d states got a bounded, not provably canonical representative (sound; the distinct count may exceed the orbits)\n", s.SymmetryBounded)
	}
	if s.LinkDisk > 0 || s.QueueDisk > 0 {
		fmt.Fprintf(b, "spilled to disk: parent links %.1f MiB, BFS levels %.1f MiB\n", float64(s.LinkDisk)/(1<<20), float64(s.QueueDisk)/(1<<20))
	}
}

// WriteJSON renders r as indented JSON.
func WriteJSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// writeLasso renders a liveness counterexample: the stem, then the loop.
func writeLasso(b *strings.Builder, v Violation) {
	if v.Lasso == nil || len(v.Trace.Steps) == 0 {
		fmt.Fprintf(b, "VIOLATION of %s (liveness): %s\n\n", v.Property, v.Explanation)
		return
	}
	l, t := v.Lasso, v.Trace
	loop := t.Len() - l.Loop
	fmt.Fprintf(b, "VIOLATION of %s (liveness, %s choices): %s starves; stem of %d steps, loop of %d steps:\n",
		v.Property, l.Choices, l.Node, l.Loop, loop)
	b.WriteString("  0. initial state\n")
	for _, line := range t.Initial {
		fmt.Fprintf(b, "       %s\n", line)
	}
	for i, s := range t.Steps[1:] {
		if i == l.Loop {
			fmt.Fprintf(b, "     -- loop: steps %d..%d repeat forever --\n", l.Loop+1, t.Len())
		}
		fmt.Fprintf(b, "%3d. %s\n", i+1, s.Label)
		for _, c := range s.Changes {
			fmt.Fprintf(b, "       %s\n", c)
		}
	}
	if loop == 0 {
		b.WriteString("     -- loop: the system stays in this state forever --\n")
	} else {
		fmt.Fprintf(b, "     -- back to the state after step %d --\n", l.Loop)
	}
	fmt.Fprintf(b, "state where the loop starts (%s hungry):\n", l.Node)
	for _, line := range t.Final {
		fmt.Fprintf(b, "    %s\n", line)
	}
	if v.Explanation != "" {
		fmt.Fprintf(b, "why: %s\n", v.Explanation)
	}
	b.WriteByte('\n')
}

func writeLivenessStats(b *strings.Builder, l *LivenessStats) {
	fmt.Fprintf(b, "liveness (%s choices): graph of %d states, %d edges, %d fairness classes, %.1f MiB; %d states with a hungry node; %d SCC rounds; build %.2fs, analysis %.2fs\n",
		l.Choices, l.States, l.Edges, l.Classes, float64(l.GraphBytes)/(1<<20), l.HungryStates, l.Rounds, l.Build.Seconds(), l.Analysis.Seconds())
	if l.HungryStates == 0 {
		b.WriteString("note: no reachable state has a hungry node, so the liveness property holds vacuously\n")
	}
}
