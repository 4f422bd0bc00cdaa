package akw2

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// replacement is a variant or a mutant: replacement actions, handlers or
// procedures with the name of the faithful one they replace.
type replacement struct {
	Name, Usage string
	Actions     func(a *alg) []action
	Handlers    []handler
	LowerAll    func(c *ctx, n *Node)
}

var variants = []replacement{
	{Name: "prio-token", Usage: "on exit a node sends a priority message only on the links where it had priority (priority moves like a token)",
		LowerAll: func(c *ctx, n *Node) {
			for _, p := range (c.Neighbors() &^ n.Higher).All() {
				n.Higher = n.Higher.Add(p)
				c.SendPort(p, Msg{Kind: Prio})
			}
		}},
	{Name: "higher-forks-first",
		Usage: "preemption as in Tsay–Bagrodia: a hungry node defers a lower neighbour's request only once it holds every fork shared with its higher neighbours; until then it yields every fork (and releases the requests it deferred) and asks again",
		Actions: func(a *alg) []action {
			f := a.faithful("ReceiveReq")
			f.Do = func(c *ctx, n *Node) {
				p := c.Port()
				switch {
				case !n.At.Has(p):
				case n.State == Thinking,
					n.State == Hungry && (n.Higher.Has(p) || c.Neighbors()&n.Higher&^n.At != 0):
					sendFork(c, n, p)
					if n.State == Hungry {
						// Back to collecting the higher forks: release the
						// deferred requests too (as L15 of Algorithm 1).
						for _, q := range n.S.All() {
							sendFork(c, n, q)
						}
						n.Asked = n.Asked.Remove(p)
						requestMissing(c, n)
					}
				default:
					n.S = n.S.Add(p)
				}
			}
			return []action{f}
		}},
	{Name: "notify-lowers-all", Usage: "a thinking node notified by a lower neighbour lowers its priority relative to every neighbour (as on exit), not on that link only",
		Actions: func(a *alg) []action {
			f := a.faithful("ReceiveNotification")
			f.Do = func(c *ctx, n *Node) {
				if n.State == Thinking && !n.Higher.Has(c.Port()) {
					a.LowerAll(c, n)
				}
			}
			return []action{f}
		}},
}

// mutants are deliberate bugs the checker must catch.
var mutants = []replacement{
	{Name: "send-fork-keeps-at", Usage: "a node that sends a fork keeps it",
		Actions: func(a *alg) []action {
			f := a.faithful("ReceiveReq")
			f.Do = func(c *ctx, n *Node) {
				if p := c.Port(); n.At.Has(p) && n.State == Thinking {
					c.SendPort(p, Msg{Kind: Fork})
					return
				}
				a.faithful("ReceiveReq").Do(c, n)
			}
			return []action{f}
		}},
	{Name: "no-preemption", Usage: "a hungry node defers every request, higher neighbours' too",
		Actions: func(a *alg) []action {
			f := a.faithful("ReceiveReq")
			f.Do = func(c *ctx, n *Node) {
				p := c.Port()
				switch {
				case !n.At.Has(p):
				case n.State == Thinking:
					sendFork(c, n, p)
				default:
					n.S = n.S.Add(p)
				}
			}
			return []action{f}
		}},
	{Name: "mover-keeps-eating", Usage: "a node that moves next to a static node keeps eating",
		Handlers: []handler{{Name: "LinkUpWhileMoving", Do: func(_ *alg, c *ctx, n *Node, p model.Port) {
			forget(n, p)
			n.Higher = n.Higher.Add(p)
			if n.State == Hungry {
				c.SendPort(p, Msg{Kind: Notify})
				requestMissing(c, n)
			}
		}}}},
}

func (a *alg) faithful(name string) action {
	for _, x := range a.actions() {
		if x.Name == name {
			return x
		}
	}
	panic("akw2: no faithful action " + name)
}

func index[T any](xs []T, name string, key func(T) string) int {
	for i, x := range xs {
		if key(x) == name {
			return i
		}
	}
	panic("akw2: replacement for unknown " + name)
}

// Protocol returns Algorithm 2 with the replacements installed; locality is
// the failure locality deadlock detection assumes (-1: none).
func Protocol(reps []replacement, locality int) *model.Protocol[Node, Msg] {
	a := &alg{LowerAll: lowerAll}
	acts := a.actions()
	hs := handlers()
	for _, r := range reps {
		if r.LowerAll != nil {
			a.LowerAll = r.LowerAll
		}
		if r.Actions != nil {
			for _, x := range r.Actions(a) {
				acts[index(acts, x.Name, func(y action) string { return y.Name })] = x
			}
		}
		for _, h := range r.Handlers {
			hs[index(hs, h.Name, func(y handler) string { return y.Name })] = h
		}
	}
	return &model.Protocol[Node, Msg]{
		Name:       "akw2",
		Init:       initial,
		Actions:    acts,
		Invariants: invariants(),
		FIFO:       true,
		Links: model.Notifications[Node, Msg]{
			LinkUp: func(c *ctx, n *Node, p model.Port, static bool) {
				if static {
					hs[0].Do(a, c, n, p)
				} else {
					hs[1].Do(a, c, n, p)
				}
			},
			LinkDown: func(c *ctx, n *Node, p model.Port) { hs[2].Do(a, c, n, p) },
		},
		Pending: func(n *Node) bool { return n.State == Hungry },
		Hungry:  func(n *Node) bool { return n.State == Hungry },
		Excused: func(w *world, i model.NodeID) bool {
			d := w.CrashDistance(i)
			return locality >= 0 && d >= 0 && d <= locality
		},
		Notes: func(*model.Config) []string {
			if locality < 0 {
				return []string{"no-deadlock: every waiting node counts, crashes or not"}
			}
			return []string{fmt.Sprintf("no-deadlock: a waiting node with a crashed node within %d links is excused (failure locality %d)", locality, locality)}
		},
	}
}

