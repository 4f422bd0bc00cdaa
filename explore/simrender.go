package explore

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteSimText renders a simulation for a person: the minimised violation
// (with how to repeat its run), then how the runs ended, their lengths,
// steps per class, per-action coverage and the outcome. Elapsed time and
// rates are the only lines that vary between two runs of one seed.
func WriteSimText(w io.Writer, r *SimResult) error {
	var b strings.Builder
	if v := r.Violation; v != nil {
		fmt.Fprintf(&b, "run %d (seed %d) reached a violation after %d steps; minimised to %d steps (greedy deletion: %d; bounded BFS: %s)\n",
			v.Run, v.Seed, v.Original, v.Violation.Trace.Len(), v.Greedy, v.BFS)
		writeViolation(&b, v.Violation)
	}
	fmt.Fprintf(&b, "runs: %d  steps: %d  ends:", r.Runs, r.Steps)
	for _, e := range []string{endViolation, endTerminated, endDepth} {
		fmt.Fprintf(&b, " %s=%d", e, r.Ends[e])
	}
	b.WriteByte('\n')
	fmt.Fprintf(&b, "run length: min %d  mean %.1f  max %d\n", r.MinLen, r.MeanLen, r.MaxLen)
	b.WriteString("steps per class:")
	for _, c := range ClassNames {
		fmt.Fprintf(&b, " %s=%d", c, r.Classes[c])
	}
	b.WriteByte('\n')
	b.WriteString("coverage (steps per action):\n")
	width := 0
	for _, a := range r.Coverage {
		width = max(width, len(a.Name))
	}
	for _, a := range r.Coverage {
		fmt.Fprintf(&b, "  %-*s  %d\n", width, a.Name, a.Count)
	}
	if len(r.Never) > 0 {
		fmt.Fprintf(&b, "never taken: %s (a dead action is suspicious)\n", strings.Join(r.Never, ", "))
	}
	writeSimWitnesses(&b, r)
	switch r.Outcome {
	case SimViolated:
		fmt.Fprintf(&b, "outcome: VIOLATED (reproduce with --runs 1 --seed %d)\n", r.Violation.Seed)
	case SimIncomplete:
		fmt.Fprintf(&b, "outcome: INCOMPLETE (stopped by %s after %d runs; no violation found in them, nothing is proven)\n", r.Limit, r.Runs)
	default:
		until := ""
		if r.Limit != "" {
			until = ", until the " + r.Limit
		}
		fmt.Fprintf(&b, "outcome: no violation found in %d runs%s (random walks prove nothing)\n", r.Runs, until)
	}
	if el := r.Elapsed.Seconds(); el > 0 {
		fmt.Fprintf(&b, "time: %.2fs  runs/s: %.1f  steps/s: %.0f", el, float64(r.Runs)/el, float64(r.Steps)/el)
		if r.Violation != nil {
			fmt.Fprintf(&b, "  minimisation: %.2fs", r.MinimizeElapsed.Seconds())
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSimJSON renders r as indented JSON.
func WriteSimJSON(w io.Writer, r *SimResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
