// Package tokenlock is the worked example of docs/writing-a-spec.md: a lock
// for two nodes built on one token. It is small on purpose; read it next to
// the tutorial.
//
// Node 0 starts with the token. A node that wants the CS and lacks the
// token sends REQUEST to the other node and waits; it enters once it holds
// the token. A node that receives REQUEST gives the token away at once when
// it is not using or waiting for it, and otherwise remembers to hand it over
// on exit.
//
// Assumptions: two nodes, reliable bag channels (any delivery order), no
// churn, no crash.
//
// Properties: mutual-exclusion (at most one node in the CS), no-deadlock,
// starvation-freedom (with --liveness).
//
// Mutants (--mutant): eager-enter enters without the token (caught by
// mutual-exclusion in 4 steps).
package tokenlock
