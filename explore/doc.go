// Package explore searches the state space of a model.System.
//
// Usage:
//
//	sys, _, err := spec.Compile(model.Values{"nodes": "3"})
//	if err != nil { ... }                    // a bad configuration
//	c, err := explore.New(sys, explore.Options{Continue: true})
//	if err != nil { ... }                    // contradictory options
//	r := c.Run()
//	explore.WriteText(os.Stdout, r)          // traces, properties, verdict
//	switch r.Verdict { case explore.Verified, explore.Violated, explore.Incomplete, explore.Unreached: }
//
// NewITF and ReadITF write and read counterexamples as ITF JSON; Replay
// re-runs one against the current model.
//
// A search is configured once with Options, validated by New, and ends in one
// of four verdicts, in this precedence: Violated (some property fails; the
// Result carries a counterexample trace), Incomplete (a limit stopped the
// search before it finished), Unreached (nothing fails, but some sometimes
// property holds in no reachable state), Verified (every invariant holds on
// every reachable state and every sometimes property on some). A violation
// is a result, not an error; an error means the checker could not do its job.
//
// Properties are data (props.go): each state property of the system is an
// invariant (model.Always) or a reachability witness (model.Sometimes); a
// propTracker evaluates them on each new state and keeps the first event of
// each (a violation, or a witness, whose trace Result.Witnesses holds).
// Deadlock freedom (model.NoDeadlock) and liveness (model.Eventually) are
// the two other expectations; Violation.Kind and trace files name each
// (JSON "invariant", "sometimes", "deadlock", "liveness").
//
// Every search expands states through one core (expand.go): for a state it
// yields each successor with its ordinal and fingerprint, decides deadlock
// (the progress test) and evaluates a new state's properties; it enumerates
// through the system's per-goroutine handle (model.Handles), so the hot path
// neither locks nor allocates. States are deduplicated by the 64-bit (or,
// with Options.Fingerprint, 128-bit) fingerprint of their canonical key in a
// sharded open-addressing set (seen.go, 9–12.5 bytes a state); each distinct
// state keeps a 5-byte parent link (links.go) from which any trace is
// rebuilt by replaying the model (nthSuccessor). BFS (the default, bfs.go)
// finds shortest counterexamples; with several workers in one process they
// share a seen-set with a lock per shard (seen_shared.go), and a
// distributed search is owner-computes (dist.go); with any number of
// workers (Options.Workers) its result — counts, verdicts and traces —
// does not depend on the number. DFS (dfs.go) uses less memory for its
// frontier; with several workers it is the parallel DFS (pdfs.go): the same
// states and verdicts when run to the end. All visit the same set of states.
// The BFS can checkpoint itself at level boundaries and resume from a
// checkpoint with the uninterrupted run's result (Options.Checkpoint,
// Options.Resume; checkpoint*.go, one file per partition).
//
// Reductions: symmetry (Options.Symmetry) fingerprints states by a canonical
// key under node and port renamings (reduce.Canonical) while expanding the
// actual states, so traces are real executions; partial-order reduction
// (Options.POR, por.go) expands a node's steps alone when they are
// invisible, untouchable by the adversary and declared independent, with a
// cycle proviso valid for every search order, and re-searches plainly to
// keep BFS counterexamples shortest.
//
// Liveness (Options.Liveness) runs after a search that expanded every
// reachable state. It stores the full state graph (no reductions) in flat
// arrays — recorded by the BFS as it expands each state (liverecord.go), or
// built by a second exploration (buildGraph, livegraph.go) after a DFS, under
// symmetry or with a depth cut — and, for each node u, decomposes the states where u is hungry into
// strongly connected components (an iterative Tarjan; scc.go). A component
// is a counterexample when it is weakly fair: every fairness class
// (model.Fair) enabled in all its states has a step inside it; a single
// state counts too, since the system may stutter there when no fair step is
// enabled. With probabilistic choices (the default) the components are
// refined into maximal end components first: a random draw with an outcome
// outside its component is dropped, and SCCs are recomputed until stable,
// so a counterexample is a fair end component, where u starves with
// positive probability. The counterexample is a lasso (Violation.Lasso):
// the shortest stem, then a loop that visits enough of the component to be
// checked on its own by Replay.
//
// Simulation (Simulate, simulate.go and walk.go) is for configurations too
// big to exhaust: seeded random walks, each with its own weights across
// step classes (node action, delivery, env call, adversary move), checking
// invariants and deadlock with the same semantics as the searches
// (isProgress). Its outcome is never Verified. Violations are minimised
// (Minimize, minimize.go): greedy deletion to a fixpoint, then a BFS
// bounded to shorter traces.
//
// Swarm members (Checker.CheckSwarm, swarm.go) are independent sequential
// DFS runs of one configuration, each in its own successor order (member
// 0: the DFS's), with exact or bitstate storage; they find bugs and prove
// nothing (a bitstate member is never Verified).
// Limits (Options.Timeout, MemoryMB, Interrupt; limits.go) reach every
// phase the same way: the search, the canonical labelling under symmetry,
// the parallel workers inside a level, the liveness graph build and its
// analysis. A stopped phase makes the verdict Incomplete, never Verified.
// Checker.Check turns a panic in the system's own code into a *SpecPanic
// naming the action or invariant and carrying the trace to the state.
//
// Replay (replay.go, itf.go, itf_strict.go) reads a trace strictly (one
// JSON document, no repeated or re-cased keys, at most MaxITFBytes) and
// re-evaluates the property it names, of the kind it names, on the states
// it replays.
//
// Results are deterministic: the same System and Options give the same
// verdict, counts and traces on every run (wall-clock figures aside).
package explore
