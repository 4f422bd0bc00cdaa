package lkcs

import (
	"math/bits"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lmutin"
)

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

// algo is LKCS on one configuration: the graph, each (l_i, k_i), the
// leader and the processes in the CS in C_0.
type algo struct {
	g       lmutin.Graph
	l, k    []int
	leader  model.NodeID
	cs      model.NodeSet
	changes uint8
}

// more reports whether the application may start another sequence: §2.2's
// loop starts one as soon as the last has ended, so the sequences are
// weakly fair local actions, bounded by --changes per process.
func (a *algo) more(n *Node) bool { return n.Changes < a.changes }

// init is the initial local state of Algorithm 3: ts_i = 1;
// grantedTo_i[MUTEX] holds (1, P_j) for the processes of N_i ∪ {P_i} InCS
// in C_0 and grantedTo_i[MUTIN] (1, P_j) for those OutCS (by the
// definition of grantedTo_i; Algorithm 3 prints CS_i(C_0) for both, see
// doc.go and the variant init-as-printed).
func (a *algo) init(i model.NodeID) Node {
	n := Node{State: OutCS, TS: 1, Preempting: [2]Stamp{NilStamp, NilStamp}}
	if a.cs.Has(i) {
		n.State = InCS
	}
	for _, j := range a.g.Closed(i).All() {
		if a.cs.Has(j) {
			n.GrantedTo[MUTEX] = n.GrantedTo[MUTEX].Add(1, j)
		} else {
			n.GrantedTo[MUTIN] = n.GrantedTo[MUTIN].Add(1, j)
		}
	}
	return n
}

// closedSize is |N_i| + 1 of process i.
func (a *algo) closedSize(i model.NodeID) int { return a.g.Degree(i) + 1 }

// nearLeader: dist(P_LDR, P_i) ≤ 2.
func (a *algo) nearLeader(i model.NodeID) bool {
	d := a.g.Dist(a.leader, i)
	return d >= 0 && d <= 2
}

// L is the macro L_i of Algorithm 3.
func (a *algo) L(i model.NodeID) int {
	if a.nearLeader(i) {
		return a.l[i] + 1
	}
	return a.l[i]
}

// K is the macro K_i of Algorithm 3.
func (a *algo) K(i model.NodeID) int {
	if a.nearLeader(i) {
		return a.k[i] - 1
	}
	return a.k[i]
}

// grantLDR is the macro Grant_LDR: the processes holding both a MUTIN and
// a MUTEX grant of the leader.
func grantLDR(n *Node) model.NodeSet {
	return n.GrantedTo[MUTIN].Procs() & n.GrantedTo[MUTEX].Procs()
}

// waitingLDR is the macro Waiting_LDR.
func waitingLDR(n *Node) int {
	return n.PendingReq[MUTIN].Len() + n.PendingReq[MUTEX].Len() + grantLDR(n).Len()
}

// cond is the macro Cond_i for a message of part at.
func (a *algo) cond(i model.NodeID, n *Node, at At) bool {
	if at == MUTEX {
		return n.GrantedTo[MUTEX].Len() < a.K(i)
	}
	return n.GrantedTo[MUTIN].Len() < a.g.Degree(i)-a.L(i)+1
}

// sendAll sends m to every P_j ∈ N_i ∪ {P_i}, in id order.
func (a *algo) sendAll(c *ctx, m Msg) {
	for _, j := range a.g.Closed(c.Self()).All() {
		c.Send(j, m)
	}
}

// grantMin is the block `(ts_h, P_h) := deleteMin(pendingReq_i[at]);
// grantedTo_i[at] := grantedTo_i[at] ∪ {(ts_h, P_h)}; send ⟨Grant, at,
// P_i⟩ to P_h`.
func grantMin(c *ctx, n *Node, at At) {
	ts, h, ok := n.PendingReq[at].DeleteMin()
	if !ok {
		n.Undefined = true
		return
	}
	n.GrantedTo[at] = n.GrantedTo[at].Add(ts, h)
	c.Send(h, Msg{Kind: Grant, At: at})
}

