// Package explore searches the state space of a model.System.
//
// A search is configured once with Options, validated by New, and ends in one
// of three verdicts: Verified (every property holds on every reachable state),
// Violated (some property fails; the Result carries a counterexample trace)
// or Incomplete (a limit stopped the search before it finished). A violation
// is a result, not an error; an error means the checker could not do its job.
//
// States are deduplicated by the 64-bit fingerprint of their canonical key
// (model.Fingerprint) in a sharded open-addressing set; each distinct state
// keeps a parent link (8 bytes) from which any trace is rebuilt by replaying
// the model. BFS (the default) finds shortest counterexamples; DFS uses less
// memory for its frontier. Both visit the same set of states.
//
// Results are deterministic: the same System and Options give the same
// verdict, counts and traces on every run (wall-clock figures aside).
package explore
