package tokenlock

import "github.com/mxcheck/mxcheck/model"

// Node is one node's local state: a small comparable value.
type Node struct {
	Wants, InCS bool
	Token       bool // holds the token
	Asked       bool // the other node asked for the token
}

// AppendKey is the canonical encoding of a node state: one byte.
func (n Node) AppendKey(dst []byte) []byte {
	return append(dst, bit(n.Wants)|bit(n.InCS)<<1|bit(n.Token)<<2|bit(n.Asked)<<3)
}

func bit(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Msg is a message: REQUEST or TOKEN.
type Msg struct{ Token bool }

// AppendKey is the canonical encoding of a message.
func (m Msg) AppendKey(dst []byte) []byte { return append(dst, bit(m.Token)) }

// String renders the message in traces.
func (m Msg) String() string {
	if m.Token {
		return "token"
	}
	return "request"
}

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

// other is the other node of the pair.
func other(c *ctx) model.NodeID { return 1 - c.Self() }

// Protocol is the token lock: guarded actions, the invariant, and what the
// checker needs for deadlock and liveness.
var Protocol = model.Protocol[Node, Msg]{
	Name:    "tokenlock",
	RawKey:  true,
	Init:    func(id model.NodeID, _ *model.Config) Node { return Node{Token: id == 0} },
	Actions: []action{requestCS, enter, exitCS, receiveRequest, receiveToken},
	Invariants: []model.Property[Node, Msg]{{
		Name:  "mutual-exclusion",
		Holds: func(w *model.World[Node, Msg]) bool { return w.Count(func(n *Node) bool { return n.InCS }) <= 1 },
	}, {
		// A witness: some node enters the CS.
		Name:   "cs-entered",
		Expect: model.Sometimes,
		Holds:  func(w *model.World[Node, Msg]) bool { return w.Count(func(n *Node) bool { return n.InCS }) > 0 },
	}},
	InCS:    func(n *Node) bool { return n.InCS },
	Pending: func(n *Node) bool { return n.Wants || n.InCS },
	Hungry:  func(n *Node) bool { return n.Wants },
}

// RequestCS: the application asks for the CS; ask for the token if needed.
var requestCS = action{Name: "RequestCS", Kind: model.Request,
	Guard: func(_ *ctx, n *Node) bool { return !n.Wants && !n.InCS },
	Do: func(c *ctx, n *Node) {
		n.Wants = true
		if !n.Token {
			c.Send(other(c), Msg{})
		}
	}}

// Enter: enter the CS once the token is here.
var enter = action{Name: "Enter",
	Guard: func(_ *ctx, n *Node) bool { return n.Wants && n.Token },
	Do:    func(_ *ctx, n *Node) { n.Wants, n.InCS = false, true }}

// ExitCS: leave, and hand the token over if the other node asked.
var exitCS = action{Name: "ExitCS", Kind: model.Exit,
	Guard: func(_ *ctx, n *Node) bool { return n.InCS },
	Do: func(c *ctx, n *Node) {
		n.InCS = false
		if n.Asked {
			n.Asked, n.Token = false, false
			c.Send(other(c), Msg{Token: true})
		}
	}}

// ReceiveRequest: give the token away unless we use or want it.
var receiveRequest = action{Name: "ReceiveRequest", Kind: model.Receive,
	On: func(m Msg) bool { return !m.Token },
	Do: func(c *ctx, n *Node) {
		if n.Token && !n.Wants && !n.InCS {
			n.Token = false
			c.Send(other(c), Msg{Token: true})
			return
		}
		n.Asked = true
	}}

// ReceiveToken: the token arrives.
var receiveToken = action{Name: "ReceiveToken", Kind: model.Receive,
	On: func(m Msg) bool { return m.Token },
	Do: func(_ *ctx, n *Node) { n.Token = true }}

// Mutants are deliberate bugs the checker must catch.
var Mutants = model.Variants[Node, Msg]{
	{Name: "none", Usage: "the protocol as written"},
	{Name: "eager-enter", Usage: "enter without the token", Actions: []action{{Name: "Enter",
		Guard: func(_ *ctx, n *Node) bool { return n.Wants },
		Do:    func(_ *ctx, n *Node) { n.Wants, n.InCS = false, true }}}},
}

// Spec is the registry entry: parameters, declared once, and the builder.
var Spec = &model.Spec{
	Name:    "tokenlock",
	Summary: "a two-node token lock: the worked example of docs/writing-a-spec.md",
	Params:  []model.Param{model.RequestsParam(1), Mutants.Param("mutant", "deliberate bug")},
	Build: func(a *model.Args) (model.System, error) {
		p := model.Apply(&Protocol, Mutants.Get(a.String("mutant")))
		return model.Compile(p, model.Config{Nodes: 2, Requests: a.Int("requests")})
	},
}