// actions returns the faithful action table of Algorithms 4–7 in the
// paper's order: the exit and entry sequences (each split at its while
// loop), the leader's TriggerNomination and the `wait until` after it, and
// the message handlers.
func (a *algo) actions() []action {
	return []action{
		{
			// Exit-Sequence, up to its while loop.
			Name:  "ExitSequence",
			Guard: func(_ *ctx, n *Node) bool { return n.State == InCS && n.Seq == Idle && a.more(n) },
			Do: func(c *ctx, n *Node) {
				n.Changes++
				n.TS++
				n.NGrants[MUTIN] = 0
				a.sendAll(c, Msg{Kind: Request, At: MUTIN, TS: n.TS})
				n.Seq = Exiting
			},
		},
		{
			// The while loop ends: state_i := OutCS; send ⟨Release,
			// MUTEX, P_i⟩ to N_i ∪ {P_i}.
			Name: "ExitWhileDone",
			Guard: func(c *ctx, n *Node) bool {
				return n.Seq == Exiting && !n.TriggerWait && n.NGrants[MUTIN].Len() >= a.closedSize(c.Self())
			},
			Do: func(c *ctx, n *Node) {
				n.State = OutCS
				a.sendAll(c, Msg{Kind: Release, At: MUTEX})
				n.Seq = Idle
			},
		},
		{
			// Entry-Sequence, up to its while loop.
			Name:  "EntrySequence",
			Guard: func(_ *ctx, n *Node) bool { return n.State == OutCS && n.Seq == Idle && a.more(n) },
			Do: func(c *ctx, n *Node) {
				n.Changes++
				n.NGrants[MUTEX] = 0
				a.sendAll(c, Msg{Kind: Request, At: MUTEX, TS: n.TS})
				n.Seq = Entering
			},
		},
		{
			// The while loop ends: state_i := InCS; send ⟨Release, MUTIN,
			// P_i⟩ to N_i ∪ {P_i}.
			Name: "EntryWhileDone",
			Guard: func(c *ctx, n *Node) bool {
				return n.Seq == Entering && !n.TriggerWait && n.NGrants[MUTEX].Len() >= a.closedSize(c.Self())
			},
			Do: func(c *ctx, n *Node) {
				n.State = InCS
				a.sendAll(c, Msg{Kind: Release, At: MUTIN})
				n.Seq = Idle
			},
		},
		// The body of either while loop: if (P_i = P_LDR ∧ Waiting_LDR =
		// |N_LDR| + 1) TriggerNomination().
		a.triggerAction("TriggerNomination", a.triggerNomination),
		{
			// wait until (Waiting_LDR < |N_LDR| + 1).
			Name: "TriggerWaitUntil",
			Guard: func(c *ctx, n *Node) bool {
				return n.TriggerWait && waitingLDR(n) < a.closedSize(c.Self())
			},
			Do: func(_ *ctx, n *Node) { n.TriggerWait = false },
		},
		{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: a.receiveRequest},
		{Name: "ReceiveGrant", Kind: model.Receive, On: is(Grant), Do: receiveGrant},
		{Name: "ReceiveRelease", Kind: model.Receive, On: is(Release), Do: receiveRelease},
		{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: receivePreempt},
		{Name: "ReceiveRelinquish", Kind: model.Receive, On: is(Relinquish), Do: receiveRelinquish},
		{Name: "ReceiveTrigger", Kind: model.Receive, On: is(Trigger), Do: a.receiveTrigger},
		{Name: "ReceiveRequestByTrigger", Kind: model.Receive, On: is(RequestByTrigger), Do: receiveRequestByTrigger},
	}
}

// triggerAction is the body of either while loop, `if (P_i = P_LDR ∧
// Waiting_LDR = |N_LDR| + 1) { nominate(); wait until ... }`, up to the
// wait: the leader, in a sequence whose grants are not all in, calls
// nominate and starts waiting.
func (a *algo) triggerAction(name string, nominate func(c *ctx, n *Node)) action {
	return action{
		Name: name,
		Guard: func(c *ctx, n *Node) bool {
			i := c.Self()
			return n.Seq != Idle && !n.TriggerWait && n.NGrants[n.Seq.at()].Len() < a.closedSize(i) &&
				i == a.leader && waitingLDR(n) == a.closedSize(i)
		},
		Do: func(c *ctx, n *Node) {
			nominate(c, n)
			n.TriggerWait = true
		},
	}
}

// receiveRequest: On receipt of a ⟨Request, at, ts_j, P_j⟩ message
// (Algorithm 5).
func (a *algo) receiveRequest(c *ctx, n *Node) {
	m, j := c.Msg(), c.From()
	n.PendingReq[m.At] = n.PendingReq[m.At].Add(m.TS, j)
	if a.cond(c.Self(), n, m.At) {
		grantMin(c, n, m.At)
	} else if n.Preempting[m.At] == NilStamp {
		tsh, h, ok := n.GrantedTo[m.At].Max()
		if !ok {
			n.Undefined = true
			return
		}
		if lmutin.Less(m.TS, j, tsh, h) {
			n.Preempting[m.At] = Stamp{TS: tsh, P: int8(h)}
			c.Send(h, Msg{Kind: Preempt, At: m.At})
		}
	}
}

// receiveGrant: On receipt of a ⟨Grant, at, P_j⟩ message.
func receiveGrant(c *ctx, n *Node) {
	at := c.Msg().At
	n.NGrants[at] = n.NGrants[at].Add(c.From())
}

// receiveRelease: On receipt of a ⟨Release, at, P_j⟩ message.
func receiveRelease(c *ctx, n *Node) {
	at, j := c.Msg().At, c.From()
	if n.Preempting[at].P == int8(j) {
		n.Preempting[at] = NilStamp
	}
	n.GrantedTo[at].DeleteProc(j)
	if !n.PendingReq[at].Empty() {
		grantMin(c, n, at)
	}
}

// receivePreempt: On receipt of a ⟨Preempt, at, P_j⟩ message.
func receivePreempt(c *ctx, n *Node) {
	at := c.Msg().At
	if at == MUTEX && n.State == OutCS || at == MUTIN && n.State == InCS {
		n.NGrants[at] = n.NGrants[at].Remove(c.From())
		c.Send(c.From(), Msg{Kind: Relinquish, At: at})
	}
}

// receiveRelinquish: On receipt of a ⟨Relinquish, at, P_j⟩ message. When
// the delete removes no item or several, Undefined is set and every
// deleted item goes back to pendingReq_i[at].
func receiveRelinquish(c *ctx, n *Node) {
	at, j := c.Msg().At, c.From()
	n.Preempting[at] = NilStamp
	del := n.GrantedTo[at].DeleteProc(j)
	if bits.OnesCount16(del) != 1 {
		n.Undefined = true
	}
	n.PendingReq[at][j] |= del
	grantMin(c, n, at)
}
