// Package model is the vocabulary of mxcheck.
//
// It has two layers. The first (system.go) is a generic transition system:
// initial states, the enabled transitions of a state with their successors,
// a canonical key for each state, and named state properties, each with its
// Expectation: an invariant (Always: every reachable state satisfies it) or
// a reachability witness (Sometimes: some reachable state does, so a
// configuration in which nothing happens cannot pass as verified); deadlock
// freedom (NoDeadlock) and liveness (Eventually) come from the capabilities
// below. Package explore sees only this layer. A System may offer optional capabilities, each an
// interface found by a type assertion:
//
//   - WorkPending: which states still have unfinished work (deadlock
//     detection);
//   - Describer: readable step names, per-step changes, state dumps, ITF;
//   - Explainer: why a state violates an invariant, and its graph as DOT;
//   - Noter: lines to print before a search;
//   - Fair: hungry nodes and weak-fairness classes (liveness);
//   - Independence: what partial-order reduction needs (touchable,
//     visible, declared independent steps);
//   - SymmetryProvider and Symmetric: interchangeable nodes (and ports)
//     for symmetry reduction, refined by NodeRelations and PortLinker;
//   - Codec: byte-for-byte state encoding (BFS levels, batches between
//     the BFS's workers, levels on disk);
//   - Handles: per-goroutine handles that enumerate successors and clone
//     states with their own scratch (no lock, no pool): a Machine's search
//     goes through them;
//   - ActionNamer: action names and which steps are deliveries
//     (simulation's coverage and step weights);
//   - CriticalSection: who holds each lock (CS histories for porcupine);
//   - Picturer: messages in transit with their endpoints, nodes in the CS
//     (trace pages).
//
// The second layer is the message-passing protocol layer that specs are
// written in: value-typed node states and messages with a canonical binary
// encoding (Value, Message), guarded actions (Action: local, receive one
// message, request-CS, exit-CS), random choices (Ctx.Choose), bag or FIFO
// channels, a topology of ports 0..Δ, membership lists, and an adversary
// bounded by budgets (Config, Budget), link-level notifications
// (Notifications: LinkUp while static or moving, LinkDown, the Moved hook
// for ghosts; delivered with the move, or later as messages with
// AsyncLinks) and failure locality (World.Distance, Protocol.Excused).
// Compile turns a Protocol plus a
// Config into a System of the first layer that offers every capability the
// protocol declares.
//
// A spec is registered as a Spec: its parameters, declared once as typed
// values (IntParam, BoolParam, EnumParam, PairsParam, TopologyParam and the
// shared NodesParam, RequestsParam, MissingParam, ChurnParam), and a Build
// function from the checked Args to a System. Spec.Compile binds and builds
// in one call. Variants and mutants are Variants tables of replacement
// actions applied with Apply, so the faithful action table has no variant
// branches. docs/writing-a-spec.md walks through a complete spec.
//
// Package model is pure: no goroutines, clocks, randomness, files or printing.
// Everything it produces is deterministic.
package model
