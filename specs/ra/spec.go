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

// Mutant names a deliberate bug.
type Mutant string

const (
	// Faithful is the algorithm as published.
	Faithful Mutant = "none"
	// NeverDefer answers every REQUEST at once.
	NeverDefer Mutant = "never-defer"
	// DeferForever forgets deferred requests on exit.
	DeferForever Mutant = "defer-forever"
)

// precedes reports whether request (ts, i) comes before request (ts2, j):
// smaller timestamp, ties broken by the smaller id.
func precedes(ts uint8, i model.NodeID, ts2 uint8, j model.NodeID) bool {
	return ts < ts2 || ts == ts2 && i < j
}

// Protocol returns Ricart–Agrawala, with the given mutant.
func Protocol(mut Mutant) *model.Protocol[Node, Msg] {
	isKind := func(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }
	return &model.Protocol[Node, Msg]{
		Name: "ra",
		Init: func(model.NodeID, *model.Config) Node { return Node{} },
		Actions: []model.Action[Node, Msg]{
			{
				// RequestCS: multicast REQUEST(HSN+1) to every member.
				Name:  "RequestCS",
				Kind:  model.Request,
				Guard: func(_ *model.Ctx[Node, Msg], n *Node) bool { return n.State == Released },
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					n.State = Wanted
					n.TS = n.HSN + 1
					n.Awaiting = c.Members().Remove(c.Self())
					for _, j := range n.Awaiting.All() {
						c.Send(j, Msg{Kind: Request, TS: n.TS})
					}
				},
			},
			{
				// Enter: every node asked has answered OK.
				Name:  "Enter",
				Guard: func(_ *model.Ctx[Node, Msg], n *Node) bool { return n.State == Wanted && n.Awaiting.Empty() },
				Do:    func(_ *model.Ctx[Node, Msg], n *Node) { n.State = Held },
			},
			{
				// ExitCS: answer OK to every deferred request.
				Name:  "ExitCS",
				Kind:  model.Exit,
				Guard: func(_ *model.Ctx[Node, Msg], n *Node) bool { return n.State == Held },
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					n.State = Released
					n.TS = 0
					if mut != DeferForever {
						for _, j := range n.Deferred.All() {
							c.Send(j, Msg{Kind: OK})
						}
					}
					n.Deferred = 0
				},
			},
			{
				// ReceiveRequest: defer if in the CS or waiting with an
				// earlier request; otherwise answer OK.
				Name: "ReceiveRequest",
				Kind: model.Receive,
				On:   isKind(Request),
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					m, j := c.Msg(), c.From()
					n.HSN = max(n.HSN, m.TS)
					deferIt := n.State == Held || n.State == Wanted && precedes(n.TS, c.Self(), m.TS, j)
					if deferIt && mut != NeverDefer {
						n.Deferred = n.Deferred.Add(j)
						return
					}
					c.Send(j, Msg{Kind: OK})
				},
			},
			{
				// ReceiveOK: one fewer answer to wait for. It only shrinks
				// Awaiting, which no other step reads while an OK is in
				// transit, so it commutes with every step of its node.
				Name:        "ReceiveOK",
				Kind:        model.Receive,
				On:          isKind(OK),
				Independent: true,
				Do:          func(c *model.Ctx[Node, Msg], n *Node) { n.Awaiting = n.Awaiting.Remove(c.From()) },
			},
		},
		Invariants: []model.Property[Node, Msg]{
			{Name: "mutual-exclusion", Holds: func(w *model.World[Node, Msg]) bool {
				return w.Count(func(n *Node) bool { return n.State == Held }) <= 1
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
}

// Spec is the registry entry for ra.
var Spec = &model.Spec{
	Name:    "ra",
	Summary: "Ricart–Agrawala over churning membership lists (seed 003 §III-A)",
	Params: []model.Param{
		{Name: "nodes", Kind: model.IntParam, Default: "3", Usage: "number of nodes"},
		{Name: "requests", Kind: model.IntParam, Default: "1", Usage: "CS requests per node"},
		{Name: "missing", Kind: model.StringParam, Default: "", Usage: "I:J[,I:J...]: node I's membership list lacks node J"},
		{Name: "churn", Kind: model.IntParam, Default: "0", Usage: "membership entries the adversary may remove while the protocol runs"},
		{Name: "mutant", Kind: model.StringParam, Default: string(Faithful), Usage: "deliberate bug: none, never-defer, defer-forever"},
	},
	Build: Build,
}

// Build compiles a configuration of ra.
func Build(v model.Values) (model.System, error) {
	n, err := v.IntIn("nodes", 1, model.MaxNodes)
	if err != nil {
		return nil, err
	}
	r, err := v.IntIn("requests", 0, 15)
	if err != nil {
		return nil, err
	}
	churn, err := v.IntIn("churn", 0, n*(n-1))
	if err != nil {
		return nil, err
	}
	missing, err := model.ParsePairs("missing", v.String("missing"), n)
	if err != nil {
		return nil, err
	}
	members := make([]model.NodeSet, n)
	for i := range members {
		members[i] = model.FullSet(n)
	}
	for _, p := range missing {
		if p[0] == p[1] {
			return nil, fmt.Errorf("--missing: %d:%d: a node's list always contains itself", p[0], p[1])
		}
		members[p[0]] = members[p[0]].Remove(p[1])
	}
	mut := Mutant(v.String("mutant"))
	if err := model.Choice("mutant", string(mut), string(Faithful), string(NeverDefer), string(DeferForever)); err != nil {
		return nil, err
	}
	cfg := model.Config{Nodes: n, Requests: r, Members: members, Budget: model.Budget{Removes: uint8(churn)}}
	return model.Compile(Protocol(mut), cfg)
}
