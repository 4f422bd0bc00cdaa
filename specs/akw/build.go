package akw

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Protocol returns Algorithm 1 on n nodes with the given replacements
// (variants and mutants) installed.
//
// locality is the failure locality deadlock detection assumes: a waiting
// node with a crashed node within that many links is excused; -1 excuses
// none.
//
// ghost adds the ghost variables and the doorway-guarantee property.
func Protocol(n int, reps []replacement, locality int, ghost bool) *model.Protocol[Node, Msg] {
	a := &alg{rounds: uint8(max(n-1, 1)), procs: procs{SendFork: sendFork, SyncClear: syncClear, Outside: outsideByMessages, NewColor: newColor,
		BeginEntry: beginEntry, Cross: crossed}}
	invs := invariants()
	if ghost {
		a.BeginEntry, a.Cross = ghostBeginEntry, ghostCross
		invs = append(invs, doorwayGuarantee())
	}
	acts := a.actions()
	hs := handlers()
	for _, r := range reps {
		if r.Procs.SendFork != nil {
			a.SendFork = r.Procs.SendFork
		}
		if r.Procs.SyncClear != nil {
			a.SyncClear = r.Procs.SyncClear
		}
		if r.Procs.Outside != nil {
			a.Outside = r.Procs.Outside
		}
		if r.Procs.NewColor != nil {
			a.NewColor = r.Procs.NewColor
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
	up := func(c *ctx, nd *Node, p model.Port, static bool) {
		if static {
			hs[0].Do(a, c, nd, p)
		} else {
			hs[1].Do(a, c, nd, p)
		}
	}
	return &model.Protocol[Node, Msg]{
		Name:       "akw",
		Init:       initial,
		Actions:    acts,
		Invariants: invs,
		FIFO:       true,
		Links: model.Notifications[Node, Msg]{
			LinkUp:   up,
			LinkDown: func(c *ctx, nd *Node, p model.Port) { hs[2].Do(a, c, nd, p) },
		},
		// A hungry node, or a mover waiting for its new neighbours'
		// colors (L53), has unfinished work.
		Pending: func(nd *Node) bool { return nd.State == Hungry || nd.Wait != 0 },
		Hungry:  func(nd *Node) bool { return nd.State == Hungry },
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

func index[T any](xs []T, name string, key func(T) string) int {
	for i, x := range xs {
		if key(x) == name {
			return i
		}
	}
	panic("akw: replacement for unknown " + name)
}

// initial is a node's initial state (§4.2): thinking, at[j] when ID[i] <
// ID[j], and the colors the recoloring module gives every node of the
// initial graph when all of them run it at once ("The recoloring module is
// also executed by each node to obtain an initial color"), known to the
// neighbours.
func initial(id model.NodeID, c *model.Config) Node {
	var v View
	for x := 0; x < c.Nodes; x++ {
		v = v.SetRow(model.NodeID(x), 0)
	}
	for _, e := range c.Edges {
		v = v.SetRow(e.U, v.Row(e.U).Add(e.V))
		v = v.SetRow(e.V, v.Row(e.V).Add(e.U))
	}
	col := func(x model.NodeID) Color { return -Color(greedy(v, x)) - 1 }
	n := Node{Color: col(id)}
	for p := range n.C {
		n.C[p] = Bot
	}
	for _, e := range c.Edges {
		for _, end := range [2][4]int{{int(e.U), int(e.P), int(e.V), int(e.Q)}, {int(e.V), int(e.Q), int(e.U), int(e.P)}} {
			if model.NodeID(end[0]) != id {
				continue
			}
			p, j := model.Port(end[1]), model.NodeID(end[2])
			n.C[p] = col(j)
			if id < j {
				n.At = n.At.Add(p)
			}
		}
	}
	return n
}

// Spec is the registry entry for akw.
var Spec = &model.Spec{
	Name:    "akw",
	Summary: "local mutual exclusion in MANETs, fork collection inside double doorways (seed 001, Algorithm 1)",
	Params: []model.Param{
		{Name: "nodes", Kind: model.IntParam, Default: "2", Usage: "number of nodes (2..4)"},
		{Name: "delta", Kind: model.IntParam, Default: "2", Usage: "Δ, ports per node"},
		{Name: "topology", Kind: model.StringParam, Default: "path", Usage: "initial topology: path, ring, star, complete, none, or edges u.p-v.q,..."},
		{Name: "connects", Kind: model.IntParam, Default: "0", Usage: "links the adversary may create (a node moves next to another)"},
		{Name: "disconnects", Kind: model.IntParam, Default: "0", Usage: "links the adversary may break (a node moves away)"},
		{Name: "crashes", Kind: model.IntParam, Default: "0", Usage: "nodes that may crash"},
		{Name: "requests", Kind: model.IntParam, Default: "1", Usage: "times each node may become hungry"},
		{Name: "locality", Kind: model.StringParam, Default: "n", Usage: "failure locality deadlock detection assumes: n (Theorem 5, greedy coloring: the number of nodes), an integer m, or none"},
		{Name: "doorway-ghost", Kind: model.BoolParam, Default: "false", Usage: "also check doorway-guarantee (§3's real-time guarantee), with ghost variables that grow the state space"},
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

// Build compiles a configuration of akw.
func Build(v model.Values) (model.System, error) {
	n, err := v.IntIn("nodes", 2, MaxNodes)
	if err != nil {
		return nil, err
	}
	delta, err := v.IntIn("delta", 1, MaxNodes-1)
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
	locality := n
	switch l := strings.TrimSpace(v.String("locality")); l {
	case "n":
	case "none":
		locality = -1
	default:
		if locality, err = v.IntIn("locality", 0, MaxNodes); err != nil {
			return nil, err
		}
	}
	ghost, err := v.Bool("doorway-ghost")
	if err != nil {
		return nil, err
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
	return model.Compile(Protocol(n, reps, locality, ghost), cfg)
}
