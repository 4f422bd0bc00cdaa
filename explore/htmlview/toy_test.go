package htmlview

import (
	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

// A toy protocol for the tests: requesting the CS pings the neighbour on
// port 1, a ping is answered with a pong, a pong lets the node in. Two nodes
// on one edge break mutual exclusion in six steps; a disconnect loses a
// ping in two.
type node struct{ State uint8 } // 0 idle, 1 waiting, 2 in the CS

func (n node) AppendKey(dst []byte) []byte { return append(dst, n.State) }

type msg struct{ Pong bool }

func (m msg) AppendKey(dst []byte) []byte {
	if m.Pong {
		return append(dst, 1)
	}
	return append(dst, 0)
}

func (m msg) String() string {
	if m.Pong {
		return "pong"
	}
	return "ping"
}

type ctx = model.Ctx[node, msg]

var toyProtocol = &model.Protocol[node, msg]{
	Name: "toy",
	Init: func(model.NodeID, *model.Config) node { return node{} },
	Actions: []model.Action[node, msg]{
		{Name: "Request", Kind: model.Request, Guard: func(_ *ctx, n *node) bool { return n.State == 0 },
			Do: func(c *ctx, n *node) { n.State = 1; c.SendPort(1, msg{}) }},
		{Name: "Ping", Kind: model.Receive, On: func(m msg) bool { return !m.Pong },
			Do: func(c *ctx, n *node) { c.SendPort(c.Port(), msg{Pong: true}) }},
		{Name: "Pong", Kind: model.Receive, On: func(m msg) bool { return m.Pong },
			Do: func(c *ctx, n *node) { n.State = 2 }},
		{Name: "Exit", Kind: model.Exit, Guard: func(_ *ctx, n *node) bool { return n.State == 2 },
			Do: func(c *ctx, n *node) { n.State = 0 }},
	},
	Hungry: func(n *node) bool { return n.State == 1 },
	Invariants: []model.Property[node, msg]{
		{Name: "mutual-exclusion", Holds: func(w *model.World[node, msg]) bool {
			return w.Count(func(n *node) bool { return n.State == 2 }) <= 1
		}},
		{Name: "waits-connected", Holds: func(w *model.World[node, msg]) bool {
			return w.Nodes[0].State != 1 || w.Meta[0].Links[1].Up()
		}},
	},
}

// toySystem is the toy on two nodes joined by port 1 of each, with one
// disconnect.
func toySystem() model.System {
	m, err := model.Compile(toyProtocol, model.Config{Nodes: 2, Delta: 1, Requests: 1,
		Edges: []model.Edge{{U: 0, P: 1, V: 1, Q: 1}}, Budget: model.Budget{Disconnects: 1}})
	if err != nil {
		panic(err)
	}
	return m
}

// toyViolations finds the toy's violations by BFS: waits-connected (2
// steps), then mutual-exclusion.
func toyViolations() []explore.Violation {
	c, err := explore.New(toySystem(), explore.Options{Continue: true, NoDeadlock: true})
	if err != nil {
		panic(err)
	}
	return c.Run().Violations
}

func toyViolation(prop string) explore.Violation {
	for _, v := range toyViolations() {
		if v.Property == prop {
			return v
		}
	}
	panic("no violation of " + prop)
}
