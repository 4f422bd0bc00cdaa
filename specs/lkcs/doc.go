// Package lkcs is LKCS, the algorithm of Kamei and Kakugawa for the
// generalized local (l_i, k_i)-critical section problem, "An Asynchronous
// Message-Passing Distributed Algorithm for the Generalized Local Critical
// Section Problem" (Algorithms 10(2):38, 2017; seed 002, §5, Algorithms
// 3–7). Its LMUTIN part is package lmutin's algorithm; its LMUTEX part is
// the same scheme for permissions to be InCS.
//
// # Problem (§2.2)
//
// Processes on a static undirected graph; CS_i(C) is the set of processes
// of N_i ∪ {P_i} whose state is InCS (the definition's formula is lost in
// the extracted text; Lemma 4's proof reads it so: "consider a process
// P_j ∈ N_i ∪ {P_i} ... among processes in CS_i(C)"). Safety: l_i ≤ |CS_i(C)| ≤ k_i for
// every P_i at any time. Liveness: every process changes between OutCS and
// InCS infinitely often.
//
// # Algorithm
//
// Two permission schemes run side by side, indexed by at ∈ {MUTEX, MUTIN}.
// Exit-Sequence: ts_i := ts_i + 1, ⟨Request, MUTIN, ts_i⟩ to N_i ∪ {P_i},
// loop until |nGrants_i[MUTIN]| = |N_i| + 1, state_i := OutCS, ⟨Release,
// MUTEX⟩ to all. Entry-Sequence: ⟨Request, MUTEX, ts_i⟩ to all, loop until
// every MUTEX grant is in, state_i := InCS, ⟨Release, MUTIN⟩ to all. A
// process grants a request of part at while Cond_i holds (|grantedTo_i
// [MUTEX]| < K_i, |grantedTo_i[MUTIN]| < |N_i| − L_i + 1) and otherwise
// preempts its largest grant for a smaller request. The macros L_i = l_i + 1
// and K_i = k_i − 1 within distance 2 of the leader P_LDR (l_i, k_i
// elsewhere) leave one slot of slack there. Inside either loop the leader,
// when Waiting_LDR = |N_LDR| + 1 (every process of its neighbourhood
// pending at it or holding both its grants: "the configuration may be in a
// deadlock"), calls TriggerNomination (Algorithm 6), which sends ⟨Trigger,
// at, ts_h⟩ to one waiting process, and waits until Waiting_LDR <
// |N_LDR| + 1. A triggered process sends RequestByTrigger to all, and each
// grants it at once, without Cond_i, as (0, P_j) (Algorithm 7).
//
// Actions keep the paper's names: ExitSequence and EntrySequence (up to
// their while loops), ExitWhileDone and EntryWhileDone (the loop ends and
// the rest of the sequence), TriggerNomination (the loop body: the call
// and the start of the wait), TriggerWaitUntil (the `wait until`), and the
// handlers ReceiveRequest, ReceiveGrant, ReceiveRelease, ReceivePreempt,
// ReceiveRelinquish, ReceiveTrigger, ReceiveRequestByTrigger.
//
// # Model
//
//   - Processes address each other by id; --topology as lme's flag (path,
//     ring, star, complete, or edges u.p-v.q with the ports ignored).
//     --l/--k are uniform (a k above |N_i|+1 is capped there), --l-at/--k-at
//     override single processes, --cs is C_0 (rejected unless safe),
//     --leader is P_LDR. mxcheck prints each process's L_i and K_i.
//   - Channels: §2.1 is lost, so the paper's assumption is unknown; bags by
//     default, --fifo for FIFO (lmutin shows bags break its LMUTIN part).
//   - Workload: §2.2's loop; ExitSequence and EntrySequence are application
//     calls, at most --changes of them per process (ts_i ≤ 1 + --changes).
//     A process that has spent them stops between two sequences; in the
//     paper's endless loop it would go on, and while stopped it holds a
//     permission others may need. So by default (--deadlock all) a deadlock
//     is a state where every process waits in a sequence and nothing but
//     stutters is enabled; --deadlock any counts a state where some process
//     waits, as the issue words it. Liveness (sequence-completion) counts a
//     process waiting in a sequence as hungry, with the same reading:
//     Changes only grows, so on a weakly fair cycle every process has
//     either stopped or waits forever, and with --deadlock all a cycle
//     counts only when none has stopped (Protocol.HungryWorld); a lasso
//     is then a real starvation. With --deadlock any every cycle counts,
//     including a process waiting for a permission that a stopped one
//     holds (testdata/liveness.txt shows one, hand-checked: P_0 stops
//     OutCS holding its own MUTIN grant, the only one Cond_0 allows, and
//     P_1 waits to exit for it).
//   - InCS and LockHolders (lock histories) are not declared: the property
//     is an (l, k) bound per neighbourhood, not a lock.
//   - candidate_LDR is local to TriggerNomination (emptied before it
//     returns) and not kept in the state.
//
// # Readings where the extracted text is garbled or silent
//
//   - Initial grantedTo_i[MUTIN]: Algorithm 3 prints {(1, P_j ∈ CS_i(C_0))}
//     for both parts; by the variables' definitions the MUTEX grants are
//     held by the InCS processes and the MUTIN grants by the OutCS ones.
//     Default: the definitions; variant init-as-printed: the print.
//   - The while loops: the loop test |nGrants_i[at]| < |N_i| + 1 is checked
//     whenever the process is scheduled; TriggerNomination's guard repeats
//     it, and the leader's `wait until` blocks the loop's end (the wait is
//     inside the loop body).
//   - The candidate sets of Algorithm 6 bind ts_j existentially: (ts_j,
//     P_j) with P_j ∈ Grant_LDR, (ts_j + d, P_j) ∈ grantedTo_LDR[MUTIN] and
//     (ts_j, P_j) ∈ grantedTo_LDR[MUTEX] (d = 0 to enter, 1 to exit); the
//     Trigger carries that ts_j. (For d = 1 the exiting process's ts_i is
//     ts_j + 1, so its Trigger handler would ignore it. On two processes,
//     the 3-path and the 4-path, faithful and trigger-repaired, neither
//     candidate branch ever finds a candidate — checked once by making a
//     found candidate panic — so the question does not arise there; when
//     the branch is taken the set is empty and min(∅) is undefined.)
//   - deleteMin in TriggerNomination removes the request from the leader's
//     pendingReq (the RequestByTrigger that follows re-grants it).
//   - Undefined operations (deleteMin/min/max of ∅, a Relinquish that
//     deletes no single item) set the ghost Undefined (well-defined) and
//     skip what needs the missing item; TriggerNomination then sends
//     nothing.
//   - Timestamps are ordered by ts, then by process id.
//
// # Properties
//
//   - lk-safety: l_i ≤ |CS_i(C)| ≤ k_i for every P_i.
//   - grant-bound: |grantedTo_i[MUTIN]| ≤ |N_i| + 1 − l_i and
//     |grantedTo_i[MUTEX]| ≤ k_i (Lemma 4's "P_i grants at most ...").
//   - grant-consistency (with --grant-consistency): a process P_j that a
//     waiting P_i counts in nGrants_i[at] holds a grant of P_i in
//     grantedTo_j[at] (the definitions of the variables, §5.2). It holds
//     on every pinned configuration it is checked on, faithful and
//     repaired, and catches relinquish-keeps-grant.
//   - well-defined, no-deadlock, sequence-completion (--liveness).
//   - trigger-never-fires (with --report-trigger): violated exactly when
//     the leader calls TriggerNomination; its counterexample is a witness.
//     It fires in every pinned faithful configuration.
//   - message-bound (with --count-messages): messages sent so far (a ghost
//     count of received ones plus those in transit) ≤ Σ_i 6(|N_i|+1)·
//     changes_i, Lemma 6's bound per entry or exit under contention.
//
// # Findings (FIFO channels; testdata/*.txt and counterexamples/lkcs)
//
//   - Two neighbours, (l, k) = (0, 2), leader P_0, C_0 = {P_0}: (L, K) =
//     (1, 1) at both; P_0 exits while P_1 enters and each holds the
//     permission the other needs. Waiting_LDR = 2 and the leader calls
//     TriggerNomination, but neither |grantedTo[MUTIN]| = |N_LDR| − L_LDR
//     nor |grantedTo[MUTEX]| = K_LDR − 1 holds (both sets are full, at the
//     bounds Cond uses), so no Trigger is sent: a deadlock after 7 steps,
//     the same as without the trigger (6 steps). The same happens on every
//     pinned path, star and triangle configuration.
//   - Variant trigger-when-full tests the bounds Cond uses; the Trigger then
//     resolves that deadlock, and the leader's own wait deadlocks instead
//     (20 steps): while it exits it holds both its own grants and counts in
//     Grant_LDR, so Waiting_LDR stays |N_LDR| + 1 while it waits.
//   - Variant trigger-repaired also ends the wait when the leader's own
//     grants are in; on the path of three it is deadlock-free, but on two
//     processes a TriggerNomination that finds no candidate (its view of
//     grantedTo is stale: its own Release and Request are in transit)
//     sends nothing and the leader waits forever (28 steps): P_1 holds
//     both MUTEX grants with timestamp 0 (a trigger grant, which no
//     Request can preempt) and waits to exit, P_0 holds both MUTIN grants
//     and waits to enter, Waiting_LDR stays 2.
//   - A Trigger that did its work need not lower Waiting_LDR either: on
//     the path of three with the leader in the middle the nominee P_2
//     enters with the trigger's grants, while P_0 and P_1 keep the
//     leader's count at |N_LDR| + 1 and the leader, still in its wait,
//     never nominates again (26 steps; found while building the repair,
//     with the wait of trigger-repaired).
//   - The complete repair, variant repaired (retry.go): trigger-when-full;
//     the leader's wait ends when Waiting_LDR < |N_LDR| + 1, when its own
//     grants are in, or when its nominee's RequestByTrigger has reached it
//     ((0, P_h) ∈ grantedTo_LDR[at]; the leader keeps P_h and at in the
//     state, Node.Nominee); a nomination that finds nobody sends nothing
//     and does not wait; and lmutin's preempt-carries-ts. With FIFO
//     channels it is deadlock-free, lk-safe, well-defined and
//     grant-consistent on every pinned configuration with k_i − l_i ≥ 2
//     (and live, sequence-completion, on the three of them checked with
//     --liveness): two processes (C_0 = {P_0},
//     {P_0, P_1}), the 3-path with (0, 3) and (0, 2), C_0 = {P_1} and
//     {P_0, P_2}, the leader at an end and in the middle, the 4-star
//     (testdata/repair.txt); outside the pinned rows it is also
//     deadlock-free, lk-safe and well-defined on the triangle (1 change
//     each, 1,475,137 states) and the 4-path with C_0 = {P_1, P_2}
//     (484,810 states). trigger-retry without preempt-carries-ts still runs a
//     Relinquish that deletes nothing (62 steps). With bag channels the
//     repair is not enough (grant-bound fails on two processes): the
//     LMUTIN part needs FIFO (lmutin's finding).
//   - Where no repair helps. l_i = k_i: any state change of P_j changes
//     |CS_j| by one, so P_j can never move (a deadlock for every
//     algorithm; the trigger never fires). k_i − l_i = 1 within distance
//     2 of the leader: L_i = l_i + 1 > K_i = k_i − 1, so Cond_i grants
//     nothing of one part and the grant sets start above Cond's bounds;
//     the trigger's grant without Cond then breaks the real bound (two
//     processes, (1, 2): the leader triggers its own exit while P_1 is
//     OutCS, grant-bound at 7 steps, lk-safety at 13,
//     counterexamples/lkcs/repaired-k-minus-l-1). The trigger's slack
//     argument needs k_i − l_i ≥ 2 near the leader; the lost §2 may
//     assume it.
//   - lmutin's stale Preempt is here too, in the MUTEX part: on a path of
//     four a MUTEX Preempt reaches a process that has meanwhile exited (it
//     is OutCS, so the handler relinquishes) and the Relinquish deletes
//     nothing (13 steps, counterexamples/lkcs/stale-preempt-mutex).
//   - lk-safety and grant-bound hold on every pinned configuration of the
//     faithful algorithm.
//
// # Does the leader's trigger fire? (--report-trigger)
//
// trigger-never-fires is violated (the trigger fires) in every pinned
// configuration of faithful, init-as-printed, preempt-carries-ts,
// trigger-when-full, trigger-repaired, trigger-retry and repaired, except
// l = k = 1 on the 3-path, where no process can move (it never fires);
// with no-trigger it never fires. In the faithful algorithm it fires and
// sends nothing (the first finding). The rows of testdata/*.txt show each.
//
// # Variants and mutants
//
// --variant: faithful, no-trigger, init-as-printed, preempt-carries-ts
// (lmutin's repair), trigger-when-full, trigger-repaired, trigger-retry,
// repaired. --mutant: grant-without-cond (caught by grant-bound and
// lk-safety), trigger-wrong-candidate (caught as a deadlock of
// trigger-repaired), relinquish-keeps-grant (caught by grant-consistency,
// 7 steps; lk-safety and grant-bound do not see it: the slack K_i =
// k_i − 1 near the leader absorbs the extra entry, and grantedTo is
// kept correctly by the granter). Both tables are model.Variants
// built over the configuration (variantsOf, mutantsOf): each entry
// replaces actions of the faithful table by name, or edits the initial
// state.
package lkcs
