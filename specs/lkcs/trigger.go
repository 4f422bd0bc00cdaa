package lkcs

import "github.com/mxcheck/mxcheck/model"

// triggerNomination is the function TriggerNomination() of Algorithm 6,
// run by the leader. candidate_LDR is local to it (emptied before it
// returns). When the candidate set is empty, min is undefined: Undefined
// is set and no Trigger is sent.
func (a *algo) triggerNomination(c *ctx, n *Node) {
	i := c.Self()
	a.nominate(c, n, a.g.Degree(i)-a.L(i), a.K(i)-1)
}

// nominate is the body of TriggerNomination with its two tests,
// |grantedTo_LDR[MUTIN]| = mutin and |grantedTo_LDR[MUTEX]| = mutex, as
// parameters (Algorithm 6: mutin = |N_LDR| − L_LDR, mutex = K_LDR − 1).
func (a *algo) nominate(c *ctx, n *Node, mutin, mutex int) {
	switch {
	case n.GrantedTo[MUTIN].Len() == mutin:
		var ts uint8
		var h model.NodeID
		var ok bool
		if !n.PendingReq[MUTEX].Empty() {
			ts, h, ok = n.PendingReq[MUTEX].DeleteMin()
		} else {
			// P_j may be waiting for grant messages to enter.
			ts, h, ok = candidates(n, 0)
		}
		if !ok {
			n.Undefined = true
			return
		}
		c.Send(h, Msg{Kind: Trigger, At: MUTEX, TS: ts})
	case n.GrantedTo[MUTEX].Len() == mutex:
		var ts uint8
		var h model.NodeID
		var ok bool
		if !n.PendingReq[MUTIN].Empty() {
			ts, h, ok = n.PendingReq[MUTIN].DeleteMin()
		} else {
			// P_j may be waiting for grant messages to exit.
			ts, h, ok = candidates(n, 1)
		}
		if !ok {
			n.Undefined = true
			return
		}
		c.Send(h, Msg{Kind: Trigger, At: MUTIN, TS: ts})
	}
}

// candidates returns min(candidate_LDR), where candidate_LDR is every
// (ts_j, P_j) with P_j ∈ Grant_LDR, (ts_j + d, P_j) ∈
// grantedTo_LDR[MUTIN] and (ts_j, P_j) ∈ grantedTo_LDR[MUTEX]: d = 0 for
// a process that may be waiting to enter, d = 1 for one that may be
// waiting to exit. ok is false when the set is empty.
func candidates(n *Node, d uint8) (ts uint8, h model.NodeID, ok bool) {
	var cand [len(n.GrantedTo[0])]uint16
	for _, j := range grantLDR(n).All() {
		// bit t of the MUTEX item set with bit t+d in the MUTIN set.
		cand[j] = n.GrantedTo[MUTEX][j] & (n.GrantedTo[MUTIN][j] >> d)
	}
	for t := 0; t < 16; t++ {
		for j, b := range cand {
			if b&(1<<t) != 0 {
				return uint8(t), model.NodeID(j), true
			}
		}
	}
	return 0, 0, false
}

// receiveTrigger: On receipt of a ⟨Trigger, at, ts⟩ message
// (Algorithm 7).
func (a *algo) receiveTrigger(c *ctx, n *Node) {
	m, i := c.Msg(), c.Self()
	switch {
	case n.State == InCS && m.At == MUTIN && m.TS == n.TS && n.NGrants[MUTIN].Len() < a.closedSize(i):
		// P_i is waiting for grant messages to exit.
		n.NGrants[MUTIN] = 0
		a.sendAll(c, Msg{Kind: RequestByTrigger, At: MUTIN})
	case n.State == OutCS && m.At == MUTEX && m.TS == n.TS && n.NGrants[MUTEX].Len() < a.closedSize(i):
		// P_i is waiting for grant messages to enter.
		n.NGrants[MUTEX] = 0
		a.sendAll(c, Msg{Kind: RequestByTrigger, At: MUTEX})
	}
}

// receiveRequestByTrigger: On receipt of a ⟨RequestByTrigger, at, P_j⟩
// message: a grant without Cond_i, recorded with timestamp 0.
func receiveRequestByTrigger(c *ctx, n *Node) {
	at, j := c.Msg().At, c.From()
	n.PendingReq[at].DeleteProc(j)
	n.GrantedTo[at].DeleteProc(j)
	n.GrantedTo[at] = n.GrantedTo[at].Add(0, j)
	c.Send(j, Msg{Kind: Grant, At: at})
}
