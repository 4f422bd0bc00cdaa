// Package lmutin is l_i-LMUTIN, the generalized local l_i-mutual inclusion
// algorithm of Kamei and Kakugawa, "An Asynchronous Message-Passing
// Distributed Algorithm for the Generalized Local Critical Section
// Problem" (Algorithms 10(2):38, 2017; seed 002, §3, Algorithms 1–2).
//
// # Problem (§2.2)
//
// Processes P_0..P_{n-1} on a static undirected graph; N_i are P_i's
// neighbours. CS_i(C) is the set of processes of N_i ∪ {P_i} whose state is
// InCS in configuration C. Safety of the local l_i-mutual inclusion:
// l_i ≤ |CS_i(C)| for every P_i at any time (the (l_i, |N_i|+1) case of
// Definition 1). Liveness: every process changes between OutCS and InCS
// infinitely often.
//
// # Algorithm (Algorithm 2)
//
// Permission to be OutCS. Exit-Sequence: ts_i := ts_i + 1, nGrants_i := 0,
// ⟨Request, ts_i, P_i⟩ to N_i ∪ {P_i}, wait until nGrants_i = |N_i| + 1,
// state_i := OutCS. Entry-Sequence: state_i := InCS, ⟨Release, P_i⟩ to
// N_i ∪ {P_i}. P_i grants at most |N_i| − l_i + 1 exits at a time
// (grantedTo_i); a request with a smaller timestamp than the largest
// granted one preempts it (Preempt; an InCS holder answers Relinquish and
// gives up one grant). Actions keep the paper's names: ExitSequence (up to
// the `wait until`), ExitWaitUntil (the wait and state_i := OutCS),
// EntrySequence, ReceiveRequest, ReceiveGrant, ReceiveRelease,
// ReceivePreempt, ReceiveRelinquish.
//
// # Model
//
//   - Processes address each other by id; --topology gives the graph as
//     lme's flag does (path, ring, star, complete, or edges u.p-v.q; the
//     ports are ignored). Every message a handler sends is sent in that
//     handler's step.
//   - Channels: Section 2.1 (the system model) is lost in the extracted
//     text, so the paper's channel assumption is unknown. DESIGN.md makes
//     bags the default; --fifo makes every channel FIFO. The checker shows
//     that the algorithm needs FIFO: with bags a Request can overtake the
//     Release its sender sent before it, grantedTo_i then holds two items
//     of one process, the Release deletes both, and lk-safety fails
//     (counterexamples/lmutin/bag-overtaking.itf.json).
//   - Workload: §2.2's loop. ExitSequence is an application call, at most
//     --exits per process (ts_i grows by one per exit, so ts_i ≤ --exits and
//     the space is finite). EntrySequence never waits and the loop calls it
//     as soon as the process is OutCS: it is a local, weakly fair action,
//     not counted. A process that has spent its exits therefore ends InCS,
//     where it blocks nobody, and a state where some process still waits
//     with nothing enabled is a genuine deadlock.
//   - InCS and LockHolders (lock histories) are not declared: the property
//     is a lower bound per neighbourhood, not a lock.
//   - Pending (deadlock) and hungry (liveness "sequence-completion"): a
//     process in its exit sequence's wait.
//
// # Readings where the extracted text is garbled or silent
//
//   - Initial grantedTo_i. Algorithm 1 prints {(0, P_j ∈ CS_i(C_0))}. The
//     definition of the variable ("timestamps for the requests to P_j's
//     exiting the CS that P_i has been granted, but that P_j has not yet
//     released") and Entry-Sequence (an OutCS process releases its grant
//     on entering) say the processes of N_i ∪ {P_i} that are OutCS in C_0
//     hold the grants; Lemma 1's count (at most |N_i| + 1 − l_i grants)
//     needs that too. The default reads the definition; the variant
//     init-as-printed takes the printed set literally.
//   - The logical clock. The pseudocode advances ts_i only in
//     Exit-Sequence; Lemma 2's proof says "after P_j receives the Request
//     ... the value of (ts_j, P_j) exceeds the timestamp (ts_i, P_i)", which
//     needs a Lamport update on receipt. The default follows the
//     pseudocode; the variant lamport-clock adds ts_i := max(ts_i, ts_j) to
//     ReceiveRequest.
//   - Timestamps (ts, P) are ordered by ts, then by process id.
//   - Operations the pseudocode leaves undefined — deleteMin or max of an
//     empty set, a Relinquish for which "Delete (*, P_j) from grantedTo_i,
//     and let (ts_j, P_j) be the deleted item" deletes no item or several —
//     set the ghost bit Node.Undefined and skip the operations that need
//     the missing item (property well-defined); every deleted item goes
//     back to pendingReq_i.
//
// # Properties
//
//   - lk-safety: l_i ≤ |CS_i(C)| for every P_i (CS_i as §2.2 defines it).
//   - grant-bound: |grantedTo_i| ≤ |N_i| + 1 − l_i (what Lemma 1's proof
//     uses, and what the Cond in ReceiveRequest maintains).
//   - well-defined: no handler ran an undefined operation.
//   - message-bound (with --count-messages): the messages sent so far
//     (a ghost count of received messages, plus those in transit) are at
//     most Σ_i (|N_i|+1)(6·exits_i + 1): Lemma 3's 6(|N_i|+1) per exit
//     under contention (its Releases go out at the next entry), plus the
//     Releases of a first entry from C_0. It holds on the pinned
//     configurations and fails with 3 in place of 6.
//   - no-deadlock, and sequence-completion under weak fairness
//     (--liveness).
//
// # Findings
//
//   - A stale Preempt: the Preempt handler tests only state_i = InCS, so a
//     Preempt aimed at an exit that has completed (the process has
//     re-entered, or is exiting again) takes a grant the process no longer
//     or not yet holds. With FIFO channels on two processes this deadlocks
//     (nGrants_i never reaches |N_i|+1 although every neighbour granted)
//     and grantedTo_i exceeds its bound. The variant preempt-carries-ts
//     (the smallest repair found) puts the timestamp of the preempted grant
//     in the Preempt and relinquishes only while waiting in the exit
//     sequence of that timestamp; it is verified on the pinned FIFO
//     configurations. LKCS's preemptingNow_i[at] already records that
//     timestamp, though its Preempt does not carry it either.
//   - Bag channels: a Request overtakes the Release its sender sent
//     before it; grantedTo_i then holds two items of P_j and the late
//     Release (or a Relinquish) deletes both, so P_i grants a permission
//     P_j still holds and lk-safety breaks (26 steps on two processes, 31
//     on the 3-path). The algorithm needs FIFO channels. The variant
//     release-carries-ts (bagrepair.go) is the smallest repair found:
//     preempt-carries-ts, a Release carries the timestamp of the exit
//     whose grant it gives back and a Relinquish that of the Preempt it
//     answers, each deletes only (ts, P_j), and preemptingNow_i keeps the
//     preempted grant's timestamp (as LKCS's does). The timestamp in
//     preemptingNow_i is needed: without it a Release of P_j's older
//     grant ends the preemption of its newer one, a second Preempt takes
//     the same grant twice and grantedTo_1 exceeds its bound (14 steps,
//     on the 3-path with 1 exit, found while building the repair). Verified
//     with bags on two processes (2 and 3 exits) and the 3-path (1 exit,
//     139,719 states); larger bag configurations (triangle, 4-star,
//     4-path, 1 exit) were not finished in 150 s (16–27M states, no
//     violation found: incomplete).
//   - l_i = |N_i| + 1 (every process of N_i ∪ {P_i} always in the CS):
//     no process there may exit, and the first Request finds grantedTo_i
//     empty (max of ∅, well-defined), in every variant.
//
// # Variants and mutants
//
// --variant: faithful, init-as-printed, lamport-clock, preempt-carries-ts,
// release-carries-ts.
// --mutant (caught by the tests): grant-ignores-bound (lk-safety),
// relinquish-keeps-grant (lk-safety), release-keeps-grant (deadlock).
// Both tables are model.Variants built over the configuration
// (variantsOf, mutantsOf): each entry replaces actions of the faithful table
// by name, or edits the initial state. Scenarios: testdata/*.txt; stored
// traces: counterexamples/lmutin.
package lmutin
