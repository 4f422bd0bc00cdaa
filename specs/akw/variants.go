package akw

import "github.com/mxcheck/mxcheck/model"

// Readings and mutants change the published action table (actions.go)
// with replacement actions, or replace one of the procedures the faithful
// bodies call (alg.procs) in an Edit; the faithful bodies never test which
// is chosen. Each open point of the paper is its own parameter; the first
// option is the default.

type variant = model.Variant[Node, Msg]

// reading is one open point: its parameter and its options.
type reading struct {
	name, usage string
	vs          model.Variants[Node, Msg]
}

// readings are the open points of the paper, each a parameter.
func (a *alg) readings() []reading {
	return []reading{
		{"doorways", "implementation of §3's doorways", model.Variants[Node, Msg]{
			{Name: "messages", Usage: "message passing: a node sees its neighbours' last cross/exit messages (L[j])"},
			{Name: "oracle", Usage: "the real-time guarantee by construction: a node observes its neighbours' true positions",
				Edit: func(*model.Protocol[Node, Msg]) { a.Outside = outsideNow }},
		}},
		{"new-color", "what the greedy new-color() of §4.4 avoids", model.Variants[Node, Msg]{
			{Name: "view", Usage: "the colors it gives the recoloring subgraph only (\"a local predefined coloring algorithm on that subgraph\")"},
			{Name: "avoids-neighbours", Usage: "also the colors of neighbours outside that subgraph (\"in a greedy manner, depending on its neighbors\")",
				Edit: func(*model.Protocol[Node, Msg]) {
					a.NewColor = func(_ *alg, c *ctx, n *Node) int { return greedyAvoiding(n.Vw, c.Self(), forbidden(c, n, n.Vw)) }
				}},
		}},
		{"link-down", "L56–L61", model.Variants[Node, Msg]{
			{Name: "low-only", Usage: "as printed: only the failure of a link to a low neighbour holding the fork changes the fork collection (L59–L60)"},
			{Name: "recheck", Usage: "repair: then L19–L22 are re-run (eat with all forks; with all low forks request the high ones)",
				Edit: func(*model.Protocol[Node, Msg]) { a.Down = linkDownRecheck }},
		}},
		{"link-up-moving", "nesting of L47–L55 (indentation lost in the extraction)", model.Variants[Node, Msg]{
			{Name: "flat", Usage: "L50–L51 under L49's if, L52–L55 not (§4: a mover exits any doorway and waits)"},
			{Name: "nested", Usage: "all of L50–L55 under L49's if",
				Edit: func(*model.Protocol[Node, Msg]) { a.UpMoving = linkUpMovingNested }},
		}},
		{"req", "L10 \"when req msg is received from j and at[j]\" while ¬at[j]", model.Variants[Node, Msg]{
			{Name: "void", Usage: "the request is consumed and void: the fork is on its way to j"},
			{Name: "waits", Usage: "the request waits at the head of its FIFO channel until at[j]",
				Actions: []action{with(a.faithful("L10-ReceiveReq"), func(f *action) {
					f.Guard = func(c *ctx, n *Node) bool { return n.At.Has(c.Port()) }
				})}},
		}},
		{"fork-outside", "L17–L23 at a node outside SD^f", model.Variants[Node, Msg]{
			{Name: "module", Usage: "L19–L23 run behind SD^f only; outside, a flagged fork is granted back as L10–L16 grant requests"},
			{Name: "anywhere", Usage: "L17–L23 as printed wherever the node is (L19 lets a hungry node outside SD^f eat)",
				Actions: []action{with(a.faithful("L17-ReceiveFork"), func(f *action) {
					f.Do = func(c *ctx, n *Node) { a.receiveForkAnywhere(c, n, c.Port(), c.Msg().Flag) }
				})}},
		}},
		{"exit-order", "order of L8 and L9", model.Variants[Node, Msg]{
			{Name: "printed", Usage: "L8 then L9: forks released on exit carry flag true toward low neighbours"},
			{Name: "exit-before-release", Usage: "L9 before L8: forks released on exit carry flag false",
				Actions: []action{with(a.faithful("L5-Exit"), func(f *action) {
					f.Do = func(c *ctx, n *Node) {
						n.State = Thinking
						n.Color = smallestFreeColor(c, n)                       // L6
						broadcast(c, n, Msg{Kind: UpdateColor, Color: n.Color}) // L7
						a.setPos(c, n, n.Pos&^(SDf|ADf))                        // L9
						n.Stage = Out
						a.releaseSuspended(c, n) // L8
					}
				})}},
		}},
	}
}

