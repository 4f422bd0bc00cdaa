package lmutin

import (
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Change is a variant or a mutant: replacement actions (each replaces the
// faithful action of the same Name) and, optionally, another initial
// configuration. Chosen at build time; the faithful actions never test
// which change is in force.
type Change struct {
	Name  string
	Usage string
	// Replace returns the replacement actions.
	Replace func(a *algo) []action
	// Init, optional, replaces the initial local state.
	Init func(a *algo, i model.NodeID) Node
}

// Variants are readings of the paper and repairs (--variant); the first is
// the default.
var Variants = []Change{
	{Name: "faithful", Usage: "Algorithms 1–2 as printed, grantedTo_i initially the OutCS processes of N_i ∪ {P_i}"},
	{
		Name: "init-as-printed",
		Usage: "grantedTo_i initially {(0, P_j) : P_j ∈ CS_i(C_0)} exactly as Algorithm 1 prints it " +
			"(the definition of grantedTo_i says the OutCS processes)",
		Init: func(a *algo, i model.NodeID) Node {
			n := a.init(i)
			n.GrantedTo = TSet{}
			for _, j := range (a.g.Closed(i) & a.cs).All() {
				n.GrantedTo = n.GrantedTo.Add(0, j)
			}
			return n
		},
	},
	{
		Name:  "lamport-clock",
		Usage: "ReceiveRequest also advances the logical clock: ts_i := max(ts_i, ts_j) (Lemma 2's proof)",
		Replace: func(a *algo) []action {
			return []action{{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: func(c *ctx, n *Node) {
				n.TS = max(n.TS, c.Msg().TS)
				a.receiveRequest(c, n)
			}}}
		},
	},
	{
		Name: "preempt-carries-ts",
		Usage: "repair: Preempt carries the timestamp of the grant it preempts, and a process relinquishes " +
			"only while it waits in the exit sequence of that timestamp (a stale Preempt is ignored)",
		Replace: func(a *algo) []action {
			return []action{
				{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: a.receiveRequestPreemptTS},
				{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: func(c *ctx, n *Node) {
					if n.State == InCS && n.Seq == Exiting && n.TS == c.Msg().TS {
						n.NGrants--
						c.Send(c.From(), Msg{Kind: Relinquish})
					}
				}},
			}
		},
	},
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

// Mutants are deliberate bugs the checker must catch (--mutant); the
// first is none.
var Mutants = []Change{
	{Name: "none", Usage: "no mutant"},
	{
		Name:  "grant-ignores-bound",
		Usage: "ReceiveRequest grants without checking |grantedTo_i| < |N_i| − l_i + 1",
		Replace: func(a *algo) []action {
			return []action{{Name: "ReceiveRequest", Kind: model.Receive, On: is(Request), Do: func(c *ctx, n *Node) {
				n.PendingReq = n.PendingReq.Add(c.Msg().TS, c.From())
				grantMin(c, n)
			}}}
		},
	},
	{
		Name:  "relinquish-keeps-grant",
		Usage: "ReceivePreempt sends Relinquish but keeps the grant (nGrants_i not decremented)",
		Replace: func(a *algo) []action {
			return []action{{Name: "ReceivePreempt", Kind: model.Receive, On: is(Preempt), Do: func(c *ctx, n *Node) {
				if n.State == InCS {
					c.Send(c.From(), Msg{Kind: Relinquish})
				}
			}}}
		},
	},
	{
		Name:  "release-keeps-grant",
		Usage: "ReceiveRelease never deletes (*, P_j) from grantedTo_i",
		Replace: func(a *algo) []action {
			return []action{{Name: "ReceiveRelease", Kind: model.Receive, On: is(Release), Do: func(c *ctx, n *Node) {
				if n.PreemptingNow == int8(c.From()) {
					n.PreemptingNow = Nil
				}
				if !n.PendingReq.Empty() {
					grantMin(c, n)
				}
			}}}
		},
	},
}

// lookup returns the change called name in table, or nil.
func lookup(table []Change, name string) *Change {
	for i := range table {
		if table[i].Name == name {
			return &table[i]
		}
	}
	return nil
}

// names lists the names of a table, for usage lines and errors.
func names(table []Change) []string {
	out := make([]string, len(table))
	for i, c := range table {
		out[i] = c.Name
	}
	return out
}

// Replace returns actions with each replacement swapped in for the action
// of the same Name. A replacement naming no action is a programming error.
func Replace[N model.Value, M model.Message](actions, repl []model.Action[N, M]) []model.Action[N, M] {
	out := append([]model.Action[N, M](nil), actions...)
	for _, r := range repl {
		found := false
		for i := range out {
			if out[i].Name == r.Name {
				out[i], found = r, true
			}
		}
		if !found {
			panic("lmutin: replacement for unknown action " + r.Name)
		}
	}
	return out
}

func joinNames(table []Change) string { return strings.Join(names(table), ", ") }
