package akw2

import "github.com/mxcheck/mxcheck/model"

// PropStaticStarvation is the liveness property of --starvation=static.
const PropStaticStarvation = "static-starvation-freedom"

// NotifyDelivery is --notify: when the link notifications of §2 reach the nodes
// (as in package akw).
var NotifyDelivery = model.Variants[Node, Msg]{
	{Name: "atomic", Usage: "with the topology change, in the same step (N is always the set of connected ports)"},
	model.AsyncLinks("async", "as link messages delivered later (neighbours: links both endpoints have been told about)",
		model.Async[Node, Msg]{
			Wrap: func(k model.Notice) Msg { return Msg{Kind: Link, Notice: k} },
			Unwrap: func(m Msg) model.Notice {
				if m.Kind != Link {
					return model.NotNotice
				}
				return m.Notice
			},
			Knows: func(n *Node, p model.Port) bool { return n.N.Has(p) },
		}),
}

// Starvation is --starvation: the liveness claim's scope (as in akw).
var Starvation = model.Variants[Node, Msg]{
	{Name: "static", Usage: "static-starvation-freedom: every node that never moved eats (Definition 1, \"starvation freedom for static nodes\")",
		Edit: func(p *model.Protocol[Node, Msg]) {
			p.Liveness = PropStaticStarvation
			p.Links.Moved = func(n *Node) { n.Mover = true }
			p.Hungry = func(n *Node) bool { return n.State == Hungry && !n.Mover }
		}},
	{Name: "every", Usage: "starvation-freedom: every hungry node eats, movers too (stronger; move budgets are finite, so every node is eventually static)"},
}