// initial: thinking; the fork of each initial link at the smaller id, as
// at[j] in §4.2; the smaller id has priority.
func initial(id model.NodeID, c *model.Config) Node {
	var n Node
	for _, e := range c.Edges {
		for _, end := range [2][3]int{{int(e.U), int(e.P), int(e.V)}, {int(e.V), int(e.Q), int(e.U)}} {
			if model.NodeID(end[0]) != id {
				continue
			}
			p, j := model.Port(end[1]), model.NodeID(end[2])
			if id < j {
				n.At = n.At.Add(p)
			} else {
				n.Higher = n.Higher.Add(p)
			}
		}
	}
	return n
}

// Spec is the registry entry for akw2.
var Spec = &model.Spec{
	Name:    "akw2",
	Summary: "local mutual exclusion in MANETs with dynamic priorities and preemptive fork collection (seed 001, Algorithm 2, reconstructed)",
	Params: []model.Param{
		{Name: "nodes", Kind: model.IntParam, Default: "2", Usage: "number of nodes"},
		{Name: "delta", Kind: model.IntParam, Default: "2", Usage: "Δ, ports per node"},
		{Name: "topology", Kind: model.StringParam, Default: "path", Usage: "initial topology: path, ring, star, complete, none, or edges u.p-v.q,..."},
		{Name: "connects", Kind: model.IntParam, Default: "0", Usage: "links the adversary may create (a node moves next to another)"},
		{Name: "disconnects", Kind: model.IntParam, Default: "0", Usage: "links the adversary may break (a node moves away)"},
		{Name: "crashes", Kind: model.IntParam, Default: "0", Usage: "nodes that may crash"},
		{Name: "requests", Kind: model.IntParam, Default: "1", Usage: "times each node may become hungry"},
		{Name: "locality", Kind: model.StringParam, Default: "2", Usage: "failure locality deadlock detection assumes (Theorem 8: 2), or none"},
		{Name: "variant", Kind: model.StringParam, Default: "", Usage: "comma-separated readings: " + names(variants)},
		{Name: "mutant", Kind: model.StringParam, Default: "none", Usage: "deliberate bug: none, " + names(mutants)},
	},
	Build: Build,
}

func names(rs []replacement) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.Name)
	}
	return strings.Join(s, ", ")
}

func lookup(rs []replacement, name string) (replacement, bool) {
	for _, r := range rs {
		if r.Name == name {
			return r, true
		}
	}
	return replacement{}, false
}

// Build compiles a configuration of akw2.
func Build(v model.Values) (model.System, error) {
	n, err := v.IntIn("nodes", 2, 8)
	if err != nil {
		return nil, err
	}
	delta, err := v.IntIn("delta", 1, model.MaxPorts-1)
	if err != nil {
		return nil, err
	}
	var budget [3]int
	for i, name := range []string{"connects", "disconnects", "crashes"} {
		if budget[i], err = v.IntIn(name, 0, 255); err != nil {
			return nil, err
		}
	}
	r, err := v.IntIn("requests", 0, 15)
	if err != nil {
		return nil, err
	}
	locality := -1
	if l := strings.TrimSpace(v.String("locality")); l != "none" {
		if locality, err = v.IntIn("locality", 0, 8); err != nil {
			return nil, err
		}
	}
	var reps []replacement
	for _, name := range strings.Split(v.String("variant"), ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		x, ok := lookup(variants, name)
		if !ok {
			return nil, fmt.Errorf("--variant: unknown value %q (want a comma-separated list of %s)", name, names(variants))
		}
		reps = append(reps, x)
	}
	if m := v.String("mutant"); m != "none" {
		x, ok := lookup(mutants, m)
		if !ok {
			return nil, fmt.Errorf("--mutant: unknown value %q (want none, %s)", m, names(mutants))
		}
		reps = append(reps, x)
	}
	topo := strings.TrimSpace(v.String("topology"))
	var edges []model.Edge
	if strings.Contains(topo, ".") {
		edges, err = model.ParseEdges("topology", topo)
	} else {
		edges, err = model.Topology(topo, n, delta)
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "--topology") {
			err = fmt.Errorf("--topology: %v", err)
		}
		return nil, err
	}
	cfg := model.Config{
		Nodes: n, Delta: delta, Requests: r, Edges: edges, ReusePorts: true,
		Budget: model.Budget{Connects: uint8(budget[0]), Disconnects: uint8(budget[1]), Crashes: uint8(budget[2])},
	}
	return model.Compile(Protocol(reps, locality), cfg)
}
