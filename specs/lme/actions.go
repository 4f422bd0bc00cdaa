package lme

import "github.com/mxcheck/mxcheck/model"

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

// algo is the algorithm with its parameter K and the CLEANUP helper its
// actions call. A variant or mutant that changes CLEANUP replaces or wraps
// the helper (see variants.go); one that changes the network rather than
// the algorithm sets reusePorts, which Build copies into the configuration.
type algo struct {
	k       int
	cleanup func(c *ctx, n *Node)
	// reusePorts drops footnote 1 (mutant reuse-ports).
	reusePorts bool
}

func newAlgo(k int) *algo { return &algo{k: k, cleanup: cleanup} }

// cleanup is the CLEANUP() helper (Algorithm 1, lines 22–31). Lines 28–31
// all belong under `if C = ∅` (DESIGN.md; Lemma 9's proof).
func cleanup(c *ctx, n *Node) {
	forgetDisconnected(c, n)
	if n.C.Empty() {
		for _, l := range n.H.All() {
			c.SendPort(l, Msg{Kind: MsgReady})
		}
		admitHeld(n)
	}
}

// forgetDisconnected is CLEANUP lines 22–27: the ports in the snapshot of
// D leave lock and every set of Table 1.
func forgetDisconnected(c *ctx, n *Node) {
	d := c.Disconnected()
	if n.Lock > 0 && d.Has(model.Port(n.Lock)) {
		n.Lock = None
	}
	n.L &^= d
	n.R &^= d
	n.W.T &^= d
	n.W.F &^= d
	n.H &^= d
	n.A &^= d
	n.C &^= d
	for _, p := range d.All() {
		n.P[p] = 0
	}
}

// admitHeld is CLEANUP lines 29–31, once the competition is over (C = ∅):
// the nodes on hold become applicants, and the phase is PREPARE if there
// are any.
func admitHeld(n *Node) {
	n.A |= n.H
	n.H = 0
	if !n.A.Empty() {
		n.Phase = PhasePrepare
	} else {
		n.Phase = NoPhase
	}
}

// ghost wraps an action's operations with the update of the ghost variable
// Persist, which every action execution performs with its snapshot of D.
func ghost(f func(c *ctx, n *Node)) func(c *ctx, n *Node) {
	return func(c *ctx, n *Node) {
		n.Persist &^= c.Disconnected()
		f(c, n)
	}
}

func is(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }

// closedNeighbourhood is N[u] as ports: the self-port and every connected
// port.
func closedNeighbourhood(c *ctx) model.Ports { return c.Neighbors().Add(0) }

// uniqueHighest returns the port with the unique highest priority in P.
func uniqueHighest(p *PSet) (model.Port, bool) {
	best, count := -1, 0
	var at model.Port
	for l, b := range p {
		for k := 7; k >= 0; k-- {
			if b&(1<<k) == 0 {
				continue
			}
			switch {
			case k > best:
				best, count, at = k, 1, model.Port(l)
			case k == best:
				count++
			}
		}
	}
	return at, count == 1
}

