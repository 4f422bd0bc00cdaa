package akw

import (
	"fmt"
	"strconv"

	"github.com/mxcheck/mxcheck/model"
)

// newAlg returns Algorithm 1 on n nodes as published, with the
// message-passing doorways and new-color() of the reconstruction.
func newAlg(n int) *alg {
	return &alg{rounds: uint8(max(n-1, 1)), procs: procs{
		SendFork: sendFork, SyncClear: syncClear, Outside: outsideByMessages, NewColor: newColor,
		BeginEntry: beginEntry, Cross: crossed,
		UpStatic: linkUpStatic, UpMoving: linkUpMoving, Down: linkDown,
	}}
}

// Protocol returns Algorithm 1 on n nodes as published (every reading at
// its default, no mutant); locality is the failure locality deadlock
// detection assumes (-1: none).
func Protocol(n, locality int) *model.Protocol[Node, Msg] { return newAlg(n).protocol(locality) }

// protocol is the published algorithm with a's procedures.
func (a *alg) protocol(locality int) *model.Protocol[Node, Msg] {
	return &model.Protocol[Node, Msg]{
		Name:       "akw",
		RawKey:     true,
		Init:       initial,
		Actions:    a.actions(),
		Invariants: invariants(),
		FIFO:       true,
		Links: model.Notifications[Node, Msg]{
			LinkUp: func(c *ctx, n *Node, p model.Port, static bool) {
				if static {
					a.UpStatic(a, c, n, p)
				} else {
					a.UpMoving(a, c, n, p)
				}
			},
			LinkDown: func(c *ctx, n *Node, p model.Port) { a.Down(a, c, n, p) },
		},
		// A hungry node, or a mover waiting for its new neighbours'
		// colors (L53), has unfinished work.
		Pending: func(n *Node) bool { return n.State == Hungry || n.Wait != 0 },
		Hungry:  func(n *Node) bool { return n.State == Hungry },
		Excused: func(w *world, i model.NodeID) bool {
			d := w.CrashDistance(i)
			return locality >= 0 && d >= 0 && d <= locality
		},
		Notes: func(c *model.Config) []string {
			if locality < 0 {
				return []string{"no-deadlock: every waiting node counts, crashes or not"}
			}
			out := []string{fmt.Sprintf("no-deadlock: a waiting node with a crashed node within %d links is excused (failure locality %d)", locality, locality)}
			if c.Budget.Crashes > 0 && locality >= c.Nodes-1 {
				out = append(out, fmt.Sprintf("no-deadlock: no two of %d nodes are more than %d links apart, so the failure locality excuses every node a crash can reach: a smaller --locality separates it from n", c.Nodes, c.Nodes-1))
			}
			return out
		},
	}
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
		for _, end := range [2][3]int{{int(e.U), int(e.P), int(e.V)}, {int(e.V), int(e.Q), int(e.U)}} {
			if model.NodeID(end[0]) != id {
				continue
			}
			p, j := model.Port(end[1]), model.NodeID(end[2])
			n.N = n.N.Add(p)
			n.C[p] = col(j)
			if id < j {
				n.At = n.At.Add(p)
			}
		}
	}
	return n
}

// localityOptions are the values of --locality: n (Theorem 5), none, or a
// distance.
func localityOptions() []model.Option {
	opts := []model.Option{
		{Name: "n", Usage: "the number of nodes (Theorem 5: the greedy coloring's failure locality)"},
		{Name: "none", Usage: "excuse no waiting node"},
	}
	for m := 0; m <= MaxNodes; m++ {
		opts = append(opts, model.Option{Name: strconv.Itoa(m), Usage: fmt.Sprintf("excuse a waiting node with a crash within %d links", m)})
	}
	return opts
}

// Spec is the registry entry for akw.
var Spec = &model.Spec{
	Name:    "akw",
	Summary: "local mutual exclusion in MANETs, fork collection inside double doorways (seed 001, Algorithm 1)",
	Params:  params(),
	Build:   Build,
}

func params() []model.Param {
	ps := []model.Param{
		model.IntParam("nodes", 2, 2, MaxNodes, "number of nodes"),
		model.IntParam("delta", 2, 1, MaxNodes-1, "Δ, ports per node"),
		model.TopologyParam("topology", "path", "initial topology: path, ring, star, complete, none, or edges u.p-v.q,..."),
		model.IntParam("connects", 0, 0, 255, "links the adversary may create (a node moves next to another)"),
		model.IntParam("disconnects", 0, 0, 255, "links the adversary may break (a node moves away)"),
		model.IntParam("crashes", 0, 0, 255, "nodes that may crash"),
		model.RequestsParam(1),
		model.EnumParam("locality", "failure locality deadlock detection assumes", localityOptions()...),
		model.BoolParam("doorway-ghost", false, "also check doorway-guarantee (§3's real-time guarantee), with ghost variables that grow the state space"),
		Notify.Param("notify", "delivery of the link notifications (§2 leaves it open)"),
		Starvation.Param("starvation", "which hungry nodes the liveness property (--liveness) requires to eat"),
	}
	a := newAlg(2)
	for _, r := range a.readings() {
		ps = append(ps, r.vs.Param(r.name, r.usage))
	}
	return append(ps, a.mutants().Param("mutant", "deliberate bug"))
}

// Build compiles a configuration of akw: the published algorithm changed
// by the chosen reading of each open point and by the mutant.
func Build(args *model.Args) (model.System, error) {
	n := args.Int("nodes")
	a := newAlg(n)
	locality := n
	switch l := args.String("locality"); l {
	case "n":
	case "none":
		locality = -1
	default:
		locality, _ = strconv.Atoi(l)
	}
	var chosen []model.Variant[Node, Msg]
	for _, r := range a.readings() {
		chosen = append(chosen, r.vs.Get(args.String(r.name)))
	}
	chosen = append(chosen, a.mutants().Get(args.String("mutant")),
		Notify.Get(args.String("notify")), Starvation.Get(args.String("starvation")))
	if args.Bool("doorway-ghost") {
		chosen = append(chosen, a.ghost())
	}
	cfg := model.Config{
		Nodes: n, Delta: args.Int("delta"), Requests: args.Int("requests"), Edges: args.Edges("topology"), ReusePorts: true,
		Budget: model.Budget{Connects: uint8(args.Int("connects")), Disconnects: uint8(args.Int("disconnects")), Crashes: uint8(args.Int("crashes"))},
	}
	return model.Compile(model.Apply(a.protocol(locality), chosen...), cfg)
}
