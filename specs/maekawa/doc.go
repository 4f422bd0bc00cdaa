// Package maekawa is Maekawa's √N mutual exclusion algorithm (Maekawa, ACM
// TOCS 1985) as seed 003 (Camera, §III-B) describes it, run over voting sets
// that are replaced or churned.
//
// Voting sets. N must be a square k×k (1, 4, 9 or 16; any other N is
// rejected with a one-line error). Node r·k+c votes with its row r and its
// column c, itself included (|V_i| = 2k−1), and V_i is the node's
// membership list (Ctx.Members). --replace I:J=K replaces member J of V_I by
// K (J ≠ I, J ∈ V_I, K ∉ V_I, applied left to right); --churn K lets the
// adversary remove up to K voting-set entries while the protocol runs.
//
// Classic (--variant=classic, the paper's description). A requester sends
// REQUEST(ts) to every member of V_i, itself included, and enters once every
// one of them has granted its vote (the paper's OK). A voter grants one vote
// at a time; a request that finds the vote out is queued, and on RELEASE
// the voter grants the queued request of highest priority. Classic Maekawa
// can deadlock: the checker shows it (counterexamples/maekawa/
// classic-deadlock: two diagonal requesters each hold one vote the other
// needs).
//
// Deadlock handling. --variant=yield follows Maekawa's 1985 paper: a voter
// whose vote is out answers a new request with FAILED when the vote's
// holder or some queued request has priority over it; otherwise the new
// request is the highest-priority one and the voter sends INQUIRE to the
// holder, once per grant. A requester answers INQUIRE with YIELD (giving
// the vote back and waiting for it again) if it has received a FAILED, or
// has yielded and not been granted again, since it asked; otherwise it
// keeps the INQUIRE until a FAILED arrives (then yields) or it enters the
// CS (then RELEASE answers it). On YIELD the voter queues the yielder's
// request again and grants the highest-priority queued request.
// --variant=yield-lock-only is the textbook shortcut (Singhal and
// Shivaratri 1994, §6.9; Kshemkalyani and Singhal 2008, §9.8): FAILED only
// when the holder has priority, else an INQUIRE each time.
//
// Finding: both deadlock on N=4 with three requesters (shortest traces 22
// and 23 steps, pinned as yield-deadlock and yield-lock-only-deadlock). A
// request R that beat the holder was sent INQUIRE, not FAILED; a later
// request of even higher priority then displaces R from the head of the
// queue, and takes the vote when the holder yields, while R, never told it
// lost, keeps another vote the winner needs and defers that voter's
// INQUIRE forever. --variant=yield-fail-displaced is our repair: the voter
// also sends FAILED to the request it displaces from the head of the queue
// (when that request had beaten the holder and so got no FAILED). It is
// deadlock-free and safe on the full N=4 grid, every node requesting once
// (62,231,995 states; TestFullGrid under MXCHECK_HEAVY=1).
//
// Timestamps are Lamport-style sequence numbers as in ra: a node keeps the
// highest timestamp seen in a REQUEST (HSN) and stamps its own HSN+1;
// priority is (timestamp, id), smaller first.
//
// Granularity (DESIGN.md): requesting is one environment step that also
// sends every REQUEST (including the one to itself, which its own voter
// receives like any other); entering is a node step; exiting is one
// environment step that sends RELEASE to the voters asked; receiving a
// message handles it completely, replies included.
//
// Assumptions where the sources are silent:
//   - Channels are FIFO (Protocol.FIFO): Maekawa's paper assumes messages
//     between two sites arrive in order, and the INQUIRE/YIELD exchange
//     relies on it (an INQUIRE must not overtake the GRANT it refers to).
//   - A requester waits for, and releases, exactly the voters it asked; a
//     voting-set entry removed by churn while it waits does not release it.
//   - An INQUIRE is ignored in the CS (RELEASE follows) and when the
//     requester does not hold the inquirer's vote (a stale INQUIRE); a
//     RELEASE or YIELD from a node that does not hold the vote is ignored.
//   - --requesters I,J restricts which nodes request the CS (default all),
//     so N=9 and N=16 configurations stay small; no node crashes.
//
// Results. Replacing entries (keeping |V_i|) cannot break safety on N=4
// or N=9: two (2k−1)-subsets of k² nodes always meet when 2(2k−1) > k², so
// any two voting sets still share a voter (TestFewestReplacements checks
// every replacement sequence up to 3 on N=4 and 2 on N=9). The first square
// where it can is N=16, with 2 replacements (--nodes=16 --requesters=0,5
// --replace=0:1=10,0:4=11; DFS witness, BFS does not finish). Removing
// entries breaks it with 2 churned entries on N=4 (counterexamples/
// maekawa/churn-2, 14 steps); 1 is not enough (every pair of voting sets
// shares 2 voters).
//
// Properties: mutual-exclusion and no-deadlock.
//
// Mutants (--mutant): vote-twice grants every REQUEST at once (caught by
// mutual-exclusion); yield-in-cs yields a vote from inside the CS (caught
// by mutual-exclusion); keep-vote never passes the vote on at RELEASE
// (caught as a deadlock).
//
// Files: spec.go holds the node state and messages; actions.go classic
// Maekawa (Protocol); yield.go the INQUIRE/FAILED/YIELD actions;
// variants.go the Variants (--variant: classic, yield, yield-lock-only,
// yield-fail-displaced: each replaces ReceiveRequest and adds
// ReceiveInquire, ReceiveFailed and ReceiveYield) and Mutants (--mutant:
// none and the three above, each a replaced action; yield-in-cs needs a
// yield variant), applied by model.Apply; props.go the invariant and the
// voting-set notes; build.go the voting sets, the parameters and Build
// (--requesters narrows RequestCS's guard).
package maekawa
