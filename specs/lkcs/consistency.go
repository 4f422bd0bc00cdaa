package lkcs

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// PropConsistent is the property grant-consistency (--grant-consistency).
const PropConsistent = "grant-consistency"

// inconsistent returns a process P_i waiting in a sequence of part at and
// a P_j ∈ nGrants_i[at] whose grantedTo_j[at] holds no grant of P_i: the
// definitions of §5.2 (nGrants_i[at] are the processes from which P_i
// obtains grants, grantedTo_j[at] the requests P_j has granted and P_i
// has not yet released) say this cannot happen. A Grant is counted only
// when it arrives, a Relinquish is sent only after the grant left
// nGrants_i, a Release only after the sequence ended.
func inconsistent(w *world) (i, j model.NodeID, bad bool) {
	for x := range w.Nodes {
		n := &w.Nodes[x]
		if n.Seq == Idle {
			continue
		}
		at := n.Seq.at()
		for _, y := range n.NGrants[at].All() {
			if !w.Nodes[y].GrantedTo[at].HasProc(model.NodeID(x)) {
				return model.NodeID(x), y, true
			}
		}
	}
	return 0, 0, false
}

// consistency adds grant-consistency.
func consistency() model.Variant[Node, Msg] {
	return model.Variant[Node, Msg]{Name: "grant-consistency", Edit: func(p *model.Protocol[Node, Msg]) {
		p.Invariants = append(p.Invariants, property{
			Name:  PropConsistent,
			Holds: func(w *world) bool { _, _, bad := inconsistent(w); return !bad },
			Explain: func(w *world) string {
				i, j, _ := inconsistent(w)
				at := w.Nodes[i].Seq.at()
				return fmt.Sprintf("n%d counts n%d in nGrants[%v], but grantedTo_%d[%v] = %v holds no grant of n%d",
					i, j, at, j, at, w.Nodes[j].GrantedTo[at], i)
			},
		})
	}}
}
