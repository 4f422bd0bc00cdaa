// Package akw2 is Algorithm 2 of Attiya, Kogan and Welch, "Efficient and
// Robust Local Mutual Exclusion in Mobile Ad Hoc Networks" (seed 001, §5),
// reconstructed from its prose: the paper gives no pseudocode for it, so
// every verdict here is about a reconstruction, and every choice the text
// leaves open is a parameter (--exit-priority, --notify-lowers,
// --preemption; the first option is the default). The model (atomic link notifications, FIFO
// per link incarnation with messages lost on link failure, crashes,
// failure-locality-refined deadlock) is package akw's; see its doc.go.
//
// # What §5 says, and how it is encoded
//
//   - "The solution uses a modified fork collection mechanism without
//     doorways or colors": one fork per link (at[]), created at the static
//     endpoint of a new link and destroyed with it, as in Algorithm 1. A
//     hungry node asks for every missing fork (req) and eats once it holds
//     all (Eat). A request that arrives while the fork is on its way back
//     is void.
//   - "an array of flags, denoted higher, identifying if a neighbor has a
//     higher priority over the node": Node.Higher. Initially the smaller
//     id has priority (as at[j] starts at the smaller id, §4.2).
//   - "A node that exits the critical section resets the values in its
//     higher array to true, thus lowering its priority relative to its
//     neighbors": Exit, which also sends the deferred forks. How the other
//     endpoint learns it (open in the text): a priority message; by
//     default to every neighbour (--exit-priority=token: only on the links
//     where the node had priority, so priority moves like a token).
//   - "When a node becomes hungry, it sends a notification message to its
//     neighbors. A node p_j that receives a notification from p_i, lowers
//     its priority only if it is thinking and it has higher priority than
//     p_i": ReceiveNotification lowers on that link and sends a priority
//     message (--notify-lowers=all: relative to every neighbour, as
//     on exit — "one edge or all reversed").
//   - "Our use of the preemptive fork-collection strategy of [13]": a
//     hungry node yields a fork to a neighbour with priority over it and
//     asks for it again, and defers the others (--preemption=higher-forks-first: it defers a lower neighbour only once it holds
//     every fork shared with its higher neighbours; until then it yields
//     every fork, releasing the requests it deferred, as L15 of
//     Algorithm 1 does).
//   - Mobility (open in the text): the static endpoint of a new link owns
//     its fork and has priority on it (§2's bias toward static nodes); an
//     eating mover goes back to hungry (as L50 of Algorithm 1), and a
//     hungry mover notifies its new neighbour and asks for the new fork.
//
// # Properties
//
// local-mutual-exclusion, fork-uniqueness, priority-consistency ("on every
// link exactly one endpoint has priority once no priority message is in
// transit"; links to a crashed node are skipped, its view is frozen),
// priority-acyclic (the settled priority graph has no cycle, which link
// reversal needs for progress), no-deadlock refined by failure locality
// (--locality, default 2 as Theorem 8 claims).
//
// # What the checker shows (testdata/golden.txt, locality.txt)
//
// The default readings break priority-consistency (two crossing priority
// messages, 11 steps) and deadlock on the triangle through a priority
// cycle (lowering on one link only). With token, all and
// higher-forks-first, the small static and mobile configurations are
// deadlock-free and the 4-node path with a crash meets failure locality 2
// (and not 1); the triangle still reaches a priority cycle (20 steps)
// without deadlocking at that size. These are verdicts on the
// reconstruction, not on the paper's (unpublished) code.
package akw2
