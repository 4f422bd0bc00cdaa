package akw2

import (
	"fmt"
	"strconv"

	"github.com/mxcheck/mxcheck/model"
)

func newAlg() *alg {
	return &alg{LowerAll: lowerAll, UpStatic: linkUpStatic, UpMoving: linkUpMoving, Down: func(_ *ctx, n *Node, p model.Port) { forget(n, p); n.N = n.N.Remove(p) }}
}

// Protocol returns Algorithm 2 with every reading at its default;
// locality is the failure locality deadlock detection assumes (-1: none).
func Protocol(locality int) *model.Protocol[Node, Msg] { return newAlg().protocol(locality) }

func (a *alg) protocol(locality int) *model.Protocol[Node, Msg] {
	return &model.Protocol[Node, Msg]{
		Name:       "akw2",
		RawKey:     true,
		Init:       initial,
		Actions:    a.actions(),
		Invariants: invariants(),
		FIFO:       true,
		Links: model.Notifications[Node, Msg]{
			LinkUp: func(c *ctx, n *Node, p model.Port, static bool) {
				if static {
					a.UpStatic(c, n, p)
				} else {
					a.UpMoving(c, n, p)
				}
			},
			LinkDown: func(c *ctx, n *Node, p model.Port) { a.Down(c, n, p) },
		},
		Pending: func(n *Node) bool { return n.State == Hungry },
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
			n.N = n.N.Add(p)
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
	Params:  params(),
	Build:   Build,
}

func params() []model.Param {
	opts := []model.Option{{Name: "2", Usage: "Theorem 8"}, {Name: "none", Usage: "excuse no waiting node"}}
	for m := 0; m <= 8; m++ {
		if m != 2 {
			opts = append(opts, model.Option{Name: strconv.Itoa(m), Usage: fmt.Sprintf("excuse a waiting node with a crash within %d links", m)})
		}
	}
	ps := []model.Param{
		model.IntParam("nodes", 2, 2, 8, "number of nodes"),
		model.IntParam("delta", 2, 1, model.MaxPorts-1, "Δ, ports per node"),
		model.TopologyParam("topology", "path", "initial topology: path, ring, star, complete, none, or edges u.p-v.q,..."),
		model.IntParam("connects", 0, 0, 255, "links the adversary may create (a node moves next to another)"),
		model.IntParam("disconnects", 0, 0, 255, "links the adversary may break (a node moves away)"),
		model.IntParam("crashes", 0, 0, 255, "nodes that may crash"),
		model.RequestsParam(1),
		model.EnumParam("locality", "failure locality deadlock detection assumes", opts...),
		NotifyDelivery.Param("notify", "delivery of the link notifications (§2 leaves it open)"),
		Starvation.Param("starvation", "which hungry nodes the liveness property (--liveness) requires to eat"),
	}
	a := newAlg()
	for _, r := range a.readings() {
		ps = append(ps, r.vs.Param(r.name, r.usage))
	}
	return append(ps, a.mutants().Param("mutant", "deliberate bug"))
}

// Build compiles a configuration of akw2.
func Build(args *model.Args) (model.System, error) {
	a := newAlg()
	locality := -1
	if l := args.String("locality"); l != "none" {
		locality, _ = strconv.Atoi(l)
	}
	var chosen []model.Variant[Node, Msg]
	for _, r := range a.readings() {
		chosen = append(chosen, r.vs.Get(args.String(r.name)))
	}
	chosen = append(chosen, a.mutants().Get(args.String("mutant")),
		NotifyDelivery.Get(args.String("notify")), Starvation.Get(args.String("starvation")))
	cfg := model.Config{
		Nodes: args.Int("nodes"), Delta: args.Int("delta"), Requests: args.Int("requests"), Edges: args.Edges("topology"), ReusePorts: true,
		Budget: model.Budget{Connects: uint8(args.Int("connects")), Disconnects: uint8(args.Int("disconnects")), Crashes: uint8(args.Int("crashes"))},
	}
	return model.Compile(model.Apply(a.protocol(locality), chosen...), cfg)
}
