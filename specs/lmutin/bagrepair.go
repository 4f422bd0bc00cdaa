package lmutin

import "github.com/mxcheck/mxcheck/model"

// The variant release-carries-ts repairs l-LMUTIN for bag channels. With
// bags a process's Request can overtake the Release it sent before it:
// grantedTo_i then holds two items of P_j, the old one (for the exit P_j
// has completed) and the new one, and "Delete (*, P_j)" on the late
// Release (or on a Relinquish) deletes both, so P_i grants a permission
// P_j still holds and lk-safety breaks (testdata/bag.txt). The repair
// names the item: a Release carries the timestamp of the exit whose grant
// it releases, a Relinquish the timestamp of the Preempt it answers
// (preempt-carries-ts), and each deletes only (ts, P_j); preemptingNow_i
// holds the preempted grant's timestamp, as LKCS's does (Algorithm 5),
// so that a Release of P_j's other grant does not end the preemption.
// It is kept in PreemptingNow as P_h + 8·ts_h (P_h < MaxProcs ≤ 8, ts_h ≤
// MaxTS ≤ 15: at most 127).

// stamp encodes (ts, P_h) in PreemptingNow (variant release-carries-ts).
func stamp(ts uint8, h model.NodeID) int8 { return int8(h) + 8*int8(ts) }

// bagRepairActions are preempt-carries-ts's handlers with the named
// deletes.
func (a *algo) bagRepairActions() []action {
	return []action{
		{
			Name:  "EntrySequence",
			Guard: func(_ *ctx, n *Node) bool { return n.State == OutCS && n.Seq == Idle },
			Do: func(c *ctx, n *Node) {
				n.State = InCS
				a.sendAll(c, Msg{Kind: Release, TS: n.TS})
			},
		},
		{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: func(c *ctx, n *Node) {
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
					n.PreemptingNow = stamp(tsh, h)
					c.Send(h, Msg{Kind: Preempt, TS: tsh})
				}
			}
		}},
		{Name: "ReceiveRelease", Kind: model.Receive, On: is(Release), Do: func(c *ctx, n *Node) {
			j, ts := c.From(), c.Msg().TS
			if n.PreemptingNow == stamp(ts, j) {
				n.PreemptingNow = Nil
			}
			if !n.GrantedTo.Has(ts, j) {
				n.Undefined = true
			}
			n.GrantedTo[j] &^= 1 << ts
			if !n.PendingReq.Empty() {
				grantMin(c, n)
			}
		}},
		{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: func(c *ctx, n *Node) {
			if n.State == InCS && n.Seq == Exiting && n.TS == c.Msg().TS {
				n.NGrants--
				c.Send(c.From(), Msg{Kind: Relinquish, TS: n.TS})
			}
		}},
		{Name: "ReceiveRelinquish", Kind: model.Receive, On: is(Relinquish), Do: func(c *ctx, n *Node) {
			j, ts := c.From(), c.Msg().TS
			n.PreemptingNow = Nil
			if !n.GrantedTo.Has(ts, j) {
				n.Undefined = true
			} else {
				n.GrantedTo[j] &^= 1 << ts
				n.PendingReq = n.PendingReq.Add(ts, j)
			}
			grantMin(c, n)
		}},
	}
}
