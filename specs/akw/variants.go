package akw

import "github.com/mxcheck/mxcheck/model"

// replacement is a variant (a reading of the paper the text leaves open)
// or a mutant (a deliberate bug): replacement actions, handlers and
// procedures, each with the name of the faithful one it replaces. Build
// installs them; the faithful bodies never test which is chosen.
type replacement struct {
	Name, Usage string
	Actions     func(a *alg) []action
	Handlers    []handler
	Procs       procs
}

// variants are the readings of the paper a verdict may be about.
var variants = []replacement{
	{Name: "linkup-nested",
		Usage:    "L52–L55 nested under L49's `if behind SD^f` (the extraction lost the indentation)",
		Handlers: []handler{{Name: "L47-LinkUpWhileMoving", Do: linkUpMovingNested}}},
	{Name: "req-waits",
		Usage: "L10 read as a guard: a req arriving while ¬at[j] waits at the head of its FIFO channel",
		Actions: func(a *alg) []action {
			f := a.faithful("L10-ReceiveReq")
			f.Guard = func(c *ctx, n *Node) bool { return n.At.Has(c.Port()) }
			return []action{f}
		}},
	{Name: "doorway-oracle",
		Usage: "doorways that meet §3's real-time guarantee by construction: a node observes its neighbours' true doorway positions (not their messages)",
		Procs: procs{Outside: outsideNow}},
	{Name: "new-color-avoids-neighbours",
		Usage: "new-color() also avoids the colors of neighbours outside the recoloring subgraph (\"in a greedy manner, depending on its neighbors\")",
		Procs: procs{NewColor: func(_ *alg, c *ctx, n *Node) int {
			return greedyAvoiding(n.Vw, c.Self(), forbidden(c, n, n.Vw))
		}}},
	{Name: "linkdown-recheck",
		Usage: "repair: after L56–L61 a hungry node behind SD^f re-runs L19–L22 (eats with all forks; with all low forks requests the high ones), as when a fork arrives",
		Handlers: []handler{{Name: "L56-LinkDown", Do: func(a *alg, c *ctx, n *Node, p model.Port) {
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
		}}}},
	{Name: "exit-before-release",
		Usage: "repair: L9 (exit SD^f and AD^f) before L8, so the forks released on exit carry flag false (a thinking node does not want them back)",
		Actions: func(a *alg) []action {
			f := a.faithful("L5-Exit")
			f.Do = func(c *ctx, n *Node) {
				n.State = Thinking
				n.Color = smallestFreeColor(c, n)                    // L6
				broadcast(c, Msg{Kind: UpdateColor, Color: n.Color}) // L7
				a.setPos(c, n, n.Pos&^(SDf|ADf))                     // L9
				n.Stage = Out
				a.releaseSuspended(c, n) // L8
			}
			return []action{f}
		}},
	{Name: "fork-anywhere",
		Usage: "L17–L23 run as printed wherever the node is (L19 makes a hungry node outside SD^f eat)",
		Actions: func(a *alg) []action {
			f := a.faithful("L17-ReceiveFork")
			f.Do = func(c *ctx, n *Node) { a.receiveForkAnywhere(c, n, c.Port(), c.Msg().Flag) }
			return []action{f}
		}},
}

// mutants are deliberate bugs the checker must catch.
var mutants = []replacement{
	{Name: "send-fork-keeps-at", Usage: "send-fork(j) does not clear at[j] (L32)",
		Procs: procs{SendFork: func(_ *alg, c *ctx, n *Node, p model.Port) {
			c.SendPort(p, Msg{Kind: Fork, Flag: less(n.C[p], n.Color) && n.Pos&SDf != 0})
			n.S = n.S.Remove(p)
		}}},
	{Name: "eat-with-low-forks", Usage: "L19 eats once all low forks are in",
		Actions: func(a *alg) []action {
			f := a.faithful("L17-ReceiveFork")
			f.Do = func(c *ctx, n *Node) {
				a.receiveFork(c, n, c.Port(), c.Msg().Flag)
				if n.Pos&SDf != 0 && n.State == Hungry && allLowForks(c, n) {
					n.State = Eating
				}
			}
			return []action{f}
		}},
	{Name: "doorways-open", Usage: "every doorway lets a node cross while a neighbour is behind it",
		Procs: procs{Outside: func(*ctx, *Node, model.Port, Doors) bool { return true }}},
	{Name: "linkup-moving-keeps-eating", Usage: "L50 dropped: a node that moves next to a static node keeps eating",
		Handlers: []handler{{Name: "L47-LinkUpWhileMoving", Do: func(a *alg, c *ctx, n *Node, p model.Port) {
			st := n.State
			linkUpMoving(a, c, n, p)
			n.State = st
		}}}},
}

// linkUpMovingNested is L47–L55 with L50–L55 all under L49's if: a mover
// that is not behind SD^f only forgets the fork and color (L48).
func linkUpMovingNested(a *alg, c *ctx, n *Node, p model.Port) {
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

// faithful returns a copy of the faithful action called name.
func (a *alg) faithful(name string) action {
	for _, x := range a.actions() {
		if x.Name == name {
			return x
		}
	}
	panic("akw: no faithful action " + name)
}

// outsideNow observes the neighbour's true position (doorway-oracle).
func outsideNow(c *ctx, _ *Node, p model.Port, d Doors) bool {
	peer, ok := c.PeerState(p)
	return !ok || peer.Pos&d == 0
}

// forbidden is the set of recoloring outputs (as new-color() values) that
// neighbours outside the view hold.
func forbidden(c *ctx, n *Node, v View) uint16 {
	var out uint16
	for _, p := range c.Neighbors().All() {
		j, _ := c.PeerOf(p)
		if x := n.C[p]; x < 0 && x != Bot && !v.Known.Has(j) {
			out |= 1 << (-x - 1)
		}
	}
	return out
}
