// Package rcv is Relative Consensus Voting (seed 004,
// ../shared/seeds/004_d388e5962d222b56.txt): a distributed mutual exclusion
// algorithm in which a requester's Request Message (RM) roams from node to
// node, carrying a copy of the system information it has gathered, until
// some node can decide the requester's place in the order of entry.
//
// # The algorithm
//
// Every node keeps its system information SI (Figure 2): Next, the node to
// send the Enter Message to after its own CS; NONL, the ordered list of
// tuples ⟨NodeID, TS⟩ the node knows to be ordered; and NSIT, one row per
// node with a timestamp TS (how up to date the row is) and MNL, the
// requests that node has received, in arrival order. Messages (Figure 3)
// carry copies: MONL and MSIT; an RM also Host (its home node) and UL (the
// nodes it has not visited); an IM also Next.
//
// The actions are the MPM algorithm of Section 4.1, with its line numbers
// in comments (actions.go): RequestCS (lines 3–13), ReceiveEM (14–16),
// ReleaseCS (17–24), ReceiveIM (25–32), ReceiveRM (33–53). The Exchange
// procedure (Section 4.3, lines 1–22) and the Order procedure (Section
// 4.2, lines 1–26) are in procs.go. One message is handled completely in
// one step, replies included; requesting and releasing are one step each.
//
// # Channels and faults
//
// Section 3: N fully connected nodes, reliable channels, no crashes, at most
// one outstanding request per node. Channels are bags (any delivery order):
// the paper claims it needs no FIFO (Introduction, Conclusion). --fifo
// makes every channel FIFO to show what changes: the state counts shrink,
// no verdict changes, and both findings below stay.
//
// # Nondeterminism
//
// "Select an unvisited node randomly" (lines 12 and 51) is the adversary's
// choice, not a probabilistic one: RequestCS has one instance per target
// node, ReceiveRM one instance per forwarding target (its guard runs lines
// 34–37 on a copy of the node) and one for the RM that is ordered.
//
// # Reconstructions (where the text leaves a step out or is garbled)
//
//   - Line 2 "Initialization: omitted": every node starts with Next = NULL,
//     NONL empty, and every NSIT row at TS 0 with an empty MNL. Section
//     6.2: "When the system is initialized, each node knows nothing about
//     others".
//   - Line 35 appends ⟨k, tk⟩ without saying where tk comes from; the RM
//     carries it (Msg.HostTS): Section 3 defines TS of a tuple as "the
//     timestamp at which moment the corresponding request message was
//     firstly initialized".
//   - Line 26's ⟨i, ti⟩ is "tuple ⟨i, ti⟩ which immediately precedes tuple
//     ⟨j, tj⟩", read off the IM's MONL (the NONL of the node that ordered
//     j). Variant im-current-request takes Section 4.1's prose instead
//     ("whether tuple ⟨i, ti⟩ is still in SIi.NONL", ti the current
//     request); it drops a requester (below).
//   - The IM is processed by Exchange before lines 26–32: Lemma 1's proof,
//     "When a message (RM, EM or IM) arrives in a node, it will firstly
//     processed by the Exchange procedure". Variant im-no-exchange follows
//     the printed lines 25–32, which call no Exchange; it breaks mutual
//     exclusion at N = 3.
//   - On an EM, after Exchange, the tuples that precede ⟨i, ti⟩ are deleted
//     from NONLi: Lemma 8's proof, "When Ni receives the EM, it will delete
//     all tuples which precede ⟨i, t⟩ from NONLi".
//   - Exchange lines 1 and 3 (garbled in the text) compare MSIT[x].TS with
//     SIi.NSIT[x].TS, x the tuple's node: the prose distinguishes "Nj had
//     finished executing the CS" from "no message containing information
//     about Nj has visited Ni" by "the timestamp of Nj maintained by the
//     message" against the node's. Variant exchange-ts-self takes the
//     parenthesis "(SIi.NSIT[i].TS)" literally; it breaks mutual exclusion
//     at N = 3. "if ∃ a … delete tuples which precede a and a" is applied
//     for every such a (up to the last one).
//   - Exchange lines 15 and 17, "a tuple ⟨k, tk⟩ in MNL", are node k's own
//     tuples in row k (the only tuples of k that row holds, line 5).
//   - Order line 12 leaves ties between two tuples of one node (two
//     requests of it) open; the older request ranks first. "if there is
//     only one tuple in the sequence, then S2 = 0, TP2.NodeID = 1" is
//     taken literally: a lone tuple wins a tie S1 = N − S1 only at n0.
//     Variants lone-wins-ties (TP2.NodeID = ∞) and lone-loses-ties
//     (TP2.NodeID = 0) are the alternatives; winning every tie orders two
//     requesters with two votes each on four nodes (6 steps to two nodes
//     in the CS).
//   - Order line 25, OnTopOf(NONL), tests the tuple of j just ordered or
//     found; line 44's "immediate preceding node according to NONL" is the
//     node of the tuple before it.
//   - When the RM is not ordered and UL is empty, line 51 has nothing to
//     choose: the RM is dropped and the ghost Node.Stranded set; the
//     invariant rm-ordered-within-n-1 (Lemma 3) says this never happens.
//     It never does in the faithful configurations checked.
//   - A node's Phase (idle, waiting, in the CS) is explicit; the paper reads
//     it off NONL.
//
// # Properties
//
//   - mutual-exclusion: at most one node in the CS (Theorem 1).
//   - next-chain-consistent: (1) the nodes in the CS plus the EMs in transit
//     number at most one (an EM is the permission to enter; two make two
//     requesters first); (2) the Next links form no cycle (Theorem 2's
//     second case); (3) a waiting node whose RM is no longer in transit is
//     held by an EM to it, an IM naming it, or some node's Next (an ordered
//     requester is never dropped). (1) is stronger than Theorem 1 needs
//     (mutual exclusion only needs that two EMs are never both delivered
//     while their receivers wait), but every violation of it found here is
//     followed by a mutual exclusion violation one or two steps later.
//   - rm-ordered-within-n-1: Lemma 3, an RM is ordered before it runs out of
//     unvisited nodes.
//   - mnl-one-tuple-per-node: Lemma 1's proof, "a MNL does not contain any
//     pair of tuples that has the same NodeID".
//   - lists-bounded: no list outgrew MaxList (a capacity check of the
//     model, never a silent truncation).
//   - messages-per-entry-at-most-n+1: the ghost Node.Cost (RMs, IM and EM
//     spent on the request a node entered for) is at most N+1 (Section
//     6.1.1: at most N−1 forwards, O(N)).
//   - no-deadlock (engine): a node waits or is in the CS and nothing but
//     stutters is enabled (Theorem 2); starvation-freedom under weak
//     fairness (Theorem 3).
//
// # Findings
//
//   - faithful-exchange-row-order (N = 4, three requesters, one request
//     each; 11 steps to two EMs in transit, 13 to two nodes in the CS; also
//     with FIFO channels): Exchange lines 13–22 loop over k, and for each
//     k first delete row k's outdated tuples (lines 15–18), then copy a
//     newer row k (19–20). Line 18 deletes an outdated tuple from MSIT
//     only, so a row copied for a smaller k keeps a tuple that a larger k
//     finds outdated: the finished request still holds a vote, and Order
//     (line 13, tie by NodeID) orders a different successor than another
//     node did. It is a flaw of the printed procedure, not of a reading:
//     under the other reading of MPM line 26 (im-current-request) and of
//     the timestamp of Exchange lines 1 and 3 (exchange-ts-self) every
//     step of the trace takes the same branch (checked by hand; at step 12
//     both readings of line 26 send the EM, and the only outdated test
//     that fires compares at node n2 with row n2). Two repairs remove it,
//     and N = 4 with three requesters verifies with either: variant
//     exchange-two-pass (every deletion of lines 14–18 before any copy of
//     lines 19–20) and variant exchange-delete-both (line 18 deletes from
//     SIi.NSIT as well, as Section 4.3's prose has it: "outdated tuples,
//     if any, are deleted from SIi.NSIT and MSIT (line 15-18)"). It does
//     not hang on the lone-tuple tie either: with lone-loses-ties the same
//     mechanism breaks mutual exclusion (12 steps to two EMs), and with
//     that tie rule plus either repair N = 4 with three requesters
//     verifies too (1,304,389 states; measured on a scratch build, since
//     one --variant picks one reading).
//   - faithful-n4-r1-next-cycle-dfs (N = 4, one request each; a DFS
//     trace of 18 steps, not the shortest: a BFS of this configuration
//     is beyond a test): the same flaw (a finished request's tuple kept
//     in a row copied early, step 15) makes two nodes order n3 and n2
//     differently, and the Next links form the cycle n2 -> n3 -> n2, a
//     deadlock. DFS runs of 2.5 minutes (10–14 million states) with
//     either repair find nothing (incomplete).
//   - im-current-request-drops-requester (variant, N = 3, two requests
//     each, 12 steps; also FIFO): an IM about a finished request arrives
//     after the node has requested again; the prose test finds the new
//     tuple in NONL and overwrites Next, dropping a requester, then
//     deadlock. The line-26 reading (the faithful one here) does not.
//
// # Variants (--variant) and mutants (--mutant)
//
// Both are replacement actions chosen at build time (variants.go): the
// faithful action table is built, then every action whose name the option
// replaces is swapped for the option's (every instance of it: RequestCS and
// ReceiveRM have one per target). Variants: im-no-exchange,
// im-current-request, exchange-two-pass, exchange-delete-both,
// lone-wins-ties, lone-loses-ties, exchange-ts-self. Mutants:
// exchange-ignores-timestamps (Exchange lines 1 and 3 without their
// timestamp tests), exchange-keeps-stale (lines 19–20 dropped), exit-no-em
// (lines 21–22 dropped). A mutant "Order line 3 matches j by NodeID
// alone" was tried and survives every configuration within reach (N = 2
// with three requests each; N = 3 with two, to depth 19), so it is not
// shipped.
//
// # Workload and bounds
//
// --requests bounds requests per node (≤ 3); --requesters lets only n0,
// n1, ... request. A timestamp becomes at most one more than the largest
// anywhere (lines 4, 18, 36), so timestamps stay below N·r·(N+1) and the
// space is finite. Tables are fixed-size arrays (MaxN rows, MaxList
// tuples), compared and encoded canonically.
//
// Largest configurations explored to the end: N = 3 with two requests per
// node (a DFS, 48,649,761 states: verified; its BFS frontier does not fit
// in 14 GB) and N = 4 with three requesters, one request each (988,941
// states: the finding above). N = 4 with one request at every node does not
// finish: a BFS outgrows memory at depth 10, and DFS runs find only the
// Next cycle above.
package rcv
