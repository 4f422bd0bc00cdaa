package akw

import "github.com/mxcheck/mxcheck/model"

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

// procs are the procedures of Algorithm 1 a variant or mutant may replace.
type procs struct {
	// SendFork is send-fork(j) (L30–L32).
	SendFork func(a *alg, c *ctx, n *Node, p model.Port)
	// SyncClear is the guard of a synchronous doorway's entry code: every
	// neighbour observed outside doorway d at once.
	SyncClear func(a *alg, c *ctx, n *Node, d Doors) bool
	// Outside reports whether the neighbour on port p is observed outside
	// doorway d.
	Outside func(c *ctx, n *Node, p model.Port, d Doors) bool
	// NewColor is new-color() once its rounds are over (§4.4).
	NewColor func(a *alg, c *ctx, n *Node) int
	// BeginEntry starts the entry code of doorway d at stage; Cross
	// records that the node crossed the doorways in d. Their ghost
	// versions (ghost.go, --doorway-ghost) record what the
	// doorway-guarantee property reads.
	BeginEntry func(c *ctx, n *Node, stage Stage, d Doors)
	Cross      func(n *Node, d Doors)
	// UpStatic, UpMoving and Down are the link handlers L44–L46, L47–L55
	// and L56–L61 (links.go).
	UpStatic, UpMoving, Down func(a *alg, c *ctx, n *Node, p model.Port)
}

// alg is Algorithm 1 compiled with its configuration and the procedures
// the chosen variants and mutants installed.
type alg struct {
	rounds uint8 // rounds of new-color(): n−1, at least 1
	procs
}

func is(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }

// ---- macros and helpers of the pseudocode ----

// allForks is the macro all-forks: at[j] for every neighbour j.
func allForks(c *ctx, n *Node) bool { return n.N&^n.At == 0 }

// lowPorts is the set of low neighbours (color[j] < color[i]).
func lowPorts(c *ctx, n *Node) model.Ports {
	var s model.Ports
	for _, p := range n.N.All() {
		if less(n.C[p], n.Color) {
			s = s.Add(p)
		}
	}
	return s
}

// highPorts is the set of high neighbours (color[j] > color[i]).
func highPorts(c *ctx, n *Node) model.Ports {
	var s model.Ports
	for _, p := range n.N.All() {
		if less(n.Color, n.C[p]) {
			s = s.Add(p)
		}
	}
	return s
}

// allLowForks is the macro all-low-forks.
func allLowForks(c *ctx, n *Node) bool { return lowPorts(c, n)&^n.At == 0 }

// requestLowForks is L24–L26.
func requestLowForks(c *ctx, n *Node) {
	for _, p := range (lowPorts(c, n) &^ n.At).All() {
		c.SendPort(p, Msg{Kind: Req})
	}
}

// requestHighForks is L27–L29.
func requestHighForks(c *ctx, n *Node) {
	for _, p := range (highPorts(c, n) &^ n.At).All() {
		c.SendPort(p, Msg{Kind: Req})
	}
}

// sendFork is L30–L32.
func sendFork(_ *alg, c *ctx, n *Node, p model.Port) {
	c.SendPort(p, Msg{Kind: Fork, Flag: less(n.C[p], n.Color) && n.Pos&SDf != 0})
	n.At = n.At.Remove(p)
	n.S = n.S.Remove(p)
}

// releaseHighForks is L33–L35.
func (a *alg) releaseHighForks(c *ctx, n *Node) {
	for _, p := range n.S.All() {
		if less(n.Color, n.C[p]) && n.At.Has(p) {
			a.SendFork(a, c, n, p)
		}
	}
}

// releaseSuspended is "for each j s.t. j ∈ S do: send-fork(j)" (L8, L51).
func (a *alg) releaseSuspended(c *ctx, n *Node) {
	for _, p := range n.S.All() {
		a.SendFork(a, c, n, p)
	}
}

// broadcast sends m to every neighbour.
func broadcast(c *ctx, n *Node, m Msg) {
	for _, p := range n.N.All() {
		c.SendPort(p, m)
	}
}

// setPos moves the node across or out of doorways and sends the cross/exit
// message: its new position, which the neighbours keep in L[i].
func (a *alg) setPos(c *ctx, n *Node, pos Doors) {
	a.Cross(n, pos&^n.Pos)
	n.Pos = pos
	broadcast(c, n, Msg{Kind: Door, Doors: pos})
}

// ---- doorways (reconstructed, doc.go) ----

// beginAsync starts the entry code of asynchronous doorway d: every
// neighbour whose last message says it is outside d counts as found
// outside once.
func (a *alg) beginAsync(c *ctx, n *Node, stage Stage, d Doors) {
	a.BeginEntry(c, n, stage, d)
	n.Seen = 0
	for _, p := range n.N.All() {
		if a.Outside(c, n, p, d) {
			n.Seen = n.Seen.Add(p)
		}
	}
}

