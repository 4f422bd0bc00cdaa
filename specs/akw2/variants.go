package akw2

import "github.com/mxcheck/mxcheck/model"

// Readings and mutants change the action table (actions.go) with
// replacement actions, or replace a procedure the faithful bodies call
// (alg) in an Edit. Each open choice of §5 is its own parameter; the first
// option is the default.

type reading struct {
	name, usage string
	vs          model.Variants[Node, Msg]
}

// readings are the choices §5's prose leaves open.
func (a *alg) readings() []reading {
	return []reading{
		{"exit-priority", "how an exiting node's \"resets higher[] to true\" reaches its neighbours", model.Variants[Node, Msg]{
			{Name: "all", Usage: "a priority message to every neighbour"},
			{Name: "token", Usage: "a priority message only on the links where it had priority (priority moves like a token)",
				Edit: func(*model.Protocol[Node, Msg]) {
					a.LowerAll = func(c *ctx, n *Node) {
						for _, p := range (n.N &^ n.Higher).All() {
							n.Higher = n.Higher.Add(p)
							c.SendPort(p, Msg{Kind: Prio})
						}
					}
				}},
			{Name: "relay", Usage: "token, and priority that reaches the node later on a link where it had none is sent back while it is thinking: it stays below every neighbour until it is hungry again (full link reversal)",
				Actions: []action{
					with(a.faithful("ReceivePriority"), func(f *action) {
						f.Do = func(c *ctx, n *Node) {
							p := c.Port()
							if n.Relay.Has(p) && n.State == Thinking {
								n.Relay = n.Relay.Remove(p)
								c.SendPort(p, Msg{Kind: Prio})
								return
							}
							n.Higher = n.Higher.Remove(p)
						}
					}),
					with(a.faithful("BecomeHungry"), func(f *action) {
						do := f.Do
						f.Do = func(c *ctx, n *Node) {
							n.Relay = 0
							do(c, n)
						}
					}),
				},
				Edit: func(*model.Protocol[Node, Msg]) {
					a.LowerAll = func(c *ctx, n *Node) {
						n.Relay = n.N & n.Higher
						for _, p := range (n.N &^ n.Higher).All() {
							n.Higher = n.Higher.Add(p)
							c.SendPort(p, Msg{Kind: Prio})
						}
					}
				}},
		}},
		{"notify-lowers", "what a thinking node with priority lowers when notified (\"one edge or all reversed\")", model.Variants[Node, Msg]{
			{Name: "link", Usage: "its priority on the notifier's link only"},
			{Name: "all", Usage: "its priority relative to every neighbour, as on exit",
				Actions: []action{with(a.faithful("ReceiveNotification"), func(f *action) {
					f.Do = func(c *ctx, n *Node) {
						if n.State == Thinking && !n.Higher.Has(c.Port()) {
							a.LowerAll(c, n)
						}
					}
				})}},
		}},
		{"preemption", "the preemptive fork collection of Tsay–Bagrodia [13]", model.Variants[Node, Msg]{
			{Name: "higher-only", Usage: "a hungry node yields a fork to a neighbour with priority over it and asks again; it defers the others"},
			{Name: "higher-forks-first", Usage: "it defers a lower neighbour only once it holds every fork shared with its higher neighbours; until then it yields every fork (and releases the requests it deferred) and asks again",
				Actions: []action{with(a.faithful("ReceiveReq"), func(f *action) {
					f.Do = func(c *ctx, n *Node) {
						p := c.Port()
						switch {
						case !n.At.Has(p):
						case n.State == Thinking,
							n.State == Hungry && (n.Higher.Has(p) || n.N&n.Higher&^n.At != 0):
							sendFork(c, n, p)
							if n.State == Hungry {
								// Back to collecting the higher forks: release
								// the deferred requests too (as L15 of
								// Algorithm 1).
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
				})}},
		}},
	}
}

// mutants are deliberate bugs the checker must catch (--mutant).
func (a *alg) mutants() model.Variants[Node, Msg] {
	return model.Variants[Node, Msg]{
		{Name: "none", Usage: "the reconstruction as chosen by the readings"},
		{Name: "send-fork-keeps-at", Usage: "a thinking node that sends a fork keeps it",
			Actions: []action{with(a.faithful("ReceiveReq"), func(f *action) {
				do := f.Do
				f.Do = func(c *ctx, n *Node) {
					if p := c.Port(); n.At.Has(p) && n.State == Thinking {
						c.SendPort(p, Msg{Kind: Fork})
						return
					}
					do(c, n)
				}
			})}},
		{Name: "no-preemption", Usage: "a hungry node defers every request, higher neighbours' too",
			Actions: []action{with(a.faithful("ReceiveReq"), func(f *action) {
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
			})}},
		{Name: "mover-keeps-eating", Usage: "a node that moves next to a static node keeps eating",
			Edit: func(*model.Protocol[Node, Msg]) {
				up := a.UpMoving
				a.UpMoving = func(c *ctx, n *Node, p model.Port) {
					st := n.State
					up(c, n, p)
					n.State = st
				}
			}},
	}
}

func with(f action, edit func(f *action)) action {
	edit(&f)
	return f
}

func (a *alg) faithful(name string) action {
	for _, x := range a.actions() {
		if x.Name == name {
			return x
		}
	}
	panic("akw2: no faithful action " + name)
}
