package lkcs

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

type (
	world    = model.World[Node, Msg]
	property = model.Property[Node, Msg]
)

// Property names.
const (
	PropSafety      = "lk-safety"
	PropGrantBound  = "grant-bound"
	PropWellDefined = "well-defined"
	PropNoTrigger   = "trigger-never-fires"
	PropMessages    = "message-bound"
	Liveness        = "sequence-completion"
)

// CS returns CS_i(C) of §2.2: the processes of N_i ∪ {P_i} in the CS.
func (a *algo) CS(w *world, i model.NodeID) model.NodeSet {
	var s model.NodeSet
	for _, j := range a.g.Closed(i).All() {
		if w.Nodes[j].State == InCS {
			s = s.Add(j)
		}
	}
	return s
}

// first returns the first process for which bad holds.
func first(w *world, bad func(i model.NodeID) bool) (model.NodeID, bool) {
	for i := range w.Nodes {
		if bad(model.NodeID(i)) {
			return model.NodeID(i), true
		}
	}
	return 0, false
}

func (a *algo) unsafe(w *world) func(model.NodeID) bool {
	return func(i model.NodeID) bool {
		n := a.CS(w, i).Len()
		return n < a.l[i] || n > a.k[i]
	}
}

func (a *algo) overGranted(w *world) func(model.NodeID) bool {
	return func(i model.NodeID) bool {
		n := &w.Nodes[i]
		return n.GrantedTo[MUTIN].Len() > a.closedSize(i)-a.l[i] || n.GrantedTo[MUTEX].Len() > a.k[i]
	}
}

// invariants are Definition 1's safety, the bounds on grants Lemma 4's
// proof uses, well-definedness, and (with --report-trigger) the witness
// property that is violated exactly when the leader calls
// TriggerNomination.
func (a *algo) invariants(reportTrigger bool) []property {
	props := []property{
		// A witness: some process completes a CS change (an exit or an
		// entry sequence it was asked for).
		{Name: "change-completed", Expect: model.Sometimes, Holds: func(w *world) bool {
			for i := range w.Nodes {
				if w.Nodes[i].Changes > 0 && w.Nodes[i].Seq == Idle {
					return true
				}
			}
			return false
		}},
		{
			Name:  PropSafety,
			Holds: func(w *world) bool { _, bad := first(w, a.unsafe(w)); return !bad },
			Explain: func(w *world) string {
				i, _ := first(w, a.unsafe(w))
				return fmt.Sprintf("|CS_%d| = |%v| is outside l_%d..k_%d = %d..%d", i, a.CS(w, i), i, i, a.l[i], a.k[i])
			},
		},
		{
			Name:  PropGrantBound,
			Holds: func(w *world) bool { _, bad := first(w, a.overGranted(w)); return !bad },
			Explain: func(w *world) string {
				i, _ := first(w, a.overGranted(w))
				n := &w.Nodes[i]
				return fmt.Sprintf("n%d: grantedTo[MUTIN] = %v (at most |N_i|+1−l_i = %d), grantedTo[MUTEX] = %v (at most k_i = %d)",
					i, n.GrantedTo[MUTIN], a.closedSize(i)-a.l[i], n.GrantedTo[MUTEX], a.k[i])
			},
		},
		{
			Name:  PropWellDefined,
			Holds: func(w *world) bool { return w.Count(func(n *Node) bool { return n.Undefined }) == 0 },
			Explain: func(w *world) string {
				i, _ := first(w, func(i model.NodeID) bool { return w.Nodes[i].Undefined })
				return fmt.Sprintf("n%d ran deleteMin/min/max on an empty set or a Relinquish that deleted no single item", i)
			},
		},
	}
	if reportTrigger {
		props = append(props, property{
			Name:  PropNoTrigger,
			Holds: func(w *world) bool { return !w.Nodes[a.leader].TriggerWait },
			Explain: func(*world) string {
				return fmt.Sprintf("the leader n%d called TriggerNomination (a witness, not a bug)", a.leader)
			},
		})
	}
	return props
}

// countMessages wraps every receive action with the ghost update Recv++
// and adds message-bound: the messages sent so far (received plus in
// transit) are at most Σ_i 6(|N_i|+1)·changes_i, Lemma 6's bound per entry
// or exit with contention (the trigger's messages are not in the lemma).
func (a *algo) countMessages() model.Variant[Node, Msg] {
	return model.Variant[Node, Msg]{Name: "count-messages", Edit: func(p *model.Protocol[Node, Msg]) {
		for i := range p.Actions {
			if p.Actions[i].Kind != model.Receive {
				continue
			}
			do := p.Actions[i].Do
			p.Actions[i].Do = func(c *ctx, n *Node) { n.Recv++; do(c, n) }
		}
		p.Invariants = append(p.Invariants, property{
			Name:  PropMessages,
			Holds: func(w *world) bool { sent, bound := a.messages(w); return sent <= bound },
			Explain: func(w *world) string {
				sent, bound := a.messages(w)
				return fmt.Sprintf("%d messages sent, bound Σ_i 6(|N_i|+1)·changes_i = %d", sent, bound)
			},
		})
	}}
}

// messages returns the messages sent so far and the bound of
// message-bound.
func (a *algo) messages(w *world) (sent, bound int) {
	sent = len(w.Msgs)
	for i := range w.Nodes {
		sent += int(w.Nodes[i].Recv)
		bound += 6 * a.closedSize(model.NodeID(i)) * int(w.Nodes[i].Changes)
	}
	return sent, bound
}
