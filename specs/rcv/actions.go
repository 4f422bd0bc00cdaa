package rcv

import "github.com/mxcheck/mxcheck/model"

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

// The actions' names, each written once; variants replace actions by name.
const (
	actRequestCS = "RequestCS"
	actReceiveEM = "ReceiveEM"
	actReleaseCS = "ReleaseCS"
	actReceiveIM = "ReceiveIM"
	actReceiveRM = "ReceiveRM"
)

func isKind(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }

// faithfulActions is the MPM algorithm (Section 4.1). "Select an unvisited
// node randomly" (lines 12 and 51) is the adversary's choice: one instance
// of RequestCS per target node, and one instance of ReceiveRM per
// forwarding target next to the one that does not forward (MaxN targets;
// a guard refuses the targets a configuration lacks).
func faithfulActions() []action {
	p := faithfulProcs
	var out []action
	for h := 0; h < MaxN; h++ {
		out = append(out, requestCS(model.NodeID(h)))
	}
	out = append(out, receiveEM(p), releaseCS(sendNextEM), receiveIM(p))
	return append(out, receiveRM(p)...)
}

// snapshot is "a message with newest MONL and MSIT copy from SIi".
func snapshot(k Kind, n *Node) Msg { return Msg{Kind: k, MONL: n.NONL, MSIT: n.NSIT} }

// requestCS is MPM lines 3–13, sending the RM to h.
func requestCS(h model.NodeID) action {
	return action{
		Name: actRequestCS,
		Kind: model.Request,
		// Section 3: a node requests only with no outstanding request.
		Guard: func(c *ctx, n *Node) bool { return n.Phase == Idle && h != c.Self() && int(h) < c.Nodes() },
		Do: func(c *ctx, n *Node) {
			i := c.Self()
			n.Phase = Waiting
			// 4. SIi.NSIT[i].TS++
			n.NSIT[i].TS++
			n.ReqTS = n.NSIT[i].TS
			// 5. append ⟨i, SIi.NSIT[i].TS⟩ to SIi.NSIT[i].MNL
			if !n.NSIT[i].MNL.Append(Tuple{ID: i, TS: n.ReqTS}) {
				n.Overflow = true
			}
			// 6-11. Host = i; UL = all nodes − Ni; MONL = SIi.NONL;
			//       MSIT = SIi.NSIT
			m := snapshot(RM, n)
			m.Host, m.HostTS = i, n.ReqTS
			m.UL = model.FullSet(c.Nodes()).Remove(i)
			// 12. select an unvisited node (h, the adversary's choice) and
			//     delete it from UL; 13. send the message to it
			m.UL = m.UL.Remove(h)
			c.Send(h, m)
		},
	}
}

// receiveEM is MPM lines 14–16.
func receiveEM(p procs) action {
	return action{
		Name: actReceiveEM,
		Kind: model.Receive,
		On:   isKind(EM),
		Do: func(c *ctx, n *Node) {
			i, m := c.Self(), c.Msg()
			// 15. call Exchange to update SIi
			p.exchange(i, c.Nodes(), n, m.MONL, m.MSIT)
			// Section 4.3 / Lemma 8: on an EM, the tuples preceding
			// ⟨i, ti⟩ have finished and are deleted from NONLi.
			if k := n.NONL.Index(Tuple{ID: i, TS: n.ReqTS}); k > 0 {
				n.NONL.DropThrough(k - 1)
			}
			// 16. enter the CS
			n.Phase = InCS
			n.Cost = m.Cost
		},
	}
}

// sendNextEM is MPM lines 20–24: EM to Next, if any, and Next = NULL.
func sendNextEM(c *ctx, n *Node) {
	if n.Next != NoNext {
		em := snapshot(EM, n)
		em.Cost = n.NextCost + 1
		c.Send(model.NodeID(n.Next), em)
		n.Next, n.NextCost = NoNext, 0
	}
}

// releaseCS is MPM lines 17–24; next does lines 20–24.
func releaseCS(next func(c *ctx, n *Node)) action {
	return action{
		Name:  actReleaseCS,
		Kind:  model.Exit,
		Guard: func(_ *ctx, n *Node) bool { return n.Phase == InCS },
		Do: func(c *ctx, n *Node) {
			i := c.Self()
			n.Phase = Idle
			// 18. SIi.NSIT[i].TS++
			n.NSIT[i].TS++
			// 19. delete i (its tuple ⟨i, ti⟩) from SIi.NONL
			n.NONL.Delete(Tuple{ID: i, TS: n.ReqTS})
			next(c, n)
		},
	}
}

// receiveIM is MPM lines 25–32. Lemma 1's proof: "When a message (RM, EM or
// IM) arrives in a node, it will firstly processed by the Exchange
// procedure".
func receiveIM(p procs) action {
	return action{
		Name: actReceiveIM,
		Kind: model.Receive,
		On:   isKind(IM),
		Do: func(c *ctx, n *Node) {
			i, m := c.Self(), c.Msg()
			p.exchange(i, c.Nodes(), n, m.MONL, m.MSIT)
			imNext(c, n, m)
		},
	}
}