// beginEntry starts the entry code of a doorway.
func beginEntry(_ *ctx, n *Node, stage Stage, _ Doors) { n.Stage = stage }

// crossed records nothing: crossings are ghost business.
func crossed(*Node, Doors) {}

// asyncClear is the crossing condition of asynchronous doorway d: each
// neighbour found outside at least once (in Seen, or outside now).
func (a *alg) asyncClear(c *ctx, n *Node, d Doors) bool {
	for _, p := range (n.N &^ n.Seen).All() {
		if !a.Outside(c, n, p, d) {
			return false
		}
	}
	return true
}

// syncClear is the crossing condition of synchronous doorway d: every
// neighbour observed outside d, now.
func syncClear(a *alg, c *ctx, n *Node, d Doors) bool {
	for _, p := range n.N.All() {
		if !a.Outside(c, n, p, d) {
			return false
		}
	}
	return true
}

// outsideByMessages is the message-passing observation: the neighbour's
// last cross/exit message, L[j], says it is outside d.
func outsideByMessages(_ *ctx, n *Node, p model.Port, d Doors) bool { return n.L[p]&d == 0 }

// ---- the faithful action table ----

// actions is Algorithm 1 as guarded actions, in the order of the
// pseudocode (L1–L43), with the doorway code of §3 reconstructed.
func (a *alg) actions() []action {
	return []action{
		{Name: "BecomeHungry", Kind: model.Request,
			Guard: func(_ *ctx, n *Node) bool { return n.State == Thinking },
			Do:    func(_ *ctx, n *Node) { n.State = Hungry }},
		{Name: "L55-EnterDoorway", // go to the entry of AD^r (moved) or AD^f (§4)
			Guard: func(_ *ctx, n *Node) bool { return n.State == Hungry && n.Stage == Out && n.Wait == 0 },
			Do: func(c *ctx, n *Node) {
				if n.Moved {
					a.beginAsync(c, n, EntryADr, ADr)
				} else {
					a.beginAsync(c, n, EntryADf, ADf)
				}
			}},
		{Name: "CrossADr",
			Guard: func(c *ctx, n *Node) bool { return n.Stage == EntryADr && a.asyncClear(c, n, ADr) },
			Do: func(c *ctx, n *Node) {
				a.setPos(c, n, n.Pos|ADr)
				a.BeginEntry(c, n, EntrySDr, SDr)
			}},
		{Name: "L36-CrossSDr",
			Guard: func(c *ctx, n *Node) bool { return n.Stage == EntrySDr && a.SyncClear(a, c, n, SDr) },
			Do: func(c *ctx, n *Node) {
				a.setPos(c, n, n.Pos|SDr)
				n.Stage = Coloring
				n.R = n.N // L37
				a.startNewColor(c, n)
			}},
		{Name: "NewColorRound",
			Guard: func(_ *ctx, n *Node) bool { return n.Stage == Coloring && n.R&^n.Got == 0 && n.Round < a.rounds },
			Do: func(c *ctx, n *Node) {
				n.Round++
				a.sendViews(c, n)
			}},
		{Name: "L38-PickColor",
			Guard: func(_ *ctx, n *Node) bool { return n.Stage == Coloring && n.R&^n.Got == 0 && n.Round == a.rounds },
			Do: func(c *ctx, n *Node) {
				n.Color = -Color(a.NewColor(a, c, n)) - 1               // L38
				broadcast(c, n, Msg{Kind: UpdateColor, Color: n.Color}) // L39
				n.Moved = false
				n.Round, n.Got, n.Vw = 0, 0, View{}
				a.beginAsync(c, n, EntryADf, ADf)
			}},
		{Name: "CrossADf",
			Guard: func(c *ctx, n *Node) bool { return n.Stage == EntryADf && a.asyncClear(c, n, ADf) },
			Do: func(c *ctx, n *Node) {
				a.setPos(c, n, n.Pos|ADf)
				if n.Pos&SDr != 0 {
					n.Stage = ExitR
				} else {
					a.BeginEntry(c, n, EntrySDf, SDf)
				}
			}},
		{Name: "ExitFirstDoubleDoorway", // exit SD^r, then AD^r (§3)
			Guard: func(_ *ctx, n *Node) bool { return n.Stage == ExitR },
			Do: func(c *ctx, n *Node) {
				n.R = 0 // R: neighbours behind the first double doorway participating in the recoloring
				a.setPos(c, n, n.Pos&^(SDr|ADr))
				a.BeginEntry(c, n, EntrySDf, SDf)
			}},
		{Name: "L1-CrossSDf",
			Guard: func(c *ctx, n *Node) bool {
				return n.Stage == EntrySDf && n.State == Hungry && a.SyncClear(a, c, n, SDf)
			},
			Do: func(c *ctx, n *Node) {
				a.setPos(c, n, n.Pos|SDf)
				n.Stage = Forks
				if allForks(c, n) { // L2
					n.State = Eating
				}
				if allLowForks(c, n) { // L3
					requestHighForks(c, n)
				} else { // L4
					requestLowForks(c, n)
				}
			}},
		{Name: "L5-Exit", Kind: model.Exit,
			Guard: func(_ *ctx, n *Node) bool { return n.State == Eating },
			Do: func(c *ctx, n *Node) {
				n.State = Thinking
				n.Color = smallestFreeColor(c, n)                       // L6
				broadcast(c, n, Msg{Kind: UpdateColor, Color: n.Color}) // L7
				a.releaseSuspended(c, n)                                // L8
				a.setPos(c, n, n.Pos&^(SDf|ADf))                        // L9
				n.Stage = Out
			}},
		{Name: "L10-ReceiveReq", Kind: model.Receive, On: is(Req),
			Do: func(c *ctx, n *Node) {
				p := c.Port()
				if !n.At.Has(p) {
					return // the fork is on its way to j (reconstruction: the request is void)
				}
				outside := n.Pos&SDf == 0
				switch {
				case less(n.Color, n.C[p]) && (!allLowForks(c, n) || outside): // L11–L12
					a.SendFork(a, c, n, p)
				case less(n.C[p], n.Color) && (!allForks(c, n) || outside): // L13–L15
					a.SendFork(a, c, n, p)
					a.releaseHighForks(c, n)
				default: // L16
					n.S = n.S.Add(p)
				}
			}},
		{Name: "L17-ReceiveFork", Kind: model.Receive, On: is(Fork),
			Do: func(c *ctx, n *Node) { a.receiveFork(c, n, c.Port(), c.Msg().Flag) }},
		{Name: "ReceiveUpdateColor", Kind: model.Receive, On: is(UpdateColor),
			Do: func(c *ctx, n *Node) { n.C[c.Port()] = c.Msg().Color }},
		{Name: "L53-ReceiveHello", Kind: model.Receive, On: is(Hello),
			Do: func(c *ctx, n *Node) {
				p := c.Port()
				n.C[p] = c.Msg().Color
				a.receiveDoor(n, p, c.Msg().Doors)
				n.Wait = n.Wait.Remove(p)
			}},
		{Name: "ReceiveDoor", Kind: model.Receive, On: is(Door),
			Do: func(c *ctx, n *Node) { a.receiveDoor(n, c.Port(), c.Msg().Doors) }},
		{Name: "ReceiveView", Kind: model.Receive, On: is(ViewMsg),
			Guard: func(c *ctx, n *Node) bool { return !a.expectsView(c, n) || c.Msg().Round == n.Round },
			Do: func(c *ctx, n *Node) {
				p := c.Port()
				if !a.expectsView(c, n) { // L40–L41
					c.SendPort(p, Msg{Kind: Nack})
					return
				}
				n.Vw = n.Vw.Merge(c.Msg().View)
				n.Got = n.Got.Add(p)
			}},
		{Name: "L42-ReceiveNack", Kind: model.Receive, On: is(Nack),
			Do: func(c *ctx, n *Node) {
				if n.Stage == Coloring {
					n.R = n.R.Remove(c.Port()) // L43
				}
			}},
	}
}

