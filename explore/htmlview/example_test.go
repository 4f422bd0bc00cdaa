package htmlview_test

import (
	"fmt"
	"io"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/explore/htmlview"
	"github.com/mxcheck/mxcheck/model"
)

// pingNode and pingMsg make a protocol in which every request pings the
// neighbour on port 1 and enters the critical section on the pong: two
// nodes break mutual exclusion.
type pingNode struct{ State uint8 }

func (n pingNode) AppendKey(dst []byte) []byte { return append(dst, n.State) }

type pingMsg struct{ Pong bool }

func (m pingMsg) AppendKey(dst []byte) []byte {
	if m.Pong {
		return append(dst, 1)
	}
	return append(dst, 0)
}

func (m pingMsg) String() string { return map[bool]string{false: "ping", true: "pong"}[m.Pong] }

type pctx = model.Ctx[pingNode, pingMsg]

func Example() {
	proto := &model.Protocol[pingNode, pingMsg]{
		Name: "ping",
		Init: func(model.NodeID, *model.Config) pingNode { return pingNode{} },
		Actions: []model.Action[pingNode, pingMsg]{
			{Name: "Request", Kind: model.Request, Guard: func(_ *pctx, n *pingNode) bool { return n.State == 0 },
				Do: func(c *pctx, n *pingNode) { n.State = 1; c.SendPort(1, pingMsg{}) }},
			{Name: "Ping", Kind: model.Receive, On: func(m pingMsg) bool { return !m.Pong },
				Do: func(c *pctx, n *pingNode) { c.SendPort(c.Port(), pingMsg{Pong: true}) }},
			{Name: "Pong", Kind: model.Receive, On: func(m pingMsg) bool { return m.Pong },
				Do: func(c *pctx, n *pingNode) { n.State = 2 }},
			{Name: "Exit", Kind: model.Exit, Guard: func(_ *pctx, n *pingNode) bool { return n.State == 2 },
				Do: func(c *pctx, n *pingNode) { n.State = 0 }},
		},
		Invariants: []model.Property[pingNode, pingMsg]{{Name: "mutual-exclusion",
			Holds: func(w *model.World[pingNode, pingMsg]) bool {
				return w.Count(func(n *pingNode) bool { return n.State == 2 }) <= 1
			}}},
	}
	sys, err := model.Compile(proto, model.Config{Nodes: 2, Delta: 1, Requests: 1, Edges: []model.Edge{{U: 0, P: 1, V: 1, Q: 1}}})
	if err != nil {
		panic(err)
	}
	chk, err := explore.New(sys, explore.Options{NoDeadlock: true})
	if err != nil {
		panic(err)
	}
	res := chk.Run()
	page, err := htmlview.FromResult(sys, "ping", map[string]string{"nodes": "2"}, res, htmlview.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(page.Title)
	fmt.Println(len(page.Nodes), "lifelines,", len(page.Arrows), "messages,", len(page.Bars), "critical sections")
	fmt.Println(htmlview.Write(io.Discard, page)) // or to a file: one self-contained page
	// Output:
	// ping: mutual-exclusion violated after 6 steps
	// 2 lifelines, 4 messages, 2 critical sections
	// <nil>
}
