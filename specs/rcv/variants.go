package rcv

import "github.com/mxcheck/mxcheck/model"

// option is a variant or a mutant: replacement actions chosen at build
// time. Every faithful action whose Name appears among the replacements is
// removed; the replacements take the place of the first one.
type option struct {
	Name  string
	Usage string
	// Replace returns the replacement actions for `nodes` nodes.
	Replace func(nodes int) []action
}

// Faithful is the name of the algorithm as published (the default of both
// --variant and --mutant).
const Faithful = "faithful"

// Variants are the real alternatives where the paper leaves a reading open
// (doc.go says which sentence each rests on).
var Variants = []option{
	{Name: Faithful, Usage: "the reconstruction doc.go describes"},
	{
		Name:  "im-no-exchange",
		Usage: "ReceiveIM does not call Exchange (MPM lines 25–32 as printed)",
		Replace: func(int) []action {
			return []action{{
				Name: actReceiveIM,
				Kind: model.Receive,
				On:   isKind(IM),
				Do:   func(c *ctx, n *Node) { imNext(c, n, c.Msg()) },
			}}
		},
	},
	{
		Name:  "im-current-request",
		Usage: "ReceiveIM tests the node's current request ⟨i, ti⟩ (Section 4.1's prose) instead of the tuple preceding j's",
		Replace: func(int) []action {
			return []action{{
				Name: actReceiveIM,
				Kind: model.Receive,
				On:   isKind(IM),
				Do: func(c *ctx, n *Node) {
					i, m := c.Self(), c.Msg()
					faithfulProcs.exchange(i, c.Nodes(), n, m.MONL, m.MSIT)
					imDecide(c, n, m, Tuple{ID: i, TS: n.ReqTS})
				},
			}}
		},
	},
	{
		Name:  "exchange-two-pass",
		Usage: "Exchange lines 13–22 in two passes: every outdated tuple is deleted (lines 14–18) before any row is copied (lines 19–20)",
		Replace: func(nodes int) []action {
			p := faithfulProcs
			p.exchange = func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
				exchange(rowTS, func(n *Node, msit *SIT, nodes int) {
					for k := 0; k < nodes; k++ {
						dropOutdated(n, msit, k)
					}
					for k := 0; k < nodes; k++ {
						copyNewer(n, msit, k)
					}
				}, self, nodes, n, monl, msit)
			}
			return exchangeUsers(p, nodes)
		},
	},
	{
		Name:  "exchange-ts-self",
		Usage: "Exchange lines 1 and 3 compare MSIT[x].TS with the visited node's own SIi.NSIT[i].TS",
		Replace: func(nodes int) []action {
			p := faithfulProcs
			p.exchange = func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
				exchange(staleness{
					older: func(self model.NodeID, n *Node, _ model.NodeID, ts uint8) bool { return ts < n.NSIT[self].TS },
					newer: func(self model.NodeID, n *Node, _ model.NodeID, ts uint8) bool { return ts > n.NSIT[self].TS },
				}, rowsInOrder, self, nodes, n, monl, msit)
			}
			return exchangeUsers(p, nodes)
		},
	},
}

// Mutants are deliberate bugs the checker must catch.
var Mutants = []option{
	{Name: Faithful, Usage: "no bug"},
	{
		Name:  "exchange-ignores-timestamps",
		Usage: "Exchange lines 1 and 3 skip the timestamp test: an ordered tuple one side lacks is always taken as finished",
		Replace: func(nodes int) []action {
			always := func(model.NodeID, *Node, model.NodeID, uint8) bool { return true }
			p := faithfulProcs
			p.exchange = func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
				exchange(staleness{older: always, newer: always}, rowsInOrder, self, nodes, n, monl, msit)
			}
			return exchangeUsers(p, nodes)
		},
	},
	{
		Name:  "exchange-keeps-stale",
		Usage: "Exchange lines 19–20 dropped: a node keeps its stale row when the message's is newer",
		Replace: func(nodes int) []action {
			p := faithfulProcs
			p.exchange = func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
				keep := n.NSIT
				exchange(rowTS, rowsInOrder, self, nodes, n, monl, msit)
				for k := 0; k < nodes; k++ {
					if keep[k].TS < msit[k].TS {
						n.NSIT[k] = keep[k]
					}
				}
			}
			return exchangeUsers(p, nodes)
		},
	},
	{
		Name:  "exit-no-em",
		Usage: "ReleaseCS clears Next without sending it the EM (MPM lines 21–22 dropped)",
		Replace: func(int) []action {
			return []action{releaseCS(func(_ *ctx, n *Node) { n.Next, n.NextCost = NoNext, 0 })}
		},
	},
}

// exchangeUsers are the actions that call Exchange, built from p.
func exchangeUsers(p procs, nodes int) []action {
	return append([]action{receiveEM(p), receiveIM(p)}, receiveRM(p, nodes)...)
}

// apply replaces the actions of table named by o's replacements.
func apply(table []action, o option, nodes int) []action {
	if o.Replace == nil {
		return table
	}
	repl := o.Replace(nodes)
	names := map[string]bool{}
	for _, a := range repl {
		names[a.Name] = true
	}
	var out []action
	done := map[string]bool{}
	for _, a := range table {
		if !names[a.Name] {
			out = append(out, a)
			continue
		}
		if done[a.Name] {
			continue
		}
		done[a.Name] = true
		for _, r := range repl {
			if r.Name == a.Name {
				out = append(out, r)
			}
		}
	}
	return out
}

// lookup returns the option called name.
func lookup(opts []option, name string) (option, bool) {
	for _, o := range opts {
		if o.Name == name {
			return o, true
		}
	}
	return option{}, false
}

func names(opts []option) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = o.Name
	}
	return out
}
