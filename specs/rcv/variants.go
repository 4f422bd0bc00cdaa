package rcv

import "github.com/mxcheck/mxcheck/model"

type variant = model.Variant[Node, Msg]

// Variants are the real alternatives where the paper leaves a reading open
// (--variant; doc.go gives the sentence each rests on). Each replaces
// every instance of the actions it names (RequestCS and ReceiveRM have one
// instance per target node, all with the paper's name).
var Variants = model.Variants[Node, Msg]{
	{Name: Faithful, Usage: "the reconstruction doc.go describes"},
	{
		Name:  "im-no-exchange",
		Usage: "ReceiveIM calls no Exchange (MPM lines 25–32 as printed)",
		Edit: replace(action{
			Name: actReceiveIM,
			Kind: model.Receive,
			On:   isKind(IM),
			Do:   func(c *ctx, n *Node) { imNext(c, n, c.Msg()) },
		}),
	},
	{
		Name:  "im-current-request",
		Usage: "ReceiveIM tests the node's current request ⟨i, ti⟩ (Section 4.1's prose), not the tuple before j's",
		Edit: replace(action{
			Name: actReceiveIM,
			Kind: model.Receive,
			On:   isKind(IM),
			Do: func(c *ctx, n *Node) {
				i, m := c.Self(), c.Msg()
				faithfulProcs.exchange(i, c.Nodes(), n, m.MONL, m.MSIT)
				imDecide(c, n, m, Tuple{ID: i, TS: n.ReqTS})
			},
		}),
	},
	{
		Name:  "exchange-two-pass",
		Usage: "Exchange lines 13–22 in two passes: every outdated tuple deleted (lines 14–18) before any row is copied (19–20)",
		Edit: replace(exchangeUsers(withExchange(func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
			exchange(rowTS, func(n *Node, msit *SIT, nodes int) {
				for k := 0; k < nodes; k++ {
					dropOutdated(n, msit, k)
				}
				for k := 0; k < nodes; k++ {
					copyNewer(n, msit, k)
				}
			}, self, nodes, n, monl, msit)
		}))...),
	},
	{
		Name:  "exchange-delete-both",
		Usage: "Exchange line 18 deletes the outdated tuple from SIi.NSIT as well as MSIT (Section 4.3's prose: \"deleted from SIi.NSIT and MSIT (line 15-18)\")",
		Edit: replace(exchangeUsers(withExchange(func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
			exchange(rowTS, func(n *Node, msit *SIT, nodes int) {
				for k := 0; k < nodes; k++ {
					dropOutdatedFrom(n, msit, k, true)
					copyNewer(n, msit, k)
				}
			}, self, nodes, n, monl, msit)
		}))...),
	},
	{
		Name:  "lone-wins-ties",
		Usage: "Order line 12: a lone tuple gets TP2.NodeID = ∞, so it wins a tie S1 = N − S1",
		Edit:  replace(receiveRM(withOrder(orderWith(MaxN)))...),
	},
	{
		Name:  "lone-loses-ties",
		Usage: "Order line 12: a lone tuple gets TP2.NodeID = 0, so it never wins a tie S1 = N − S1",
		Edit:  replace(receiveRM(withOrder(orderWith(0)))...),
	},
	{
		Name:  "exchange-ts-self",
		Usage: "Exchange lines 1 and 3 compare MSIT[x].TS with the visited node's own SIi.NSIT[i].TS",
		Edit: replace(exchangeUsers(withExchange(func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
			exchange(staleness{
				older: func(self model.NodeID, n *Node, _ model.NodeID, ts uint8) bool { return ts < n.NSIT[self].TS },
				newer: func(self model.NodeID, n *Node, _ model.NodeID, ts uint8) bool { return ts > n.NSIT[self].TS },
			}, rowsInOrder, self, nodes, n, monl, msit)
		}))...),
	},
}

// Faithful is the name of the algorithm as published, the default of both
// --variant and --mutant.
const Faithful = "faithful"

// Mutants are deliberate bugs the checker must catch (--mutant).
var Mutants = model.Variants[Node, Msg]{
	{Name: Faithful, Usage: "no bug"},
	{
		Name:  "exchange-ignores-timestamps",
		Usage: "Exchange lines 1 and 3 skip the timestamp test: an ordered tuple one side lacks is always taken as finished",
		Edit: replace(exchangeUsers(withExchange(func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
			always := func(model.NodeID, *Node, model.NodeID, uint8) bool { return true }
			exchange(staleness{older: always, newer: always}, rowsInOrder, self, nodes, n, monl, msit)
		}))...),
	},
	{
		Name:  "exchange-keeps-stale",
		Usage: "Exchange lines 19–20 dropped: a node keeps its stale row when the message's is newer",
		Edit: replace(exchangeUsers(withExchange(func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
			exchange(rowTS, func(n *Node, msit *SIT, nodes int) {
				for k := 0; k < nodes; k++ {
					dropOutdated(n, msit, k)
				}
			}, self, nodes, n, monl, msit)
		}))...),
	},
	{
		Name:    "exit-no-em",
		Usage:   "ReleaseCS clears Next without sending it the EM (MPM lines 21–22 dropped)",
		Actions: []action{releaseCS(func(_ *ctx, n *Node) { n.Next, n.NextCost = NoNext, 0 })},
	},
}

// withExchange returns the faithful procedures with Exchange swapped.
func withExchange(ex func(self model.NodeID, nodes int, n *Node, monl List, msit SIT)) procs {
	p := faithfulProcs
	p.exchange = ex
	return p
}

// withOrder returns the faithful procedures with Order swapped.
func withOrder(o func(self model.NodeID, nodes int, n *Node, j model.NodeID, tj uint8) (bool, bool, Tuple)) procs {
	p := faithfulProcs
	p.order = o
	return p
}

// exchangeUsers are the actions that call Exchange, built from p.
func exchangeUsers(p procs) []action {
	return append([]action{receiveEM(p), receiveIM(p)}, receiveRM(p)...)
}

// replace returns an Edit that swaps every action named like one of repl
// (all its instances) for the instances in repl of that name, in place.
func replace(repl ...action) func(p *model.Protocol[Node, Msg]) {
	return func(p *model.Protocol[Node, Msg]) {
		byName := map[string][]action{}
		for _, a := range repl {
			byName[a.Name] = append(byName[a.Name], a)
		}
		var out []action
		done := map[string]bool{}
		for _, a := range p.Actions {
			r, ok := byName[a.Name]
			switch {
			case !ok:
				out = append(out, a)
			case !done[a.Name]:
				done[a.Name] = true
				out = append(out, r...)
			}
		}
		p.Actions = out
	}
}

// onlyRequesters lets only n0 … n(k−1) call request-CS (--requesters): an
// Edit of every RequestCS instance's guard. The workload, not the
// algorithm.
func onlyRequesters(k int) variant {
	return variant{Name: "requesters", Edit: func(p *model.Protocol[Node, Msg]) {
		for i := range p.Actions {
			if a := &p.Actions[i]; a.Name == actRequestCS {
				guard := a.Guard
				a.Guard = func(c *ctx, n *Node) bool { return int(c.Self()) < k && guard(c, n) }
			}
		}
	}}
}

// fifo makes every channel FIFO (--fifo).
var fifo = variant{Name: "fifo", Edit: func(p *model.Protocol[Node, Msg]) { p.FIFO = true }}
