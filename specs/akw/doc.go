// Package akw is Algorithm 1 of Attiya, Kogan and Welch, "Efficient and
// Robust Local Mutual Exclusion in Mobile Ad Hoc Networks" (extended
// abstract; seed 001): local mutual exclusion by fork collection, behind
// two double doorways, with a recoloring module for nodes that moved.
// Algorithm 2 (§5) is package akw2.
//
// # Model (§2)
//
// Nodes have unique ids (n0 < n1 < ...; at[j] starts true at the smaller
// id, §4.2). Links are bidirectional, reliable and FIFO per link
// incarnation: a channel is the pair (node, port) at both ends, FIFO
// (Protocol.FIFO), and every message in transit on a link is lost when the
// link fails (the engine's disconnect). Safety needs the loss: a fork in
// transit on an old incarnation of a link that arrived after a new
// incarnation came up would be a second fork on the new link, whose fork
// was created at its static endpoint (L45); likewise a stale req or
// update-color would act on the wrong incarnation.
//
// Mobility is the adversary's connect and disconnect moves (--connects,
// --disconnects). A link appears or fails only when an endpoint moves, so
// every connect is split into two moves, one per endpoint that gets the
// "static" notification; the other gets "moving" (between two movers the
// link layer picks one, §2, so both splits are possible). A crashed node
// never moves and takes no step (--crashes); the engine's connect never
// involves a crashed node, a disconnect may (the live endpoint moves).
//
// Notifications (--notify; §2 leaves their timing open). By default
// (atomic) they are delivered with the topology change
// (model.Notifications): the move and both endpoints' handlers, L44–L46 or
// L47–L55 at a new link and L56–L61 at a failed one, are one step. N, the
// node's set of neighbours (Node.N, kept by the handlers), is then the set
// of connected ports at every live node, and both endpoints always agree
// on who their neighbours are. With --notify=async (model.AsyncLinks) the
// topology changes at the move and each endpoint's notification is a
// message delivered later: a LinkUp at the head of the new link's channel
// (it arrives before anything the other endpoint sends on the link; if the
// link fails first it is lost, and that endpoint never knew the link), a
// LinkDown only to an endpoint that knew the link (its sends on the dead
// link are lost meanwhile), and no port is re-used before its owner has
// been told its old link failed. N is then what the node has been told,
// and "neighbours" for every property is a link BOTH endpoints know (a
// link known to one endpoint only, or to none, separates nobody; on such a
// link fork-uniqueness only forbids two forks). The pinned configurations
// give the same verdicts under both (testdata/async.txt): the findings
// below persist, two deliveries longer.
//
// The application makes a thinking node hungry (BecomeHungry, at most
// --requests times per node) and an eating node thinking (L5-Exit).
//
// # Algorithm 1 as actions
//
// The action table (actions.go) follows the pseudocode: L1-CrossSDf
// (L1–L4), L5-Exit (L5–L9), L10-ReceiveReq (L10–L16), L17-ReceiveFork
// (L17–L23), the procedures request-low-forks (L24–L26),
// request-high-forks (L27–L29), send-fork (L30–L32) and
// release-high-forks (L33–L35); the recoloring wrapper L36-CrossSDr
// (L36–L37), L38-PickColor (L38–L39), ReceiveView (L40–L41 and the
// procedure's own messages) and L42-ReceiveNack (L42–L43); the handlers
// L44-LinkUpWhileStatic, L47-LinkUpWhileMoving and L56-LinkDown
// (links.go). Variables are those of §4.2, indexed by port: color[]
// (Color, C), state, S, at[] (At), R, L[]; N is the engine's set of
// connected ports.
//
// # Reconstructed parts (the paper gives semantics, not code)
//
//   - Control flow of Figure 3 (Stage, Pos, Moved). "The algorithm
//     sequentially executes a recoloring module and a fork collection
//     module, each within a double doorway"; "A hungry node may arrive at
//     the entrance of this doorway with or without executing the recoloring
//     module, depending on whether or not it moved after last eating"
//     (Moved). The interleaving: "A node that crosses the asynchronous
//     doorway AD^f without executing the recoloring module, does not
//     execute the exit code of the first double doorway" — so a node that
//     recolored crosses AD^f while still behind the first double doorway
//     and only then exits it (ExitFirstDoubleDoorway, exit SD^r then AD^r),
//     before the entry of SD^f. Lemma 3's proof needs exactly this overlap.
//   - Doorways, message-passing (default). "L[j] stores the last
//     doorway-related (cross/exit) message that p_i received from p_j;
//     initially exit_all" and L46 sends L[i]: a node broadcasts a Door
//     message carrying the doorways it is behind after every cross and
//     exit, and keeps each neighbour's last one in L[p]. The entry code of
//     an asynchronous doorway d ("crosses the doorway once it finds each of
//     its neighbors outside the doorway at least once") keeps Seen, the
//     neighbours whose L said "outside d" at some time since the entry
//     began; the entry code of a synchronous doorway ("all of its neighbors
//     are observed to be outside the doorway simultaneously") crosses when
//     every L[p] says outside d in one state. A new neighbour (L45:
//     L[j] := exit_all) counts as found outside.
//     This implementation does NOT meet §3's real-time guarantee: a cross
//     message still in transit is invisible to the neighbour.
//   - Doorways with the real-time guarantee by construction
//     (--doorways=oracle): the same entry codes, but a node observes its
//     neighbours' true positions (model.Ctx.PeerState), so a node that
//     crossed is seen behind the doorway by every neighbour from that step
//     on. The asynchronous entry records observations at the start of the
//     entry and at the crossing step only (a subset of the behaviours of a
//     real asynchronous doorway).
//   - new-color() of Algorithm 1a (recolor.go). "a node iteratively
//     exchanges messages with its neighbors to obtain a view of the
//     subgraph that includes all nodes performing recoloring concurrently;
//     the node then runs a local predefined coloring algorithm on that
//     subgraph (e.g., DFS starting from a node with smallest ID) and picks
//     a new color in a greedy manner": n−1 rounds (n nodes; "failure
//     locality n and response time O(n)") in which a node sends its view
//     (rows of the adjacency of the recoloring nodes it knows, its own row
//     being its neighbours still in R) to every neighbour in R and waits
//     for theirs; then a DFS from the smallest id of its component in the
//     view, each node taking the smallest color ≥ 0 unused by its already
//     colored neighbours; L38 makes it negative. A view from a node the
//     receiver does not expect one from (it is not running new-color(),
//     the sender is not in R, or the round is over) is answered by NACK:
//     L40's "outside SD^r" generalised, since a node still behind SD^r
//     after new-color() returned cannot answer it otherwise.
//     With --new-color=avoids-neighbours the node's own pick also avoids
//     the (recoloring) colors of its neighbours outside the view ("depending
//     on its neighbors"). The Erdős–Frankl–Füredi procedure of Algorithm 1b
//     is left out: at n ≤ 4 and δ ≤ 3 its set systems are no smaller than
//     the greedy range, and it needs n and δ known in advance.
//   - Initial colors: "The recoloring module is also executed by each node
//     to obtain an initial color": every node starts with the color the
//     greedy procedure gives it on the whole initial graph (negative, as
//     L38 makes it), known to its neighbours; Moved starts false.
//   - ⊥ is comparable with no color: a neighbour of unknown color is
//     neither low nor high (it is not asked for its fork; its request is
//     suspended).
//   - L10's "when req msg is received from j and at[j]": a request that
//     arrives while the fork is on its way to j is void and consumed
//     (--req=waits: it waits at the head of its FIFO channel).
//   - L17–L23 apply behind SD^f, where the fork collection module runs; a
//     fork reaching a node outside SD^f (it left the module after asking)
//     is kept, and its flag, a request for it back, is granted as L10–L16
//     grant any request outside SD^f (--fork-outside=anywhere: as printed).
//   - L47–L55 (indentation lost): L50–L51 under L49's `if`, L52–L55 not
//     ("When a moving node arrives at a new neighborhood, it exits any
//     doorway that it has crossed and waits for messages from its new
//     static neighbors"); the wait of L53 is the set Wait and L54–L55 the
//     action L55-EnterDoorway (--link-up-moving=nested: all of L50–L55 under
//     the `if`). A mover also aborts new-color() and will recolor (Moved).
//   - L56–L61: L61 is the `else` of L57. After the handler the node forgets
//     the port (at[], S, R, color[], L[], Seen, Wait): "the fork is
//     destroyed upon destruction of the link". The return path L60 also
//     releases the suspended forks ("exits the synchronous doorway,
//     releasing all requested forks").
//
// # Properties
//
//   - local-mutual-exclusion: no two neighbours both eating (a node that
//     crashed while eating still counts).
//   - fork-uniqueness: each link has exactly one fork, held at one end or
//     in transit; never two; none only when an endpoint crashed.
//   - cs-in-fork-collection: a node eats only behind SD^f.
//   - colors-differ-behind-doorway (Lemma 3): neighbours both behind AD^f
//     have different colors.
//   - assumption-1 (Assumption 1, on the greedy new-color()): two
//     neighbours that both picked a color while both behind SD^r picked
//     different ones.
//   - no-deadlock, refined by failure locality (--locality, default n as
//     Theorem 5 claims for the greedy procedure): a waiting node with a
//     crashed node within that many links is excused (model.Excused).
//     Lemma 4 claims max(f_c, 4) + 2 (Theorem 5: n; Theorem 7: at least
//     6), more than any distance between n ≤ 4 nodes, so the claim cannot
//     be refuted at these sizes and the default excuses every node a
//     crash can reach (the checker says so in a note). Separated from n
//     with a smaller --locality on the 4-node path with one crash
//     (testdata/locality.txt, MXCHECK_HEAVY): locality 2 is violated (14
//     steps: n0 crashes holding the fork n1 waits for behind SD^f; n2
//     waits at the entry of SD^f, n1 being behind it; n3 waits at the
//     entry of AD^f, n2 being behind it: n3 is 3 links from the crash),
//     locality 3 holds. The chain needs no recoloring: the fork collection
//     module waits one link and each doorway adds one, as Lemma 1's m + 2.
//   - static-starvation-freedom (--starvation=static, the default): under
//     weak fairness every node that never moved eats (Definition 1 and
//     "starvation freedom for static nodes"). "Never moved" is the
//     weakest reading the notifications allow: a node told "moving" at a
//     new link moved, and so did the live endpoint of a failed link to a
//     crashed node (a crashed node never moves); the endpoint told
//     "static", or of any other failed link, may not have (the adversary
//     may have moved the other one). A ghost bit (Node.Mover, set by
//     model.Notifications.Moved) records it, so configurations with a
//     connect have a few more states than with --starvation=every.
//   - starvation-freedom (--starvation=every): every hungry node eats,
//     movers included. Stronger: move budgets are finite, so every node is
//     eventually static, and this is Definition 1 read as "static from
//     some time on". The two differ on the nested reading of L47–L55
//     (testdata/liveness.txt): the mover starves in 7 steps, the static
//     node in 9.
//
// # Findings (counterexamples/akw)
//
//  1. L56–L61 handle the failure of a link to a LOW neighbour that holds
//     the fork (L59–L60), but nothing makes a hungry node behind SD^f eat
//     when the link that fails is to a HIGH neighbour: with all its forks
//     in hand (vacuously) it never eats, and a node that has all its low
//     forks once a low neighbour whose color rose (L6) leaves never asks
//     for its high forks. Two nodes, one disconnect, 10 steps: a flaw of
//     the pseudocode, independent of the reconstruction. Repair:
//     --link-down=recheck (L19–L22 re-run after L56–L61).
//  2. A node that moves next to a static node that has not eaten since
//     the initial coloring recolors alone (the static node is not
//     recoloring) and can pick the static node's color: both then pass
//     AD^f with equal colors (Lemma 3 fails), neither asks the other for
//     the fork, and both starve. 15 steps, also with --doorways=oracle: a
//     consequence of reading new-color() as coloring only the recoloring
//     subgraph; --new-color=avoids-neighbours removes it.
//
// # Variants and mutants
//
// Each open point is its own parameter (--doorways, --new-color,
// --link-down, --link-up-moving, --req, --fork-outside, --exit-order; the
// first option is the reading above; --notify and --starvation as above),
// each option a model.Variant:
// replacement actions with the faithful action's name, or an Edit that
// replaces one of the procedures the faithful bodies call (variants.go).
// --exit-order=exit-before-release runs L9 before L8, so forks released on
// exit do not ask to come back. --doorway-ghost adds the ghost variables
// of the doorway-guarantee property (§3's real-time guarantee; ghost.go):
// the message-passing doorways break it in 6 steps, the oracle doorways
// keep it. --mutant picks a deliberate bug.
package akw
