package lkcs

import "github.com/mxcheck/mxcheck/model"

// The variant trigger-retry: trigger-repaired, and a TriggerNomination that
// finds no process to trigger sends nothing and does not wait (min(∅)
// is read as "nobody"), so the leader calls it again once its view of
// Waiting_LDR and grantedTo_LDR has changed. The faithful
// TriggerNomination waits after every call; when its view was stale (a
// Release or Request to itself still in transit) the call finds no
// candidate and the wait never ends (finding 3 of doc.go).

// retryActions are the leader's actions of variant trigger-retry.
func (a *algo) retryActions() []action {
	return []action{
		{
			Name: "TriggerNomination",
			Guard: func(c *ctx, n *Node) bool {
				i := c.Self()
				return n.Seq != Idle && !n.TriggerWait && n.NGrants[n.Seq.at()].Len() < a.closedSize(i) &&
					i == a.leader && waitingLDR(n) == a.closedSize(i)
			},
			Do: func(c *ctx, n *Node) {
				i := c.Self()
				at, ts, h, ok := a.nominee(n, a.g.Degree(i)-a.L(i)+1, a.K(i))
				if !ok {
					return
				}
				n.PendingReq[at][h] &^= 1 << ts
				c.Send(h, Msg{Kind: Trigger, At: at, TS: ts})
				n.TriggerWait = true
				n.Nominee = 1 + uint8(h) + 8*uint8(at)
			},
		},
		{
			Name: "TriggerWaitUntil",
			Guard: func(c *ctx, n *Node) bool {
				i := c.Self()
				return n.TriggerWait && (waitingLDR(n) < a.closedSize(i) || n.NGrants[n.Seq.at()].Len() >= a.closedSize(i) ||
					n.GrantedTo[(n.Nominee-1)/8].Has(0, model.NodeID((n.Nominee-1)%8)))
			},
			Do: func(_ *ctx, n *Node) { n.TriggerWait, n.Nominee = false, 0 },
		},
	}
}

// repairedWait is the `wait until` of variant trigger-repaired: it also
// ends when the leader's own grants are all in.
func (a *algo) repairedWait() action {
	return action{
		Name: "TriggerWaitUntil",
		Guard: func(c *ctx, n *Node) bool {
			i := c.Self()
			return n.TriggerWait && (waitingLDR(n) < a.closedSize(i) || n.NGrants[n.Seq.at()].Len() >= a.closedSize(i))
		},
		Do: func(_ *ctx, n *Node) { n.TriggerWait = false },
	}
}

// nominee is the choice of Algorithm 6 with its tests |grantedTo_LDR
// [MUTIN]| = mutin and |grantedTo_LDR[MUTEX]| = mutex, without side
// effects: the part of the Trigger, the request it names and whether there
// is one. A request taken from pendingReq_LDR is deleted by the caller.
func (a *algo) nominee(n *Node, mutin, mutex int) (at At, ts uint8, h model.NodeID, ok bool) {
	switch {
	case n.GrantedTo[MUTIN].Len() == mutin:
		if ts, h, ok := n.PendingReq[MUTEX].Min(); ok {
			return MUTEX, ts, h, true
		}
		ts, h, ok := candidates(n, 0)
		return MUTEX, ts, h, ok
	case n.GrantedTo[MUTEX].Len() == mutex:
		if ts, h, ok := n.PendingReq[MUTIN].Min(); ok {
			return MUTIN, ts, h, true
		}
		ts, h, ok := candidates(n, 1)
		return MUTIN, ts, h, ok
	}
	return 0, 0, 0, false
}
