package explore

import (
	"encoding/json"
	"time"

	"github.com/mxcheck/mxcheck/model"
)

// Verdict is the outcome of a search.
type Verdict uint8

const (
	// Verified: the search finished and every property holds.
	Verified Verdict = iota
	// Violated: some property fails; see Result.Violations.
	Violated
	// Incomplete: a limit stopped the search first.
	Incomplete
	// Unreached: the search finished, no property is violated, but some
	// sometimes property (a reachability witness) holds in no reachable
	// state: the configuration never does what it was declared to do.
	Unreached
)

// String renders the verdict as "verified", "violated", "incomplete" or
// "unreached".
func (v Verdict) String() string {
	switch v {
	case Verified:
		return "verified"
	case Violated:
		return "violated"
	case Unreached:
		return "unreached"
	}
	return "incomplete"
}

// MarshalText renders the verdict for JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Deadlock is the property name of deadlock freedom.
const Deadlock = model.DeadlockProperty

// Status is what the search established about one property.
type Status string

const (
	// Holds: no reachable state violates the property.
	Holds Status = "holds"
	// Fails: a reachable state violates it.
	Fails Status = "violated"
	// Unknown: the search stopped before it could tell.
	Unknown Status = "unknown"
	// NeverReached: a complete search found no state satisfying a
	// sometimes property. (A sometimes property that is reached Holds.)
	NeverReached Status = "unreached"
)

// PropertyResult is the status of one property.
type PropertyResult struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	// Kind is what the property expects (JSON: "invariant", "sometimes",
	// "deadlock" or "liveness").
	Kind model.Expectation `json:"kind"`
}

// Violation is a property that fails, with the shortest trace found to it.
// A witness of a sometimes property (Result.Witnesses) has the same shape:
// the trace leads to the first state found that satisfies it.
type Violation struct {
	// Property is the violated property's name (Deadlock for deadlocks).
	Property string `json:"property"`
	// Kind is the property's expectation: Always (an invariant; JSON and
	// ITF "invariant"), NoDeadlock ("deadlock"), Eventually ("liveness"),
	// or, for a witness, Sometimes ("sometimes").
	Kind model.Expectation `json:"kind"`
	// Trace leads from an initial state to the violating state; for a
	// liveness violation it is a lasso (see Lasso).
	Trace Trace `json:"trace"`
	// Lasso, for liveness violations only, says where the trace's loop
	// starts and which node starves.
	Lasso *Lasso `json:"lasso,omitempty"`
	// Explanation says in one line why the last state violates the
	// property, when the system can tell (e.g. a dependency cycle).
	Explanation string `json:"explanation,omitempty"`
	// DOT is the graph the property inspects in the last state, when it
	// has one.
	DOT string `json:"dot,omitempty"`
}

// Trace is a path through the state space. Steps[0] is the initial state.
type Trace struct {
	Steps []TraceStep `json:"steps"`
	// Initial renders the first state in full.
	Initial []string `json:"initial"`
	// Final renders the last state in full.
	Final []string `json:"final"`
}

// Len is the number of transitions in the trace.
func (t Trace) Len() int { return len(t.Steps) - 1 }

// TraceStep is one state of a trace and the step that led to it.
type TraceStep struct {
	// Label names the step into this state ("" for the initial state).
	Label string `json:"label,omitempty"`
	// Kind is "node", "env" or "adversary" ("" for the initial state).
	Kind string `json:"kind,omitempty"`
	// Changes lists what the step changed.
	Changes []string `json:"changes,omitempty"`
	// State is the state in Informal Trace Format variables.
	State map[string]any `json:"state"`
}

