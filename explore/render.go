package explore

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
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
	verdict := strings.ToUpper(r.Verdict.String())
	if r.Verdict == Incomplete {
		verdict += " (stopped by " + r.Limit + "; nothing is proven)"
	}
	fmt.Fprintf(&b, "verdict: %s\n", verdict)
	writeStats(&b, r.Stats)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeViolation(b *strings.Builder, v Violation) {
	what := "invariant " + v.Property
	if v.Kind == "deadlock" {
		what = "deadlock (" + v.Property + ")"
	}
	fmt.Fprintf(b, "VIOLATION of %s after %d steps:\n", what, v.Trace.Len())
	writeTrace(b, v.Trace)
	if v.Kind == "deadlock" {
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
	fmt.Fprintf(b, "time: %.2fs  states/s: %.0f  seen-set: %.1f bytes/state  fingerprint collision probability: %.1e\n",
		s.Elapsed.Seconds(), s.Rate, s.BytesPerState, s.Collision)
}

// WriteJSON renders r as indented JSON.
func WriteJSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
