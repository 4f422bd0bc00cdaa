package akw

import "github.com/mxcheck/mxcheck/model"

// The link creation and failure handlers of Algorithm 1 (L44–L61). By
// default the engine runs them atomically with the adversary's connect and
// disconnect moves (model.Notifications), so N is the set of connected
// ports at both endpoints; with --notify=async they run when the
// notification is delivered (model.AsyncLinks), and N is what the node has
// been told.

// linkUpStatic is L44–L46. The static node owns the new fork. A new
// neighbour, whose L[j] is exit_all, counts as found outside an
// asynchronous doorway being entered.
func linkUpStatic(_ *alg, c *ctx, n *Node, p model.Port) {
	n.N = n.N.Add(p)
	n.At = n.At.Add(p) // L45
	forgetPort(n, p)
	n.C[p] = Bot
	n.L[p] = 0
	if n.Stage == EntryADr || n.Stage == EntryADf {
		n.Seen = n.Seen.Add(p)
	}
	c.SendPort(p, Msg{Kind: Hello, Color: n.Color, Doors: n.Pos}) // L46
}

// linkUpMoving is L47–L55, with L52–L55 outside the `if` of L49 (the
// prose of §4: "When a moving node arrives at a new neighborhood, it exits
// any doorway that it has crossed and waits ..."). The wait of L53 is the
// set Wait; L54–L55 are the action L55-EnterDoorway once Wait is empty.
func linkUpMoving(a *alg, c *ctx, n *Node, p model.Port) {
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
	}
	exitAnyDoorway(a, c, n) // L52
	n.Wait = n.Wait.Add(p)
}

// exitAnyDoorway is L52: the node leaves every doorway and module it is
// in, tells its neighbours when it was behind one, and will recolor.
func exitAnyDoorway(a *alg, c *ctx, n *Node) {
	if n.Pos != 0 {
		a.setPos(c, n, 0)
	}
	n.Stage = Out
	n.Moved = true
	n.R, n.Seen, n.Got, n.Round, n.Vw = 0, 0, 0, 0, View{}
}

// linkDown is L56–L61, then forgets everything kept about port p (the
// fork of the link is destroyed with it; doc.go).
func linkDown(a *alg, c *ctx, n *Node, p model.Port) {
	n.N = n.N.Remove(p)
	switch {
	case n.Pos&SDf != 0: // L57
		n.S = n.S.Remove(p)                        // L58
		if !n.At.Has(p) && less(n.C[p], n.Color) { // L59
			returnToSDf(a, c, n) // L60
		}
	case n.Pos&SDr != 0: // L61
		n.R = n.R.Remove(p)
	}
	n.At, n.S, n.R = n.At.Remove(p), n.S.Remove(p), n.R.Remove(p)
	n.Seen, n.Wait, n.Got = n.Seen.Remove(p), n.Wait.Remove(p), n.Got.Remove(p)
	n.C[p], n.L[p] = Bot, 0
	forgetPort(n, p)
}

// returnToSDf is L60, the return path of the second double doorway: exit
// SD^f releasing the suspended forks (§4.1) and go back to its entry.
func returnToSDf(a *alg, c *ctx, n *Node) {
	a.releaseSuspended(c, n)
	a.setPos(c, n, n.Pos&^SDf)
	a.BeginEntry(c, n, EntrySDf, SDf)
}
