package lmutin

import (
	"math/bits"

	"github.com/mxcheck/mxcheck/model"
)

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

// algo is l_i-LMUTIN on one configuration: the graph, each l_i and the
// processes in the CS in C_0.
type algo struct {
	g  Graph
	l  []int
	cs model.NodeSet
}

// init is the initial local state of Algorithm 1. grantedTo_i holds
// (0, P_j) for every P_j ∈ N_i ∪ {P_i} that is OutCS in C_0: the processes
// out of the CS hold the permission to be out, by the definition of
// grantedTo_i (Algorithm 1 prints CS_i(C_0); see doc.go and the variant
// init-as-printed).
func (a *algo) init(i model.NodeID) Node {
	n := Node{State: OutCS, PreemptingNow: Nil}
	if a.cs.Has(i) {
		n.State = InCS
	}
	for _, j := range (a.g.Closed(i) &^ a.cs).All() {
		n.GrantedTo = n.GrantedTo.Add(0, j)
	}
	return n
}

// deg is |N_i| of the acting process.
func (a *algo) deg(c *ctx) int { return a.g.Degree(c.Self()) }

// sendAll sends m to every P_j ∈ N_i ∪ {P_i}, in id order.
func (a *algo) sendAll(c *ctx, m Msg) {
	for _, j := range a.g.Closed(c.Self()).All() {
		c.Send(j, m)
	}
}

// grantMin is the block `(ts_h, P_h) := deleteMin(pendingReq_i);
// grantedTo_i := grantedTo_i ∪ {(ts_h, P_h)}; send ⟨Grant⟩ to P_h`.
func grantMin(c *ctx, n *Node) {
	ts, h, ok := n.PendingReq.DeleteMin()
	if !ok {
		n.Undefined = true
		return
	}
	n.GrantedTo = n.GrantedTo.Add(ts, h)
	c.Send(h, Msg{Kind: Grant})
}

// actions returns the faithful action table of Algorithm 2, in the
// paper's order: the exit sequence (split at its `wait until`), the entry
// sequence, and the five message handlers.
func (a *algo) actions() []action {
	return []action{
		{
			// Exit-Sequence, up to its `wait until`: the application
			// calls it in the CS.
			Name:  "ExitSequence",
			Kind:  model.Request,
			Guard: func(_ *ctx, n *Node) bool { return n.State == InCS && n.Seq == Idle },
			Do: func(c *ctx, n *Node) {
				n.TS++
				n.NGrants = 0
				a.sendAll(c, Msg{Kind: Request, TS: n.TS})
				n.Seq = Exiting
			},
		},
		{
			// wait until (nGrants_i = |N_i|+1); state_i := OutCS.
			Name: "ExitWaitUntil",
			Guard: func(c *ctx, n *Node) bool {
				return n.Seq == Exiting && int(n.NGrants) == a.deg(c)+1
			},
			Do: func(_ *ctx, n *Node) {
				n.State = OutCS
				n.Seq = Idle
			},
		},
		{
			// Entry-Sequence: state_i := InCS; send ⟨Release, P_i⟩ to
			// N_i ∪ {P_i}. It never waits, and §2.2's loop invokes it as
			// soon as the process is OutCS: a local action, weakly fair,
			// not counted by --exits.
			Name:  "EntrySequence",
			Guard: func(_ *ctx, n *Node) bool { return n.State == OutCS && n.Seq == Idle },
			Do: func(c *ctx, n *Node) {
				n.State = InCS
				a.sendAll(c, Msg{Kind: Release})
			},
		},
		{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: a.receiveRequest},
		{
			Name: "ReceiveGrant",
			Kind: model.Receive,
			On:   is(Grant),
			Do:   func(_ *ctx, n *Node) { n.NGrants++ },
		},
		{Name: "ReceiveRelease", Kind: model.Receive, On: is(Release), Do: receiveRelease},
		{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: receivePreempt},
		{Name: "ReceiveRelinquish", Kind: model.Receive, On: is(Relinquish), Do: receiveRelinquish},
	}
}

// receiveRequest: On receipt of a ⟨Request, ts_j, P_j⟩ message.
func (a *algo) receiveRequest(c *ctx, n *Node) {
	j, tsj := c.From(), c.Msg().TS
	n.PendingReq = n.PendingReq.Add(tsj, j)
	if n.GrantedTo.Len() < a.deg(c)-a.l[c.Self()]+1 {
		grantMin(c, n)
	} else if n.PreemptingNow == Nil {
		tsh, h, ok := n.GrantedTo.Max()
		if !ok {
			n.Undefined = true
			return
		}
		if Less(tsj, j, tsh, h) {
			n.PreemptingNow = int8(h)
			c.Send(h, Msg{Kind: Preempt})
		}
	}
}

// receiveRelease: On receipt of a ⟨Release, P_j⟩ message.
func receiveRelease(c *ctx, n *Node) {
	j := c.From()
	if n.PreemptingNow == int8(j) {
		n.PreemptingNow = Nil
	}
	n.GrantedTo.DeleteProc(j)
	if !n.PendingReq.Empty() {
		grantMin(c, n)
	}
}

// receivePreempt: On receipt of a ⟨Preempt, P_j⟩ message.
func receivePreempt(c *ctx, n *Node) {
	if n.State == InCS {
		n.NGrants--
		c.Send(c.From(), Msg{Kind: Relinquish})
	}
}

// receiveRelinquish: On receipt of a ⟨Relinquish, P_j⟩ message. "Delete
// (*, P_j) from grantedTo_i, and let (ts_j, P_j) be the deleted item": when
// no item or several items are deleted, the ghost Undefined is set and
// every deleted item goes back to pendingReq_i.
func receiveRelinquish(c *ctx, n *Node) {
	j := c.From()
	n.PreemptingNow = Nil
	del := n.GrantedTo.DeleteProc(j)
	if bits.OnesCount16(del) != 1 {
		n.Undefined = true
	}
	n.PendingReq[j] |= del
	grantMin(c, n)
}
