package lmutin

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
	PropMessages    = "message-bound"
	Liveness        = "sequence-completion"
)

// CS returns CS_i(C) of §2.2: the processes of N_i ∪ {P_i} in the CS.
func CS(w *world, g Graph, i model.NodeID) model.NodeSet {
	var s model.NodeSet
	for _, j := range g.Closed(i).All() {
		if w.Nodes[j].State == InCS {
			s = s.Add(j)
		}
	}
	return s
}

// firstUnsafe returns the first process i with |CS_i(C)| < l_i.
func (a *algo) firstUnsafe(w *world) (model.NodeID, bool) {
	for i := range w.Nodes {
		id := model.NodeID(i)
		if CS(w, a.g, id).Len() < a.l[i] {
			return id, true
		}
	}
	return 0, false
}

// firstOverGranted returns the first process i with |grantedTo_i| >
// |N_i| + 1 − l_i.
func (a *algo) firstOverGranted(w *world) (model.NodeID, bool) {
	for i := range w.Nodes {
		if w.Nodes[i].GrantedTo.Len() > a.g.Degree(model.NodeID(i))+1-a.l[i] {
			return model.NodeID(i), true
		}
	}
	return 0, false
}

// invariants are Definition 1's safety for l_i-LMUTIN (l_i ≤ |CS_i(C)|; the
// upper bound |N_i|+1 always holds), the bound on grants that Lemma 1's
// proof uses, and the well-definedness of every handler run.
func (a *algo) invariants() []property {
	return []property{
		// A witness: some process completes an exit sequence (it was
		// asked to exit and is no longer in a sequence).
		{Name: "exit-completed", Expect: model.Sometimes, Holds: func(w *world) bool {
			for i := range w.Nodes {
				if w.Meta[i].Requests > 0 && w.Nodes[i].Seq == Idle {
					return true
				}
			}
			return false
		}},
		{
			Name:  PropSafety,
			Holds: func(w *world) bool { _, bad := a.firstUnsafe(w); return !bad },
			Explain: func(w *world) string {
				i, _ := a.firstUnsafe(w)
				return fmt.Sprintf("|CS_%d| = |%v| < l_%d = %d", i, CS(w, a.g, i), i, a.l[i])
			},
		},
		{
			Name:  PropGrantBound,
			Holds: func(w *world) bool { _, bad := a.firstOverGranted(w); return !bad },
			Explain: func(w *world) string {
				i, _ := a.firstOverGranted(w)
				return fmt.Sprintf("grantedTo_%d = %v has more than |N_%d|+1−l_%d = %d items", i, w.Nodes[i].GrantedTo, i, i, a.g.Degree(i)+1-a.l[i])
			},
		},
		{
			Name:  PropWellDefined,
			Holds: func(w *world) bool { return w.Count(func(n *Node) bool { return n.Undefined }) == 0 },
			Explain: func(w *world) string {
				for i := range w.Nodes {
					if w.Nodes[i].Undefined {
						return fmt.Sprintf("n%d ran deleteMin/max on an empty set or a Relinquish that deleted no single item", i)
					}
				}
				return ""
			},
		},
	}
}

// countMessages wraps every receive action with the ghost update Recv++
// and adds message-bound: the messages sent so far (received plus in
// transit) are at most Σ_i (|N_i|+1)·(6·exits_i + 1) — Lemma 3's
// 6(|N_i|+1) per exit with contention, whose Release messages go out at
// the next entry, plus the Releases of a first entry from C_0.
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
				return fmt.Sprintf("%d messages sent, bound Σ_i (|N_i|+1)(6·exits_i + 1) = %d", sent, bound)
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
		bound += (a.g.Degree(model.NodeID(i)) + 1) * (6*int(w.Meta[i].Requests) + 1)
	}
	return sent, bound
}