// imNext is MPM lines 26–32 for an IM naming j = m.Next. Line 26 reads
// "if (tuple ⟨i, ti⟩ which immediately precedes tuple ⟨j, tj⟩ is not in the
// list of SIi.NONL)": the tuple of i that precedes j's, which the IM's MONL
// (the ordering node's NONL) shows.
func imNext(c *ctx, n *Node, m Msg) {
	imDecide(c, n, m, predecessorIn(&m.MONL, m.Next))
}

// predecessorIn returns the tuple immediately preceding j's last tuple in
// l, or the zero Tuple when j's tuple is missing or on top.
func predecessorIn(l *List, j model.NodeID) Tuple {
	for k := int(l.Len) - 1; k > 0; k-- {
		if l.T[k].ID == j {
			return l.T[k-1]
		}
	}
	return Tuple{}
}

// imDecide is MPM lines 26–32 once ⟨i, ti⟩ is known.
func imDecide(c *ctx, n *Node, m Msg, own Tuple) {
	// 26. if ⟨i, ti⟩ is not in SIi.NONL (this node has finished the CS)
	if own == (Tuple{}) || !n.NONL.Has(own) {
		// 28-29. send an EM with newest MONL and MSIT to j
		em := snapshot(EM, n)
		em.Cost = m.Cost + 1
		c.Send(m.Next, em)
		return
	}
	// 31. set SIi.Next = j
	n.Next, n.NextCost = uint8(m.Next), m.Cost
}

// rmOutcome is what MPM lines 34–37 decide for an RM.
type rmOutcome struct {
	beOrdered, highest bool
	// own is the tuple of the RM's host that Order ordered or found.
	own Tuple
}

// processRM runs MPM lines 34–37 on n for RM m at node i.
func processRM(p procs, i model.NodeID, nodes int, n *Node, m Msg) rmOutcome {
	k, tk := m.Host, m.HostTS
	// 34. call Exchange to update SIi
	p.exchange(i, nodes, n, m.MONL, m.MSIT)
	// 35. append ⟨k, tk⟩ to SIi.NSIT[i].MNL
	if !n.NSIT[i].MNL.Append(Tuple{ID: k, TS: tk}) {
		n.Overflow = true
	}
	// 36. SIi.NSIT[i].TS = max over h of SIi.NSIT[h].TS + 1
	top := uint8(0)
	for h := 0; h < nodes; h++ {
		top = max(top, n.NSIT[h].TS)
	}
	n.NSIT[i].TS = top + 1
	// 37. call Order
	be, hi, own := p.order(i, nodes, n, k, tk)
	return rmOutcome{beOrdered: be, highest: hi, own: own}
}

// rmForwards reports whether RM m at node n is forwarded to h: MPM lines
// 34–37 leave it unordered and h is one of p.targets. Guards run it on a
// copy of the node.
func rmForwards(p procs, c *ctx, n *Node, h model.NodeID) bool {
	x := *n
	m := c.Msg()
	return !processRM(p, c.Self(), c.Nodes(), &x, m).beOrdered && p.targets(c.Self(), c.Nodes(), m).Has(h)
}

// receiveRM is MPM lines 33–53: one instance per forwarding target h
// (lines 46–53) and one for the RM that is ordered (lines 38–45) or that has
// nowhere to go.
func receiveRM(p procs) []action {
	var out []action
	out = append(out, action{
		Name: actReceiveRM,
		Kind: model.Receive,
		On:   isKind(RM),
		Guard: func(c *ctx, n *Node) bool {
			x := *n
			m := c.Msg()
			return processRM(p, c.Self(), c.Nodes(), &x, m).beOrdered || p.targets(c.Self(), c.Nodes(), m).Empty()
		},
		Do: func(c *ctx, n *Node) {
			i, m := c.Self(), c.Msg()
			o := processRM(p, i, c.Nodes(), n, m)
			if !o.beOrdered {
				// Line 51 has no unvisited node to choose: the RM is
				// dropped (Lemma 3 says this cannot happen).
				n.Stranded = true
				return
			}
			// The RM has been sent N−1−|UL| times (line 13, then line 53).
			cost := uint8(c.Nodes()-1-m.UL.Len()) + 1
			// 39. if Highest_Priority then
			if o.highest {
				// 40-41. EM with newest MONL and MSIT to node k
				em := snapshot(EM, n)
				em.Cost = cost
				c.Send(m.Host, em)
				return
			}
			// 44. send an IM to k's immediate preceding node in NONL
			at := n.NONL.Index(o.own)
			im := snapshot(IM, n)
			im.Next, im.Cost = m.Host, cost
			c.Send(n.NONL.T[at-1].ID, im)
		},
	})
	for h := 0; h < MaxN; h++ {
		h := model.NodeID(h)
		out = append(out, action{
			Name:  actReceiveRM,
			Kind:  model.Receive,
			On:    isKind(RM),
			Guard: func(c *ctx, n *Node) bool { return rmForwards(p, c, n, h) },
			Do: func(c *ctx, n *Node) {
				i, m := c.Self(), c.Msg()
				processRM(p, i, c.Nodes(), n, m)
				// 47-53. RM' with Host' = k, MONL' = SIi.NONL,
				//        MSIT' = SIi.NSIT, UL' = UL − Nh, sent to h
				f := snapshot(RM, n)
				f.Host, f.HostTS = m.Host, m.HostTS
				f.UL = p.targets(i, c.Nodes(), m).Remove(h)
				c.Send(h, f)
			},
		})
	}
	return out
}
