package lkcs

import (
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lmutin"
)

type variants = model.Variants[Node, Msg]

// variantsOf returns the readings of the paper and the repairs (--variant)
// on configuration a; the first is the default. Their actions close over a
// (a nil a serves to list the names).
func variantsOf(a *algo) variants {
	return variants{
		{Name: "faithful", Usage: "Algorithms 3–7 as printed; grantedTo_i[MUTIN] initially the OutCS processes of N_i ∪ {P_i}"},
		{
			Name:    "no-trigger",
			Usage:   "the leader never calls TriggerNomination",
			Actions: []action{{Name: "TriggerNomination", Guard: func(*ctx, *Node) bool { return false }, Do: func(*ctx, *Node) {}}},
		},
		{
			Name: "init-as-printed",
			Usage: "grantedTo_i[at] initially {(1, P_j) : P_j ∈ CS_i(C_0)} for both parts, exactly as Algorithm 3 prints it " +
				"(the definition of grantedTo_i[MUTIN] says the OutCS processes)",
			Edit: func(p *model.Protocol[Node, Msg]) {
				p.Init = func(i model.NodeID, _ *model.Config) Node {
					n := a.init(i)
					n.GrantedTo[MUTIN] = n.GrantedTo[MUTEX]
					return n
				}
			},
		},
		{
			Name: "preempt-carries-ts",
			Usage: "repair (from lmutin): Preempt carries the timestamp of the grant it preempts, and a process " +
				"relinquishes only while it waits in the sequence of that timestamp",
			Actions: a.preemptTSActions(),
		},
		{
			Name: "trigger-when-full",
			Usage: "repair: TriggerNomination tests the grant sets against the bounds Cond_LDR uses " +
				"(|grantedTo[MUTIN]| = |N_LDR| − L_LDR + 1, |grantedTo[MUTEX]| = K_LDR) instead of one below them",
			Actions: []action{a.triggerAction("TriggerNomination", a.nominateWhenFull)},
		},
		{
			Name: "trigger-repaired",
			Usage: "repair: trigger-when-full, and the leader's `wait until` also ends when its own grants " +
				"are all in (it no longer blocks the sequence it interrupted)",
			Actions: []action{
				a.triggerAction("TriggerNomination", a.nominateWhenFull),
				{
					Name: "TriggerWaitUntil",
					Guard: func(c *ctx, n *Node) bool {
						i := c.Self()
						return n.TriggerWait && (waitingLDR(n) < a.closedSize(i) || n.NGrants[n.Seq.at()].Len() >= a.closedSize(i))
					},
					Do: func(_ *ctx, n *Node) { n.TriggerWait = false },
				},
			},
		},
		{
			Name: "trigger-retry",
			Usage: "repair: trigger-repaired, and a TriggerNomination that finds nobody to trigger sends nothing " +
				"and does not wait (the leader calls it again when Waiting_LDR is still full)",
			Actions: a.retryActions(),
		},
		{
			Name:    "repaired",
			Usage:   "the complete repair: trigger-retry and preempt-carries-ts together",
			Actions: append(a.retryActions(), a.preemptTSActions()...),
		},
	}
}

// preemptTSActions are the handlers of variant preempt-carries-ts.
func (a *algo) preemptTSActions() []action {
	return []action{
		{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: a.receiveRequestPreemptTS},
		{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: receivePreemptTS},
	}
}

// nominateWhenFull is TriggerNomination with its tests at the bounds
// Cond_LDR uses (variants trigger-when-full and trigger-repaired).
func (a *algo) nominateWhenFull(c *ctx, n *Node) {
	i := c.Self()
	a.nominate(c, n, a.g.Degree(i)-a.L(i)+1, a.K(i))
}

// receiveRequestPreemptTS is receiveRequest with the preempted grant's
// timestamp in the Preempt (variant preempt-carries-ts).
func (a *algo) receiveRequestPreemptTS(c *ctx, n *Node) {
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
			c.Send(h, Msg{Kind: Preempt, At: m.At, TS: tsh})
		}
	}
}

// receivePreemptTS relinquishes only a grant of the sequence the process
// waits in (variant preempt-carries-ts).
func receivePreemptTS(c *ctx, n *Node) {
	m := c.Msg()
	waiting := m.At == MUTEX && n.State == OutCS && n.Seq == Entering ||
		m.At == MUTIN && n.State == InCS && n.Seq == Exiting
	if waiting && m.TS == n.TS {
		n.NGrants[m.At] = n.NGrants[m.At].Remove(c.From())
		c.Send(c.From(), Msg{Kind: Relinquish, At: m.At})
	}
}

// mutantsOf returns the deliberate bugs the checker must catch (--mutant)
// on configuration a; the first is none.
func mutantsOf(a *algo) variants {
	return variants{
		{Name: "none", Usage: "no mutant"},
		{
			Name:  "grant-without-cond",
			Usage: "ReceiveRequest grants without checking Cond_i",
			Actions: []action{{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: func(c *ctx, n *Node) {
				m := c.Msg()
				n.PendingReq[m.At] = n.PendingReq[m.At].Add(m.TS, c.From())
				grantMin(c, n, m.At)
			}}},
		},
		{
			Name:  "relinquish-keeps-grant",
			Usage: "ReceivePreempt sends Relinquish but keeps P_j in nGrants_i[at]",
			Actions: []action{{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: func(c *ctx, n *Node) {
				at := c.Msg().At
				if at == MUTEX && n.State == OutCS || at == MUTIN && n.State == InCS {
					c.Send(c.From(), Msg{Kind: Relinquish, At: at})
				}
			}}},
		},
		{
			Name:    "trigger-wrong-candidate",
			Usage:   "TriggerNomination sends the Trigger to the largest pending request instead of deleteMin's",
			Actions: []action{a.triggerAction("TriggerNomination", a.triggerNominationMax)},
		},
	}
}

// triggerNominationMax is TriggerNomination with max for deleteMin on the
// pending requests (mutant trigger-wrong-candidate).
func (a *algo) triggerNominationMax(c *ctx, n *Node) {
	i := c.Self()
	for _, at := range []At{MUTEX, MUTIN} {
		full := at == MUTEX && n.GrantedTo[MUTIN].Len() == a.g.Degree(i)-a.L(i) ||
			at == MUTIN && n.GrantedTo[MUTEX].Len() == a.K(i)-1
		if !full {
			continue
		}
		if ts, h, ok := n.PendingReq[at].Max(); ok {
			n.PendingReq[at][h] &^= 1 << ts
			c.Send(h, Msg{Kind: Trigger, At: at, TS: ts})
			return
		}
		a.triggerNomination(c, n)
		return
	}
}
