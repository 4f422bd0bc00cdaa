package lmutin

import (
	"github.com/mxcheck/mxcheck/model"
)

type variants = model.Variants[Node, Msg]

// variantsOf returns the readings of the paper and the repairs (--variant)
// on configuration a; the first is the default. Their actions close over a
// (a nil a serves to list the names).
func variantsOf(a *algo) variants {
	return variants{
		{Name: "faithful", Usage: "Algorithms 1–2 as printed, grantedTo_i initially the OutCS processes of N_i ∪ {P_i}"},
		{
			Name: "init-as-printed",
			Usage: "grantedTo_i initially {(0, P_j) : P_j ∈ CS_i(C_0)} exactly as Algorithm 1 prints it " +
				"(the definition of grantedTo_i says the OutCS processes)",
			Edit: func(p *model.Protocol[Node, Msg]) {
				p.Init = func(i model.NodeID, _ *model.Config) Node {
					n := a.init(i)
					n.GrantedTo = TSet{}
					for _, j := range (a.g.Closed(i) & a.cs).All() {
						n.GrantedTo = n.GrantedTo.Add(0, j)
					}
					return n
				}
			},
		},
		{
			Name:  "lamport-clock",
			Usage: "ReceiveRequest also advances the logical clock: ts_i := max(ts_i, ts_j) (Lemma 2's proof)",
			Actions: []action{{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: func(c *ctx, n *Node) {
				n.TS = max(n.TS, c.Msg().TS)
				a.receiveRequest(c, n)
			}}},
		},
		{
			Name: "preempt-carries-ts",
			Usage: "repair: Preempt carries the timestamp of the grant it preempts, and a process relinquishes " +
				"only while it waits in the exit sequence of that timestamp (a stale Preempt is ignored)",
			Actions: []action{
				{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: a.receiveRequestPreemptTS},
				{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: func(c *ctx, n *Node) {
					if n.State == InCS && n.Seq == Exiting && n.TS == c.Msg().TS {
						n.NGrants--
						c.Send(c.From(), Msg{Kind: Relinquish})
					}
				}},
			},
		},
		{
			Name: "release-carries-ts",
			Usage: "repair for bag channels: preempt-carries-ts, and Release and Relinquish carry the timestamp " +
				"of the grant they give back, so each deletes that one item (not (*, P_j))",
			Actions: a.bagRepairActions(),
		},
	}
}

// receiveRequestPreemptTS is receiveRequest with the timestamp of the
// preempted grant in the Preempt message (variant preempt-carries-ts).
func (a *algo) receiveRequestPreemptTS(c *ctx, n *Node) {
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
			c.Send(h, Msg{Kind: Preempt, TS: tsh})
		}
	}
}

// mutantsOf returns the deliberate bugs the checker must catch (--mutant) on
// configuration a; the first is none.
func mutantsOf(a *algo) variants {
	return variants{
		{Name: "none", Usage: "no mutant"},
		{
			Name:  "grant-ignores-bound",
			Usage: "ReceiveRequest grants without checking |grantedTo_i| < |N_i| − l_i + 1",
			Actions: []action{{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: func(c *ctx, n *Node) {
				n.PendingReq = n.PendingReq.Add(c.Msg().TS, c.From())
				grantMin(c, n)
			}}},
		},
		{
			Name:  "relinquish-keeps-grant",
			Usage: "ReceivePreempt sends Relinquish but keeps the grant (nGrants_i not decremented)",
			Actions: []action{{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: func(c *ctx, n *Node) {
				if n.State == InCS {
					c.Send(c.From(), Msg{Kind: Relinquish})
				}
			}}},
		},
		{
			Name:  "release-keeps-grant",
			Usage: "ReceiveRelease never deletes (*, P_j) from grantedTo_i",
			Actions: []action{{Name: "ReceiveRelease", Kind: model.Receive, On: is(Release), Do: func(c *ctx, n *Node) {
				if n.PreemptingNow == int8(c.From()) {
					n.PreemptingNow = Nil
				}
				if !n.PendingReq.Empty() {
					grantMin(c, n)
				}
			}}},
		},
	}
}