// Stats are the figures of a search. Elapsed and Rate depend on the machine;
// the counts are deterministic.
type Stats struct {
	// Distinct is the number of distinct states found.
	Distinct int64 `json:"distinct"`
	// Transitions is the number of transitions generated.
	Transitions int64 `json:"transitions"`
	// Depth is the greatest depth reached (initial states have depth 0).
	Depth int `json:"depth"`
	// Elapsed is the wall-clock time of the search.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Rate is distinct states per second.
	Rate float64 `json:"states_per_second"`
	// SeenBytes is the memory of the seen-set and the parent links held
	// in memory.
	SeenBytes int64 `json:"seen_bytes"`
	// LinkDisk is the bytes of parent links spilled to a temporary file
	// (searches beyond 16.8M states).
	LinkDisk int64 `json:"link_disk_bytes,omitempty"`
	// QueueDisk is the bytes of BFS levels written to temporary files
	// (levels beyond Options.LevelInMemory states), over the whole search.
	QueueDisk int64 `json:"queue_disk_bytes,omitempty"`
	// BytesPerState is SeenBytes / Distinct.
	BytesPerState float64 `json:"bytes_per_state"`
	// AmpleStates is the number of states expanded with a partial-order
	// reduced (ample) set rather than fully.
	AmpleStates int64 `json:"ample_states,omitempty"`
	// SymmetryBounded is the number of states whose symmetry-reduced key
	// was not proven canonical (the canonical labelling hit
	// reduce.MaxKeysPerState): sound, but one orbit may then be counted
	// more than once, so Distinct is an upper bound on the orbits.
	SymmetryBounded int64 `json:"symmetry_bounded_states,omitempty"`
	// ShortenStates is the number of states a plain bounded BFS explored to
	// make counterexamples found under partial-order reduction shortest.
	ShortenStates int64 `json:"shorten_states,omitempty"`
	// Collision is the probability that two distinct states shared a
	// fingerprint, n(n-1)/2^(b+1) for n distinct states and b-bit
	// fingerprints, as TLC reports.
	Collision float64 `json:"collision_probability"`
	// Fingerprint is the width of the fingerprints in bits (64 or 128).
	Fingerprint int `json:"fingerprint_bits"`
	// Workers is the number of goroutines that ran the search.
	Workers int `json:"workers"`
}

// Result is the outcome of a search, as data; render it with WriteText or
// WriteJSON.
type Result struct {
	Verdict    Verdict          `json:"verdict"`
	Strategy   string           `json:"strategy"`
	Properties []PropertyResult `json:"properties"`
	// Violations holds one entry per violated property, in the order found.
	// Violated implies at least one.
	Violations []Violation `json:"violations,omitempty"`
	// Witnesses holds, for each sometimes property reached, the trace to
	// the first state found that satisfies it (shortest under BFS), in the
	// order found.
	Witnesses []Violation `json:"witnesses,omitempty"`
	// Limit names the limit that stopped an incomplete search.
	Limit string `json:"limit,omitempty"`
	// Exhausted is true when every reachable state was expanded: no limit
	// and no early stop at a violation. Only then are state counts
	// comparable across strategies.
	Exhausted bool  `json:"exhausted"`
	Stats     Stats `json:"stats"`
	// Warnings are things the user should know about the run that do not
	// change the verdict (e.g. no temporary file for BFS levels).
	Warnings []string `json:"warnings,omitempty"`
	// Spec and Params name the configuration checked; the CLI fills them.
	Spec   string            `json:"spec,omitempty"`
	Params map[string]string `json:"params,omitempty"`
	// Liveness holds the figures of the liveness pass, when it ran.
	Liveness *LivenessStats `json:"liveness,omitempty"`
	// Checkpoint describes the checkpoints written and the one resumed
	// from, when Options.Checkpoint or Options.Resume is set.
	Checkpoint *CheckpointStats `json:"checkpoint,omitempty"`
}

// MarshalJSON keeps Elapsed readable.
func (s Stats) MarshalJSON() ([]byte, error) {
	type plain Stats
	return json.Marshal(struct {
		plain
		Seconds float64 `json:"seconds"`
	}{plain(s), s.Elapsed.Seconds()})
}
