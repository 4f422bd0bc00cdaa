// Package model is the vocabulary of mxcheck.
//
// It has two layers. The first (system.go) is a generic transition system:
// initial states, the enabled transitions of a state with their successors,
// a canonical key for each state, and named invariants. Package explore sees
// only this layer, plus a few optional interfaces (Describer, Worker).
//
// The second layer is the message-passing protocol layer that specs are
// written in: value-typed node states and messages with a canonical binary
// encoding, guarded actions (local, receive-one-message, and environment
// calls), random choices, bag or FIFO channels, a topology of ports 0..Δ,
// membership lists, and an adversary bounded by budgets. Compile turns a
// Protocol plus a Config into a System of the first layer.
//
// Package model is pure: no goroutines, clocks, randomness, files or printing.
// Everything it produces is deterministic.
package model
