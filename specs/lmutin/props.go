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
