package lme

import "github.com/mxcheck/mxcheck/model"

// Mutant names a deliberate bug (--mutant).
type Mutant string

// The mutants of issue 3.
const (
	// Faithful is the algorithm as published.
	Faithful Mutant = "none"
	// CleanupNoReady (a): CLEANUP never sends ready() to the nodes on hold
	// (line 28 dropped).
	CleanupNoReady Mutant = "cleanup-no-ready"
	// WinWhileLocked (b): CHECKPRIORITIES sends win(TRUE) to the unique
	// highest priority even when lock ≠ ⊥.
	WinWhileLocked Mutant = "win-while-locked"
	// SetLockKeepsCandidate (c): RECEIVESETLOCK leaves ℓ in C.
	SetLockKeepsCandidate Mutant = "setlock-keeps-candidate"
	// ReusePorts (d): footnote 1 dropped; same as --reuse-ports.
	ReusePorts Mutant = "reuse-ports"
	// AdmitWhileCompeting (e): RECEIVEPREPARE adds the sender to A (and
	// answers ready()) even while phase = COMPETE, instead of putting it on
	// hold; phase is left at COMPETE.
	AdmitWhileCompeting Mutant = "admit-while-competing"
)

// Mutants lists every mutant name, Faithful first.
var Mutants = []Mutant{Faithful, CleanupNoReady, WinWhileLocked, SetLockKeepsCandidate, ReusePorts, AdmitWhileCompeting}

// Variant names a version of the algorithm (--variant).
type Variant string

// The variants.
const (
	// Published is the algorithm exactly as Algorithms 1–3 give it.
	Published Variant = "faithful"
	// CleanupInWin is the repair of the CheckDone deadlock: the CLEANUP
	// action is also enabled while state = WIN, so a node waiting for
	// ack-lock() from a neighbour that has been disconnected removes it
	// from L even when its phase is ⊥.
	CleanupInWin Variant = "cleanup-in-win"

	// LateJoinersLose is the repair of the competition deadlock: a
	// participant remembers (Node.Decided) that a trial of the current
	// competition has been decided; a request-lock() from an applicant that
	// arrives after that is answered at once with win(FALSE), as if it had
	// arrived in time and lost, instead of waiting for the next trial.
	LateJoinersLose Variant = "late-joiners-lose"
	// Repaired applies both repairs.
	Repaired Variant = "repaired"
)

// Variants lists every variant name, the default first.
var Variants = []Variant{Published, CleanupInWin, LateJoinersLose, Repaired}

func (a *algo) cleanupInWin() bool    { return a.vr == CleanupInWin || a.vr == Repaired }
func (a *algo) lateJoinersLose() bool { return a.vr == LateJoinersLose || a.vr == Repaired }

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

// algo is the algorithm with its parameters: K and the chosen mutant and
// variant.
type algo struct {
	k   int
	mut Mutant
	vr  Variant
}

// cleanup is the CLEANUP() helper (Algorithm 1, lines 22–31). Lines 28–31
// all belong under `if C = ∅` (DESIGN.md; Lemma 9's proof).
func (a *algo) cleanup(c *ctx, n *Node) {
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
	if n.C.Empty() {
		if a.mut != CleanupNoReady {
			for _, l := range n.H.All() {
				c.SendPort(l, Msg{Kind: MsgReady})
			}
		}
		n.A |= n.H
		n.H = 0
		n.Decided = false
		if !n.A.Empty() {
			n.Phase = PhasePrepare
		} else {
			n.Phase = NoPhase
		}
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
				switch {
				case n.Phase == PhaseCompete && a.mut == AdmitWhileCompeting:
					n.A = n.A.Add(l)
					c.SendPort(l, Msg{Kind: MsgReady})
				case n.Phase == PhaseCompete:
					n.H = n.H.Add(l)
				default:
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
			Name: "Cleanup",
			Guard: func(_ *ctx, n *Node) bool {
				return n.Phase != NoPhase || n.State == Unlock || a.cleanupInWin() && n.State == Win
			},
			Do: ghost(func(c *ctx, n *Node) { a.cleanup(c, n) }),
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
					if n.Decided {
						// Variant late-joiners-lose only: Decided is
						// never set otherwise.
						c.SendPort(l, Msg{Kind: MsgWin})
						n.Phase = PhaseCompete
						return
					}
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
				if (n.Lock == None || a.mut == WinWhileLocked) && unique {
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
				n.Decided = a.lateJoinersLose()
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
				if a.mut != SetLockKeepsCandidate {
					n.C = n.C.Remove(l)
				}
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