// mutants are deliberate bugs the checker must catch (--mutant).
func (a *alg) mutants() model.Variants[Node, Msg] {
	return model.Variants[Node, Msg]{
		{Name: "none", Usage: "the algorithm as published"},
		{Name: "send-fork-keeps-at", Usage: "send-fork(j) does not clear at[j] (L32)",
			Edit: func(*model.Protocol[Node, Msg]) {
				a.SendFork = func(_ *alg, c *ctx, n *Node, p model.Port) {
					c.SendPort(p, Msg{Kind: Fork, Flag: less(n.C[p], n.Color) && n.Pos&SDf != 0})
					n.S = n.S.Remove(p)
				}
			}},
		{Name: "eat-with-low-forks", Usage: "L19 eats once all low forks are in",
			Actions: []action{with(a.faithful("L17-ReceiveFork"), func(f *action) {
				f.Do = func(c *ctx, n *Node) {
					a.receiveFork(c, n, c.Port(), c.Msg().Flag)
					if n.Pos&SDf != 0 && n.State == Hungry && allLowForks(c, n) {
						n.State = Eating
					}
				}
			})}},
		{Name: "doorways-open", Usage: "every doorway lets a node cross while a neighbour is behind it",
			Edit: func(*model.Protocol[Node, Msg]) {
				a.Outside = func(*ctx, *Node, model.Port, Doors) bool { return true }
			}},
		{Name: "linkup-moving-keeps-eating", Usage: "L50 dropped: a node that moves next to a static node keeps eating",
			Edit: func(*model.Protocol[Node, Msg]) {
				up := a.UpMoving
				a.UpMoving = func(a *alg, c *ctx, n *Node, p model.Port) {
					st := n.State
					up(a, c, n, p)
					n.State = st
				}
			}},
	}
}

// ghost installs the ghost variables and the doorway-guarantee property
// (--doorway-ghost).
func (a *alg) ghost() variant {
	return variant{Name: "doorway-ghost", Edit: func(p *model.Protocol[Node, Msg]) {
		a.BeginEntry, a.Cross = ghostBeginEntry, ghostCross
		p.Invariants = append(p.Invariants, doorwayGuarantee())
	}}
}

// with returns a copy of action f changed by edit.
func with(f action, edit func(f *action)) action {
	edit(&f)
	return f
}

// linkUpMovingNested is L47–L55 with L50–L55 all under L49's if: a mover
// that is not behind SD^f only forgets the fork and color (L48).
func linkUpMovingNested(a *alg, c *ctx, n *Node, p model.Port) {
	n.N = n.N.Add(p)
	n.At = n.At.Remove(p) // L48
	forgetPort(n, p)
	n.C[p] = Bot
	n.L[p] = 0
	if n.Pos&SDf != 0 { // L49
		if n.State == Eating { // L50
			n.State = Hungry
		}
		a.releaseSuspended(c, n) // L51
		exitAnyDoorway(a, c, n)  // L52
		n.Wait = n.Wait.Add(p)   // L53
	}
}

// linkDownRecheck is L56–L61 followed by L19–L22.
func linkDownRecheck(a *alg, c *ctx, n *Node, p model.Port) {
	linkDown(a, c, n, p)
	if n.Pos&SDf == 0 || n.State != Hungry {
		return
	}
	if allForks(c, n) { // as L19
		n.State = Eating
	}
	if allLowForks(c, n) { // as L20, L22
		requestHighForks(c, n)
	}
}

// receiveForkAnywhere is L17–L23 exactly as printed.
func (a *alg) receiveForkAnywhere(c *ctx, n *Node, p model.Port, flag bool) {
	n.At = n.At.Add(p)
	if allForks(c, n) && n.State == Hungry {
		n.State = Eating
	}
	if allLowForks(c, n) {
		if flag {
			n.S = n.S.Add(p)
		}
		requestHighForks(c, n)
	} else if flag {
		a.SendFork(a, c, n, p)
	}
}

// outsideNow observes the neighbour's true position (doorways=oracle).
func outsideNow(c *ctx, _ *Node, p model.Port, d Doors) bool {
	peer, ok := c.PeerState(p)
	return !ok || peer.Pos&d == 0
}

// forbidden is the set of recoloring outputs (as new-color() values) that
// neighbours outside the view hold.
func forbidden(c *ctx, n *Node, v View) uint16 {
	var out uint16
	for _, p := range n.N.All() {
		j, ok := c.PeerOf(p)
		if x := n.C[p]; ok && x < 0 && x != Bot && !v.Known.Has(j) {
			out |= 1 << (-x - 1)
		}
	}
	return out
}

// faithful returns a copy of the faithful action called name.
func (a *alg) faithful(name string) action {
	for _, x := range a.actions() {
		if x.Name == name {
			return x
		}
	}
	panic("akw: no faithful action " + name)
}