// actions returns the guarded actions of Algorithms 1–3, in the paper's
// order.
func (a *algo) actions() []action {
	return []action{
		// Algorithm 1: preparation phase.
		{
			Name:  "InitLock",
			Kind:  model.Request,
			Guard: func(_ *ctx, n *Node) bool { return n.State == Idle },
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.State = Prepare
				n.L = closedNeighbourhood(c)
				n.Persist = n.L
				for _, l := range n.L.All() {
					c.SendPort(l, Msg{Kind: MsgPrepare})
				}
			}),
		},
		{
			Name: "ReceivePrepare",
			Kind: model.Receive,
			On:   is(MsgPrepare),
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				l := c.Port()
				if n.Phase == PhaseCompete {
					n.H = n.H.Add(l)
				} else {
					n.A = n.A.Add(l)
					n.Phase = PhasePrepare
					c.SendPort(l, Msg{Kind: MsgReady})
				}
			}),
		},
		{
			Name: "ReceiveReady",
			Kind: model.Receive,
			On:   is(MsgReady),
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.R = n.R.Add(c.Port())
			}),
		},
		{
			Name:  "CheckStart",
			Guard: func(_ *ctx, n *Node) bool { return n.State == Prepare && n.R == n.L },
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.State = Compete
				n.R = 0
				n.W = WSet{}
				p := uint8(c.Choose(a.k))
				for _, l := range n.L.All() {
					c.SendPort(l, Msg{Kind: MsgRequestLock, Arg: p})
				}
			}),
		},
		{
			Name:  "Cleanup",
			Guard: func(_ *ctx, n *Node) bool { return n.Phase != NoPhase || n.State == Unlock },
			Do:    ghost(func(c *ctx, n *Node) { a.cleanup(c, n) }),
		},
		// Algorithm 2: competition phase.
		{
			Name: "ReceiveRequest",
			Kind: model.Receive,
			On:   is(MsgRequestLock),
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				l := c.Port()
				if n.A.Has(l) {
					n.A = n.A.Remove(l)
					n.C = n.C.Add(l)
				}
				n.P[l] |= 1 << c.Msg().Arg
				n.Phase = PhaseCompete
			}),
		},
		{
			Name: "CheckPriorities",
			Guard: func(_ *ctx, n *Node) bool {
				return n.Phase == PhaseCompete && n.C.Len() == n.P.Len()
			},
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				win, unique := uniqueHighest(&n.P)
				if n.Lock == None && unique {
					c.SendPort(win, Msg{Kind: MsgWin, Arg: 1})
					for _, l := range n.C.Remove(win).All() {
						c.SendPort(l, Msg{Kind: MsgWin})
					}
				} else {
					for _, l := range n.C.All() {
						c.SendPort(l, Msg{Kind: MsgWin})
					}
				}
				n.P = PSet{}
			}),
		},
		{
			Name: "ReceiveWin",
			Kind: model.Receive,
			On:   is(MsgWin),
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				if c.Msg().Arg != 0 {
					n.W.T = n.W.T.Add(c.Port())
				} else {
					n.W.F = n.W.F.Add(c.Port())
				}
			}),
		},
		{
			Name:  "CheckWin",
			Guard: func(_ *ctx, n *Node) bool { return n.State == Compete && n.W.Len() == n.L.Len() },
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				if !n.W.F.Empty() {
					p := uint8(c.Choose(a.k))
					for _, l := range n.L.All() {
						c.SendPort(l, Msg{Kind: MsgRequestLock, Arg: p})
					}
				} else {
					n.State = Win
					n.R = 0
					for _, l := range n.L.All() {
						c.SendPort(l, Msg{Kind: MsgSetLock})
					}
				}
				n.W = WSet{}
			}),
		},
		{
			Name: "ReceiveSetLock",
			Kind: model.Receive,
			On:   is(MsgSetLock),
			Do: ghost(func(c *ctx, n *Node) {
				l := c.Port()
				n.Lock = Lock(l)
				n.C = n.C.Remove(l)
				a.cleanup(c, n)
				c.SendPort(l, Msg{Kind: MsgAckLock})
			}),
		},
		{
			Name: "ReceiveAckLock",
			Kind: model.Receive,
			On:   is(MsgAckLock),
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.R = n.R.Add(c.Port())
			}),
		},
		{
			Name:  "CheckDone",
			Guard: func(_ *ctx, n *Node) bool { return n.State == Win && n.R == n.L },
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.State = Locked
				n.R = 0
			}),
		},
		// Algorithm 3: UNLOCK.
		{
			Name:  "InitUnlock",
			Kind:  model.Exit,
			Guard: func(_ *ctx, n *Node) bool { return n.State == Locked },
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.State = Unlock
				n.R = 0
				for _, l := range n.L.All() {
					c.SendPort(l, Msg{Kind: MsgReleaseLock})
				}
			}),
		},
		{
			Name: "ReceiveRelease",
			Kind: model.Receive,
			On:   is(MsgReleaseLock),
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.Lock = None
				c.SendPort(c.Port(), Msg{Kind: MsgAckUnlock})
			}),
		},
		{
			Name: "ReceiveAckUnlock",
			Kind: model.Receive,
			On:   is(MsgAckUnlock),
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.R = n.R.Add(c.Port())
			}),
		},
		{
			Name:  "CheckUnlocked",
			Guard: func(_ *ctx, n *Node) bool { return n.State == Unlock && n.R == n.L },
			Do: ghost(func(c *ctx, n *Node) {
				a.cleanup(c, n)
				n.State = Idle
				n.R = 0
			}),
		},
	}
}
