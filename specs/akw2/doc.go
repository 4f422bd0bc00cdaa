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
// deadlock-free, the 4-node path with a crash meets failure locality 2
// (and not 1), and so does the 5-node path (nodes 3 and 4 links from the
// crash progress; 14.1M states, TestFailureLocalityN5); the triangle
// still reaches a priority cycle (20 steps) without deadlocking at that
// size. The same verdicts hold with --notify=async (testdata/async.txt).
// These are verdicts on the reconstruction, not on the paper's
// (unpublished) code.
//
// # The triangle's priority cycle under the best readings, by hand
//
// Initially n0 > n1 > n2 (smaller id first). (1) n1 becomes hungry and
// notifies n0 and n2. (2) n0, thinking and above n1, lowers itself below
// both neighbours (notify-lowers=all) and sends priority to n1 and n2.
// (3) n0 becomes hungry and notifies n1 and n2. n1 gets n0's fork and
// priority, eats and exits (9), lowering itself: priority to n0 and n2
// (token: it had both). n0 gets priority back from n1 (10), eats and
// exits (14), sending priority only to n1 (in its view n2 is above it:
// n0's priority message of step 2 has not reached n2). n2 now receives,
// late: n0's priority of step 2 (17: n2 > n0), then n0's notification of
// step 3, sent before n0 ate (18): n2 is thinking and above n0, so it
// lowers "relative to every neighbour", but in its view n1 is still above
// it (n1's priority of step 9 is in transit), so it sends priority to n0
// only. (20) n1's priority arrives and puts n2 above n1. Settled:
// n1 > n0 (15), n0 > n2 (19), n2 > n1 (20): a cycle.
//
// Link reversal stays acyclic because every change makes a node a sink
// (below all its neighbours). Here n2's "lower relative to its neighbours"
// is a partial reversal: with priority kept as two flags synchronised by
// asynchronous messages, a node cannot tell "my neighbour has priority"
// from "my neighbour has sent me priority". §5 says what lowering means,
// not how the other endpoint learns it, so this is a gap of the
// reconstruction (an extended abstract's), not a refutation of the
// algorithm. --exit-priority=relay completes the reversal: when a node
// lowers itself it remembers the links on which it had no priority, and
// priority that arrives on one of them while it is still thinking is
// sent back. That removes the one-request cycle (the triangle is then
// verified, testdata/static.txt), but not the two-request one (14 steps,
// counterexamples/akw2/relay-priority-cycle): a node that is hungry again
// when the late priority arrives keeps it. A reading with totally ordered
// heights (as Walter, Welch and Vaidya [14] use for link reversal) would
// be acyclic by construction but is not the paper's "array of flags"; it
// is not modelled.
//
// A new link can close a cycle at once (--nodes=3 --connects=1, 1 step):
// on the path n0 > n1 > n2, connecting n0 and n2 with n2 static gives n2
// priority over n0. The text does not say what priority a new link gets;
// §2's bias toward static nodes is the default reading. No deadlock
// follows at that size.
package akw2
