// Package camera is Camera's fast path (seed 003, Algorithm 1): Ricart–
// Agrawala made churn-tolerant by learning about unknown requesters.
//
// Algorithm 1, action by action:
//   - RequestCS is enter() lines 11–17: State=WAIT, max_timestamp_seen+=1,
//     myRequest=(max_timestamp_seen, me), Pending_OKs = Memlist∖{me}, and a
//     REQUEST(myRequest) to each. Enter is lines 18–19 (WAITFOR, HELD).
//   - ExitCS is exit(): State=NONE, RELEASE(myRequest) to every other node
//     (IP_MULTICAST: the group, not just the list), then OK(recentlyOKed)
//     to each deferred request, inserting that request into recentlyOKed
//     after the send (so the OK does not name its own receiver).
//   - ReceiveRequest is receive_request: an unknown sender joins Memlist
//     and, if we are WAITing, Pending_OKs, and gets our request; then
//     max_timestamp_seen is updated and the request is deferred when HELD or
//     when WAITing with a smaller (timestamp, id); otherwise it gets
//     OK(recentlyOKed) and joins recentlyOKed.
//   - ReceiveRelease is receive_release: the (timestamp, id) request leaves
//     recentlyOKed.
//   - ReceiveOK is receive_OKs: every node in the carried set that is not
//     in Memlist joins Memlist and Pending_OKs and gets our request; then
//     the sender leaves Pending_OKs. As written, with no test of State.
//
// Assumptions where the paper is silent:
//   - OK carries the ids of the sender's recentlyOKed set (receive_OKs
//     reads only ids); the Request parameter of receive_OKs is unused in
//     its body, so an OK is not matched to the request it answers.
//   - myRequest is not cleared on exit (Algorithm 1 never clears it, and
//     receive_OKs may send it again after exit when a late OK arrives).
//   - Memlist is the engine's membership list (Ctx.Members, AddMember); it
//     always holds its owner; churn never removes the owner.
//   - Channels are bags (any delivery order); no message is lost; no node
//     crashes. A node answers requests from nodes outside its list.
//   - The slow path (§VI) is not modelled.
//   - --requests R per node with N×R ≤ 16 (the bound on recentlyOKed).
//
// Notes printed before the search: mutual-friend-property (Definition 4,
// over every pair of requesting nodes of the initial lists) and
// strongly-connected (the membership graph, Theorem 1).
//
// Results. Safe and deadlock-free for every placement of 1–2 missing
// entries on N=3 (21 placements, TestPlacementsN3) and on N=4 (78
// placements, specs/camera-n4.suite, make camera-n4: 20.0M to 44.8M states
// each, 2.8 billion in all, depth 47–48); MFP holds in every one of them.
// Ids break timestamp ties, so renaming nodes is not a symmetry and every
// placement is checked, not one per orbit. Without MFP it breaks even
// though the membership graph stays strongly connected: N=4 --missing=0:1,0:3,1:0,1:2, 8 steps
// (counterexamples/camera/mfp-fails).
//
// Finding against Corollary 5.1: under churn it breaks with one removed
// entry on N=3, with MFP and strong connectivity holding in every state
// (--churn=1, 11 steps; the same trace with --churn-keeps-mfp, which lets
// the adversary remove only entries whose removal keeps MFP). n1 answers
// n0's request while idle (n0 joins n1's recentlyOKed), then forgets n0
// (a false-positive failure detection, which §II-B allows), requests with a
// larger timestamp and asks only n2; n2 OKs n1 first, and its later OK to
// n0 names n1, whom n0 already knows and already has an OK from, so n0
// enters too. Theorem 5's Case 2, sub-case 3 assumes p_i stays in
// Memlist_j once added. --variant=ask-recently-oked is our repair: enter()
// also asks every node in the requester's own recentlyOKed set; it is safe
// and deadlock-free with --churn 1 and 2 on N=3.
//
// Properties: mutual-exclusion and no-deadlock.
//
// Mutants (--mutant): ignore-recently-oked learns nothing from OK (caught
// by mutual-exclusion under symmetric ignorance); no-learn-on-request skips
// lines 2–6 of receive_request (caught by mutual-exclusion under asymmetric
// ignorance); forget-deferred drops deferred requests on exit (caught as a
// deadlock).
//
// Files: spec.go holds the node state and messages; actions.go the
// protocol as published (Protocol, one action per procedure); variants.go
// the Variants (--variant: fast-path, ask-recently-oked) and Mutants
// (--mutant: none and the three above), each a replacement of whole
// actions applied by model.Apply; props.go the invariant and the MFP and
// connectivity notes; build.go the parameters, Build and the keep-MFP
// adversary.
package camera
