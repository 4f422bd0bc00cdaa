// Package ra is the Ricart–Agrawala mutual exclusion algorithm as seed 003
// (Camera, §III-A) describes it, run over membership lists that churn.
//
// A node wishing to enter the CS sends REQUEST(ts) to every node in its
// membership list, ts being its Lamport timestamp, and enters once every node
// it asked has answered OK. A node receiving REQUEST(ts) from j defers it when
// it is in the CS, or when it is waiting with a smaller (timestamp, id);
// otherwise it answers OK at once. On exit it answers OK to every deferred
// request.
//
// Granularity (DESIGN.md): requesting is one environment step that also sends
// every REQUEST; entering (all OKs in) is a node step; exiting is one
// environment step that also sends the deferred OKs; receiving a message
// handles it completely, replies included.
//
// Assumptions where the paper is silent, following Ricart and Agrawala
// (CACM 1981):
//   - Timestamps: a node keeps the highest sequence number it has seen in a
//     REQUEST (HSN) and stamps its own request HSN+1. OK carries nothing.
//   - A node's own request timestamp is cleared on exit: the protocol never
//     reads it outside a request, and keeping it would only split states.
//   - A node waits for OKs from exactly the nodes it asked; a membership
//     entry removed while it waits does not release it from that OK.
//   - A node answers a REQUEST from a node outside its own membership list:
//     the list decides only whom it asks.
//   - Channels are bags (any delivery order); no message is lost; no node
//     crashes.
//
// Configuration: --nodes N, --requests R per node, --missing I:J (node I's
// list lacks node J; every list contains its owner), --churn K (the
// adversary may remove up to K membership entries while the protocol runs).
//
// Properties: mutual-exclusion (at most one node in the CS) and no-deadlock.
//
// Mutants (--mutant): never-defer answers every REQUEST at once
// (caught by mutual-exclusion); defer-forever drops the deferred requests on
// exit instead of answering them (caught as a deadlock).
package ra
