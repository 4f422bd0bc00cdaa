package akw2

import "github.com/mxcheck/mxcheck/model"

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

// alg is Algorithm 2 with the procedures a variant may replace.
type alg struct {
	// LowerAll is what a node does with its priorities when it exits the
	// critical section.
	LowerAll func(c *ctx, n *Node)
	// UpStatic, UpMoving and Down are the link notification handlers.
	UpStatic, UpMoving, Down func(c *ctx, n *Node, p model.Port)
}

func is(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }

// allForks: the node holds every fork of its current links.
func allForks(c *ctx, n *Node) bool { return n.N&^n.At == 0 }

// requestMissing sends req for every missing fork not asked for yet.
func requestMissing(c *ctx, n *Node) {
	for _, p := range (n.N &^ n.At &^ n.Asked).All() {
		c.SendPort(p, Msg{Kind: Req})
		n.Asked = n.Asked.Add(p)
	}
}

// sendFork gives the fork on port p away.
func sendFork(c *ctx, n *Node, p model.Port) {
	c.SendPort(p, Msg{Kind: Fork})
	n.At = n.At.Remove(p)
	n.S = n.S.Remove(p)
}

// lowerAll is the exit's "resets the values in its higher array to true,
// thus lowering its priority relative to its neighbors", told to every
// neighbour by a priority message.
func lowerAll(c *ctx, n *Node) {
	for _, p := range n.N.All() {
		n.Higher = n.Higher.Add(p)
		c.SendPort(p, Msg{Kind: Prio})
	}
}

// actions is Algorithm 2 (§5, reconstructed: doc.go).
func (a *alg) actions() []action {
	return []action{
		{Name: "BecomeHungry", Kind: model.Request,
			Guard: func(_ *ctx, n *Node) bool { return n.State == Thinking },
			Do: func(c *ctx, n *Node) {
				n.State = Hungry
				for _, p := range n.N.All() { // "sends a notification message to its neighbors"
					c.SendPort(p, Msg{Kind: Notify})
				}
				requestMissing(c, n)
			}},
		{Name: "Eat",
			Guard: func(c *ctx, n *Node) bool { return n.State == Hungry && allForks(c, n) },
			Do:    func(_ *ctx, n *Node) { n.State = Eating }},
		{Name: "Exit", Kind: model.Exit,
			Guard: func(_ *ctx, n *Node) bool { return n.State == Eating },
			Do: func(c *ctx, n *Node) {
				n.State = Thinking
				a.LowerAll(c, n)
				for _, p := range n.S.All() {
					sendFork(c, n, p)
				}
			}},
		{Name: "ReceiveNotification", Kind: model.Receive, On: is(Notify),
			Do: func(c *ctx, n *Node) {
				// "lowers its priority only if it is thinking and it has
				// higher priority than p_i"
				p := c.Port()
				if n.State == Thinking && !n.Higher.Has(p) {
					n.Higher = n.Higher.Add(p)
					c.SendPort(p, Msg{Kind: Prio})
				}
			}},
		{Name: "ReceivePriority", Kind: model.Receive, On: is(Prio),
			Do: func(c *ctx, n *Node) { n.Higher = n.Higher.Remove(c.Port()) }},
		{Name: "ReceiveReq", Kind: model.Receive, On: is(Req),
			Do: func(c *ctx, n *Node) {
				p := c.Port()
				switch {
				case !n.At.Has(p): // the fork is on its way: the request is void
				case n.State == Thinking:
					sendFork(c, n, p)
				case n.State == Hungry && n.Higher.Has(p): // preempted (Tsay–Bagrodia)
					sendFork(c, n, p)
					n.Asked = n.Asked.Remove(p)
					requestMissing(c, n)
				default: // eating, or hungry with priority: defer
					n.S = n.S.Add(p)
				}
			}},
		{Name: "ReceiveFork", Kind: model.Receive, On: is(Fork),
			Do: func(c *ctx, n *Node) {
				p := c.Port()
				n.At = n.At.Add(p)
				n.Asked = n.Asked.Remove(p)
			}},
	}
}

// linkUpStatic: the static node owns the new fork and has priority on the
// new link (§2: symmetry is broken toward static nodes).
func linkUpStatic(_ *ctx, n *Node, p model.Port) {
	forget(n, p)
	n.N = n.N.Add(p)
	n.At = n.At.Add(p)
}

// linkUpMoving: an eating mover goes back to hungry (as L50 of
// Algorithm 1); a hungry one notifies its new neighbour and asks for the
// new fork.
func linkUpMoving(c *ctx, n *Node, p model.Port) {
	forget(n, p)
	n.N = n.N.Add(p)
	n.Higher = n.Higher.Add(p)
	if n.State == Eating {
		n.State = Hungry
	}
	if n.State == Hungry {
		c.SendPort(p, Msg{Kind: Notify})
		requestMissing(c, n)
	}
}

// forget drops everything kept about port p: the fork is destroyed with
// the link.
func forget(n *Node, p model.Port) {
	n.At, n.Higher, n.S, n.Asked = n.At.Remove(p), n.Higher.Remove(p), n.S.Remove(p), n.Asked.Remove(p)
	n.Relay = n.Relay.Remove(p)
}