// receiveFork is L17–L23. A fork that reaches a node outside SD^f (it left
// the fork collection module after requesting) is kept, and a flag, which
// is a request for it back, is granted as L10–L16 grant every request
// outside SD^f (reconstruction, doc.go).
func (a *alg) receiveFork(c *ctx, n *Node, p model.Port, flag bool) {
	n.At = n.At.Add(p) // L18
	if n.Pos&SDf == 0 {
		if flag {
			a.SendFork(a, c, n, p)
		}
		return
	}
	if allForks(c, n) && n.State == Hungry { // L19
		n.State = Eating
	}
	if allLowForks(c, n) { // L20
		if flag { // L21
			n.S = n.S.Add(p)
		}
		requestHighForks(c, n) // L22
	} else if flag { // L23
		a.SendFork(a, c, n, p)
	}
}

// receiveDoor records a cross/exit message in L[j]; a neighbour found
// outside the asynchronous doorway being entered counts as seen.
func (a *alg) receiveDoor(n *Node, p model.Port, d Doors) {
	n.L[p] = d
	switch {
	case n.Stage == EntryADr && d&ADr == 0, n.Stage == EntryADf && d&ADf == 0:
		n.Seen = n.Seen.Add(p)
	}
}

// smallestFreeColor is L6: the smallest non-negative color not used by any
// neighbour, as recorded in color[].
func smallestFreeColor(c *ctx, n *Node) Color {
	var used uint16
	for _, p := range n.N.All() {
		if x := n.C[p]; x >= 0 && x < 16 {
			used |= 1 << x
		}
	}
	k := Color(0)
	for used&(1<<k) != 0 {
		k++
	}
	return k
}
