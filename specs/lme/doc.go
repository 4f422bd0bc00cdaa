// Package lme is the local mutual exclusion algorithm of Daymude, Richa and
// Scheideler, "Local Mutual Exclusion for Dynamic, Anonymous, Bounded Memory
// Message Passing Systems" (seed 000: §2 model, Table 1, Algorithms 1–3),
// over a time-varying graph whose edges a bounded adversary connects and
// disconnects.
//
// # Algorithm
//
// Anonymous nodes with Δ ports each plus the self-port 0. LOCK (InitLock)
// sets L ← N[u] and sends prepare() to L; a participant answers ready() or,
// when its competition is closed (phase = COMPETE), puts the initiator on
// hold (H). With every ready() in (CheckStart) the initiator draws a
// priority p ∈ {0..K−1} (ctx.Choose, a probabilistic branch) and sends
// request-lock(p) to L. A participant promotes applicants (A) to candidates
// (C) as their requests arrive and, once |C| = |P| (CheckPriorities),
// answers win(TRUE) to the unique highest priority if it is unlocked and
// win(FALSE) to every other candidate. An initiator with every win() in
// (CheckWin) retries on any FALSE, else moves to WIN and sends set-lock();
// with every ack-lock() in (CheckDone) it is LOCKED. UNLOCK (InitUnlock)
// sends release-lock() and waits for ack-unlock() (CheckUnlocked). Every
// action first runs the CLEANUP helper on its snapshot of the disconnection
// set D (ReceiveSetLock after setting lock, as in the pseudocode); the
// Cleanup action runs it alone when phase ≠ ⊥ or state = UNLOCK. Action
// names are the paper's.
//
// # Model
//
//   - Node state: exactly the variables of Table 1 as bitsets over ports
//     (W and P as sets of pairs: W = two bitsets, P = a bitset of
//     priorities per port), plus the ghost Persist (ports connected since
//     InitLock, maintained from every action's D snapshot) and Decided (used
//     only by the late-joiners-lose repair; always false in the published
//     algorithm). A node encodes to 11 bytes plus one per port holding a
//     priority: 11..12+Δ bytes (mxcheck prints this as a note).
//   - Channels are bags, self-messages included, delivered by ordinary
//     receive actions. Disconnecting an edge loses every message on it, both
//     ways, and adds the port to both endpoints' D; D is snapshot at the start
//     of the node's next action and reset (engine). A connect may use any two
//     nodes' free ports (E is complete) and, unless --reuse-ports, refuses a
//     port still in its owner's D (footnote 1).
//   - Environment: InitLock is the LOCK call, at most --locks times per node,
//     and only when state = ⊥; InitUnlock is the UNLOCK call, when LOCKED.
//   - Pending work (for deadlock): state ≠ ⊥ or phase ≠ ⊥.
//
// # Assumptions where the text is silent or garbled
//
//   - CLEANUP lines 28–31 all belong under `if C = ∅` (DESIGN.md; Lemma 9
//     relies on it).
//   - §2.2 writes the lock set as {v ∈ N(u) : lock(v) = ℓ_u(v)}; lock(v) is a
//     port of v, so we read ℓ_v(u): v is locked by u.
//   - The application calls LOCK only when the previous LOCK/UNLOCK has
//     finished (state = ⊥). A LOCK call with state ≠ ⊥ would be an action
//     execution that consumes D without running CLEANUP.
//   - "Unique highest p" ranges over the pairs of P; a port with two pairs
//     counts twice (sets of pairs, as Table 1 says).
//   - The guards CheckStart, CheckPriorities, CheckWin, CheckDone and
//     CheckUnlocked are evaluated before the CLEANUP they call.
//   - Lemma 4's graph 𝒟_i: a message in transit counts as sent ("u has not
//     yet sent a request-lock() in response to the latest win()": a win() in
//     transit or in W; "v has not yet sent a win() in response to the latest
//     request-lock()": a request-lock() in transit or in P). The proof's
//     CheckStart and CheckPriorities cases read it this way.
//
// # Properties
//
// mutual-exclusion (§2.2 lock sets pairwise disjoint; true by construction
// on a consistent topology, as the paper says), lock-validity, lock-stability,
// persistent-neighbourhood (checked in every state where u is LOCKED, from the
// state CheckDone produces until InitUnlock), two-messages-per-edge (both
// directions; the self-port counts as an edge), dependency-graph-acyclic
// (bitset check, cross-tested against github.com/dominikbraun/graph; the
// cycle is explained and the graph written as DOT), and no-deadlock.
//
// # Findings
//
// The published algorithm is not deadlock-free, and Lemma 4 does not hold:
//
//   - Competition deadlock (2 nodes, static path, one LOCK each; 20 steps).
//     A participant decides a trial as soon as |C| = |P|, while an
//     applicant's request-lock() may still be in transit. When it arrives
//     the applicant joins C for the next trial, which needs a new
//     request-lock() from the winner of the previous one; that winner waits
//     for the late applicant's participant, which waits likewise. Lemma 4's
//     CheckPriorities case assumes every node that has sent a request is
//     already in C. Repair: variant late-joiners-lose.
//   - CheckDone deadlock (2 nodes, one disconnect). A node in WIN whose own
//     set-lock() emptied C (phase ⊥) has no enabled action once the
//     ack-lock() of a disconnected neighbour is lost: the Cleanup action
//     needs phase ≠ ⊥ or state = UNLOCK (Lemma 3's "analogous argument"
//     fails for CheckDone). Repair: variant cleanup-in-win.
//
// Variant repaired applies both; it is deadlock-free on every configuration
// we ran, and the safety invariants hold, but dependency-graph-acyclic still
// fails: in transit requests make 𝒟_i cyclic for a moment, although with
// the repair they are answered on arrival and no longer block.
//
// # Mutants (--mutant)
//
// cleanup-no-ready (a), win-while-locked (b), setlock-keeps-candidate (c),
// reuse-ports (d, same as --reuse-ports) and admit-while-competing (e). See
// lme_test.go for the property that catches each; (e) changes no verdict.
//
// # Code
//
// actions.go is the published action table (Algorithms 1–3) with the
// CLEANUP helper, free of variant branches. variants.go holds the variants
// and mutants, each named once: replacement actions of the same name, and
// edits that wrap an action or the CLEANUP helper (the algorithm value's
// cleanup field; cleanup-no-ready replaces it, late-joiners-lose wraps it).
// Build applies the mutant first and the variant on top of it, so every
// mutant composes with every variant (the tests run mutants on faithful and
// on repaired).
package lme
