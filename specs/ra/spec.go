package ra

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// Phase is where a node stands with respect to the CS.
type Phase uint8

const (
	// Released: not interested in the CS.
	Released Phase = iota
	// Wanted: requested, waiting for OKs.
	Wanted
	// Held: in the CS.
	Held
)

// String renders the phase as in the paper.
func (p Phase) String() string {
	switch p {
	case Released:
		return "RELEASED"
	case Wanted:
		return "WANTED"
	case Held:
		return "HELD"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// Node is one node's local state.
type Node struct {
	State Phase
	// HSN is the highest request timestamp this node has seen.
	HSN uint8
	// TS is the timestamp of this node's own request (0 when Released).
	TS uint8
	// Awaiting is the set of nodes asked that have not answered OK yet.
	Awaiting model.NodeSet
	// Deferred is the set of nodes whose requests wait for our exit.
	Deferred model.NodeSet
}

// AppendKey appends the canonical encoding of n.
func (n Node) AppendKey(dst []byte) []byte {
	return append(dst, byte(n.State), n.HSN, n.TS,
		byte(n.Awaiting), byte(n.Awaiting>>8), byte(n.Deferred), byte(n.Deferred>>8))
}

// Kind is a message type.
type Kind uint8

const (
	// Request asks for permission to enter the CS.
	Request Kind = iota
	// OK grants it.
	OK
)

// Msg is a protocol message.
type Msg struct {
	Kind Kind
	// TS is the request's timestamp (Request only).
	TS uint8
}

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte { return append(dst, byte(m.Kind), m.TS) }

// String renders the message as "request(ts=2)" or "ok".
func (m Msg) String() string {
	if m.Kind == Request {
		return fmt.Sprintf("request(ts=%d)", m.TS)
	}
	return "ok"
}

// precedes reports whether request (ts, i) comes before request (ts2, j):
// smaller timestamp, ties broken by the smaller id.
func precedes(ts uint8, i model.NodeID, ts2 uint8, j model.NodeID) bool {
	return ts < ts2 || ts == ts2 && i < j
}

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

func is(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }

// Protocol is Ricart–Agrawala as published: one action per step of the
// algorithm, in the order the paper gives them.
var Protocol = model.Protocol[Node, Msg]{
	Name:    "ra",
	RawKey:  true,
	Init:    func(model.NodeID, *model.Config) Node { return Node{} },
	Actions: []action{requestCS, enter, exitCS, receiveRequest, receiveOK},
	Invariants: []model.Property[Node, Msg]{
		{Name: "mutual-exclusion", Holds: func(w *model.World[Node, Msg]) bool {
			return w.Count(func(n *Node) bool { return n.State == Held }) <= 1
		}},
		// A witness: some node enters the CS (unreached with --requests 0).
		{Name: "cs-entered", Expect: model.Sometimes, Holds: func(w *model.World[Node, Msg]) bool {
			return w.Count(func(n *Node) bool { return n.State == Held }) > 0
		}},
	},
	InCS:     func(n *Node) bool { return n.State == Held },
	Pending:  func(n *Node) bool { return n.State != Released },
	Hungry:   func(n *Node) bool { return n.State == Wanted },
	Liveness: "starvation-freedom",
	// The invariant reads only whether a node is in the CS.
	Observe: func(n *Node) uint64 {
		if n.State == Held {
			return 1
		}
		return 0
	},
}

// RequestCS: multicast REQUEST(HSN+1) to every member.
var requestCS = action{
	Name:  "RequestCS",
	Kind:  model.Request,
	Guard: func(_ *ctx, n *Node) bool { return n.State == Released },
	Do: func(c *ctx, n *Node) {
		n.State = Wanted
		n.TS = n.HSN + 1
		n.Awaiting = c.Members().Remove(c.Self())
		for _, j := range n.Awaiting.All() {
			c.Send(j, Msg{Kind: Request, TS: n.TS})
		}
	},
}

// Enter: every node asked has answered OK.
var enter = action{
	Name:  "Enter",
	Guard: func(_ *ctx, n *Node) bool { return n.State == Wanted && n.Awaiting.Empty() },
	Do:    func(_ *ctx, n *Node) { n.State = Held },
}

// ExitCS: answer OK to every deferred request.
var exitCS = action{
	Name:  "ExitCS",
	Kind:  model.Exit,
	Guard: func(_ *ctx, n *Node) bool { return n.State == Held },
	Do: func(c *ctx, n *Node) {
		n.State = Released
		n.TS = 0
		for _, j := range n.Deferred.All() {
			c.Send(j, Msg{Kind: OK})
		}
		n.Deferred = 0
	},
}

// ReceiveRequest: defer if in the CS or waiting with an earlier request;
// otherwise answer OK.
var receiveRequest = action{
	Name: "ReceiveRequest",
	Kind: model.Receive,
	On:   is(Request),
	Do: func(c *ctx, n *Node) {
		m, j := c.Msg(), c.From()
		n.HSN = max(n.HSN, m.TS)
		if n.State == Held || n.State == Wanted && precedes(n.TS, c.Self(), m.TS, j) {
			n.Deferred = n.Deferred.Add(j)
			return
		}
		c.Send(j, Msg{Kind: OK})
	},
}

// ReceiveOK: one fewer answer to wait for. It only shrinks Awaiting, which
// no other step reads while an OK is in transit, so it commutes with every
// step of its node.
var receiveOK = action{
	Name:        "ReceiveOK",
	Kind:        model.Receive,
	On:          is(OK),
	Independent: true,
	Do:          func(c *ctx, n *Node) { n.Awaiting = n.Awaiting.Remove(c.From()) },
}

// Mutants are deliberate bugs the checker must catch (--mutant).
var Mutants = model.Variants[Node, Msg]{
	{Name: "none", Usage: "the algorithm as published"},
	{Name: "never-defer", Usage: "answer every REQUEST at once (breaks mutual-exclusion)", Actions: []action{{
		Name: "ReceiveRequest",
		Kind: model.Receive,
		On:   is(Request),
		Do: func(c *ctx, n *Node) {
			n.HSN = max(n.HSN, c.Msg().TS)
			c.Send(c.From(), Msg{Kind: OK})
		},
	}}},
	{Name: "defer-forever", Usage: "forget deferred requests on exit (deadlocks)", Actions: []action{{
		Name:  "ExitCS",
		Kind:  model.Exit,
		Guard: func(_ *ctx, n *Node) bool { return n.State == Held },
		Do: func(_ *ctx, n *Node) {
			n.State = Released
			n.TS = 0
			n.Deferred = 0
		},
	}}},
}

// Spec is the registry entry for ra.
var Spec = &model.Spec{
	Name:    "ra",
	Summary: "Ricart–Agrawala over churning membership lists (seed 003 §III-A)",
	Params: []model.Param{
		model.NodesParam(3),
		model.RequestsParam(1),
		model.MissingParam(),
		model.ChurnParam(),
		Mutants.Param("mutant", "deliberate bug"),
	},
	Build: func(a *model.Args) (model.System, error) {
		cfg := model.Config{
			Nodes:    a.Int("nodes"),
			Requests: a.Int("requests"),
			Members:  a.Members("missing"),
			Budget:   model.Budget{Removes: uint8(a.Int("churn"))},
		}
		return model.Compile(model.Apply(&Protocol, Mutants.Get(a.String("mutant"))), cfg)
	},
}
