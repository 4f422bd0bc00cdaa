package lme

import "github.com/mxcheck/mxcheck/model"

// Variants and mutants change the published action table (actions.go) with
// replacement actions and edits. Build applies the mutant first and the
// variant on top of it: a variant's Edit wraps an action or the CLEANUP
// helper (algo.cleanup) as the mutant left it, so every mutant composes
// with every variant.

// variants are the versions of the algorithm (--variant), the published one
// first.
func (a *algo) variants() model.Variants[Node, Msg] {
	// The repair of the CheckDone deadlock: the Cleanup action is also
	// enabled while state = WIN, so a node waiting for ack-lock() from a
	// neighbour that has been disconnected removes it from L even when its
	// phase is ⊥.
	cleanupInWin := model.Variant[Node, Msg]{
		Name:  "cleanup-in-win",
		Usage: "repairs the CheckDone deadlock: Cleanup also enabled in state WIN",
		Actions: []action{{
			Name: "Cleanup",
			Guard: func(_ *ctx, n *Node) bool {
				return n.Phase != NoPhase || n.State == Unlock || n.State == Win
			},
			Do: ghost(func(c *ctx, n *Node) { a.cleanup(c, n) }),
		}},
	}
	// The repair of the competition deadlock: a participant remembers
	// (Node.Decided) that a trial of the current competition has been
	// decided, until its competition ends (C = ∅ in CLEANUP); a
	// request-lock() from an applicant that arrives after that is answered
	// at once with win(FALSE), as if it had arrived in time and lost,
	// instead of waiting for the next trial.
	lateJoinersLose := model.Variant[Node, Msg]{
		Name:  "late-joiners-lose",
		Usage: "repairs the competition deadlock: a request-lock() after a decided trial gets win(FALSE) at once",
		Actions: []action{{
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
						c.SendPort(l, Msg{Kind: MsgWin})
						n.Phase = PhaseCompete
						return
					}
				}
				n.P[l] |= 1 << c.Msg().Arg
				n.Phase = PhaseCompete
			}),
		}},
		Edit: func(p *model.Protocol[Node, Msg]) {
			after(p, "CheckPriorities", func(n *Node) { n.Decided = true })
			// Decided ends with the competition: CLEANUP's `if C = ∅`
			// block, which leaves C as it found it.
			clean := a.cleanup
			a.cleanup = func(c *ctx, n *Node) {
				clean(c, n)
				if n.C.Empty() {
					n.Decided = false
				}
			}
		},
	}
	return model.Variants[Node, Msg]{
		{Name: "faithful", Usage: "Algorithms 1–3 as published"},
		cleanupInWin,
		lateJoinersLose,
		both("repaired", "both repairs: cleanup-in-win and late-joiners-lose", cleanupInWin, lateJoinersLose),
	}
}

// mutants are deliberate bugs the checker must catch (--mutant), the
// mutants (a)–(e) of issue 3; lme_test.go names the property that catches
// each.
func (a *algo) mutants() model.Variants[Node, Msg] {
	return model.Variants[Node, Msg]{
		{Name: "none", Usage: "the algorithm as published"},
		// (a)
		{
			Name:  "cleanup-no-ready",
			Usage: "CLEANUP sends no ready() to the nodes on hold: line 28 dropped",
			Edit: func(*model.Protocol[Node, Msg]) {
				a.cleanup = func(c *ctx, n *Node) {
					forgetDisconnected(c, n)
					if n.C.Empty() {
						admitHeld(n)
					}
				}
			},
		},
		// (b)
		{
			Name:  "win-while-locked",
			Usage: "CheckPriorities sends win(TRUE) to the unique highest priority even when lock ≠ ⊥",
			Actions: []action{{
				Name: "CheckPriorities",
				Guard: func(_ *ctx, n *Node) bool {
					return n.Phase == PhaseCompete && n.C.Len() == n.P.Len()
				},
				Do: ghost(func(c *ctx, n *Node) {
					a.cleanup(c, n)
					win, unique := uniqueHighest(&n.P)
					if unique {
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
			}},
		},
		// (c)
		{
			Name:  "setlock-keeps-candidate",
			Usage: "ReceiveSetLock leaves ℓ in C",
			Actions: []action{{
				Name: "ReceiveSetLock",
				Kind: model.Receive,
				On:   is(MsgSetLock),
				Do: ghost(func(c *ctx, n *Node) {
					l := c.Port()
					n.Lock = Lock(l)
					a.cleanup(c, n)
					c.SendPort(l, Msg{Kind: MsgAckLock})
				}),
			}},
		},
		// (d)
		{
			Name:  "reuse-ports",
			Usage: "footnote 1 dropped, same as --reuse-ports",
			Edit:  func(*model.Protocol[Node, Msg]) { a.reusePorts = true },
		},
		// (e): phase stays COMPETE.
		{
			Name:  "admit-while-competing",
			Usage: "ReceivePrepare admits the sender and answers ready() even while phase = COMPETE",
			Actions: []action{{
				Name: "ReceivePrepare",
				Kind: model.Receive,
				On:   is(MsgPrepare),
				Do: ghost(func(c *ctx, n *Node) {
					a.cleanup(c, n)
					l := c.Port()
					n.A = n.A.Add(l)
					if n.Phase != PhaseCompete {
						n.Phase = PhasePrepare
					}
					c.SendPort(l, Msg{Kind: MsgReady})
				}),
			}},
		},
	}
}

// after makes the action called name also run then on the node state once
// its Do is done.
func after(p *model.Protocol[Node, Msg], name string, then func(n *Node)) {
	act := p.Action(name)
	do := act.Do
	act.Do = func(c *ctx, n *Node) {
		do(c, n)
		then(n)
	}
}

// both is the variant that applies x, then y.
func both(name, usage string, x, y model.Variant[Node, Msg]) model.Variant[Node, Msg] {
	return model.Variant[Node, Msg]{Name: name, Usage: usage, Edit: func(p *model.Protocol[Node, Msg]) {
		*p = *model.Apply(p, x, y)
	}}
}
