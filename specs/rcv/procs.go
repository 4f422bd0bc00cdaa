package rcv

import (
	"sort"

	"github.com/mxcheck/mxcheck/model"
)

// procs are the procedures the MPM calls. The faithful action table is
// built from faithfulProcs; a variant or mutant that changes a procedure
// builds its replacement actions from a copy with one field swapped.
type procs struct {
	// exchange is the Exchange procedure (Section 4.3): it merges the
	// message's MONL and MSIT into the node's SI.
	exchange func(self model.NodeID, nodes int, n *Node, monl List, msit SIT)
	// order is the Order procedure (Section 4.2) for the request ⟨j, tj⟩.
	order func(self model.NodeID, nodes int, n *Node, j model.NodeID, tj uint8) (beOrdered, highest bool, ordered Tuple)
	// targets is the set of nodes an unordered RM may be forwarded to
	// from self (MPM line 51: "choose one unvisited node from the UL").
	targets func(self model.NodeID, nodes int, m Msg) model.NodeSet
}

var faithfulProcs = procs{
	exchange: func(self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
		exchange(rowTS, self, nodes, n, monl, msit)
	},
	order:   order(sameTuple),
	targets: func(_ model.NodeID, _ int, m Msg) model.NodeSet { return m.UL },
}

// rowTS is the local timestamp Exchange lines 1 and 3 compare MSIT[x].TS
// with: the node's own row for x, SIi.NSIT[x].TS (see doc.go).
func rowTS(_ model.NodeID, n *Node, x model.NodeID) uint8 { return n.NSIT[x].TS }

// exchange is the Exchange procedure at node self (Section 4.3, lines
// 1–22). local picks the timestamp lines 1 and 3 compare with.
func exchange(local func(self model.NodeID, n *Node, x model.NodeID) uint8, self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
	// 1. if ∃ a ∈ MONL, a ∉ SIi.NONL, a ∉ SIi.NSIT[a.ID].MNL and
	//    MSIT[a.ID].TS < SIi.NSIT[a.ID].TS then
	// 2.     delete tuples which precede a, and a, from MONL
	// (every such a: up to the last one).
	if k := lastOutdated(&monl, &n.NONL, func(a Tuple) bool {
		return !n.NSIT[a.ID].MNL.Has(a) && msit[a.ID].TS < local(self, n, a.ID)
	}); k >= 0 {
		monl.DropThrough(k)
	}
	// 3. if ∃ b ∈ SIi.NONL, b ∉ MONL, b ∉ MSIT[b.ID].MNL and
	//    MSIT[b.ID].TS > SIi.NSIT[b.ID].TS then
	// 4.     delete tuples which precede b, and b, from SIi.NONL
	if k := lastOutdated(&n.NONL, &monl, func(b Tuple) bool {
		return !msit[b.ID].MNL.Has(b) && msit[b.ID].TS > local(self, n, b.ID)
	}); k >= 0 {
		n.NONL.DropThrough(k)
	}
	// 5. if Length(MONL) > Length(SIi.NONL) then
	if monl.Len > n.NONL.Len {
		// 6-7. for every c in MONL and not in SIi.NONL: delete c from any
		//      entry of SIi.NSIT
		for i := 0; i < int(monl.Len); i++ {
			if c := monl.T[i]; !n.NONL.Has(c) {
				n.NSIT.DeleteEverywhere(c)
			}
		}
		// 8. Set SIi.NONL = MONL
		n.NONL = monl
	} else {
		// 10-11. for every c in SIi.NONL but not in MONL: delete c from
		//        any entry of MSIT
		for i := 0; i < int(n.NONL.Len); i++ {
			if c := n.NONL.T[i]; !monl.Has(c) {
				msit.DeleteEverywhere(c)
			}
		}
	}
	// 13. for k = 1 to N do
	for k := 0; k < nodes; k++ {
		// 14. if SIi.NSIT[k].TS <> MSIT[k].TS then
		if n.NSIT[k].TS == msit[k].TS {
			continue
		}
		// 15-16. a tuple ⟨k, tk⟩ in SIi.NSIT[k].MNL but not in
		//        MSIT[k].MNL, and SIi.NSIT[k].TS < MSIT[k].TS: delete it
		//        from any entry of SIi.NSIT
		if n.NSIT[k].TS < msit[k].TS {
			for _, t := range ownTuples(&n.NSIT[k].MNL, model.NodeID(k)) {
				if !msit[k].MNL.Has(t) {
					n.NSIT.DeleteEverywhere(t)
				}
			}
		}
		// 17-18. a tuple ⟨k, tk⟩ in MSIT[k].MNL but not in
		//        SIi.NSIT[k].MNL, and SIi.NSIT[k].TS > MSIT[k].TS: delete it
		//        from any entry of MSIT
		if n.NSIT[k].TS > msit[k].TS {
			for _, t := range ownTuples(&msit[k].MNL, model.NodeID(k)) {
				if !n.NSIT[k].MNL.Has(t) {
					msit.DeleteEverywhere(t)
				}
			}
		}
		// 19-20. if SIi.NSIT[k].TS < MSIT[k].TS then SIi.NSIT[k] = MSIT[k]
		if n.NSIT[k].TS < msit[k].TS {
			n.NSIT[k] = msit[k]
		}
	}
}

// lastOutdated returns the position in l of the last tuple a with a ∉ other
// and outdated(a), or -1.
func lastOutdated(l, other *List, outdated func(Tuple) bool) int {
	k := -1
	for i := 0; i < int(l.Len); i++ {
		if a := l.T[i]; !other.Has(a) && outdated(a) {
			k = i
		}
	}
	return k
}

// ownTuples returns the tuples of node k in l, in order.
func ownTuples(l *List, k model.NodeID) []Tuple {
	var out []Tuple
	for i := 0; i < int(l.Len); i++ {
		if l.T[i].ID == k {
			out = append(out, l.T[i])
		}
	}
	return out
}

// candidate is one TPh of Order line 12: a distinct tuple on top of Sh rows.
type candidate struct {
	tp Tuple
	s  int
}

// sameTuple is how Order line 3 tests "⟨j, tj⟩ is in ONL": the exact tuple.
func sameTuple(a, b Tuple) bool { return a == b }

// order returns the Order procedure (Section 4.2) at node self for the
// request ⟨j, tj⟩, with line 3's membership test `in`. It also returns
// the tuple of j it ordered (or found ordered).
func order(in func(a, b Tuple) bool) func(self model.NodeID, nodes int, n *Node, j model.NodeID, tj uint8) (bool, bool, Tuple) {
	return func(self model.NodeID, nodes int, n *Node, j model.NodeID, tj uint8) (bool, bool, Tuple) {
		own := Tuple{ID: j, TS: tj}
		// 1. Continue = true; 2. BeOrdered = false
		cont, beOrdered := true, false
		// 3. if ⟨j, tj⟩ is in ONL // already ordered when processing
		//    other RM
		for i := 0; i < int(n.NONL.Len); i++ {
			if in(n.NONL.T[i], own) {
				own = n.NONL.T[i]
				// 4-6. Continue = false; BeOrdered = true; delete ⟨j, tj⟩
				//      from any entry of NSIT
				cont, beOrdered = false, true
				n.NSIT.DeleteEverywhere(own)
				break
			}
		}
		// 8. while Continue = true do
		for cont {
			// 12. the M different tuples TPh on top of Sh ≥ 1 rows of MNL,
			//     sorted by Sh descending, ties to the smaller NodeID (and,
			//     between two tuples of one node, the older request).
			tps := tops(n, nodes)
			if len(tps) == 0 {
				break
			}
			sum := 0
			for _, c := range tps {
				sum += c.s
			}
			// "if there is only one tuple in the sequence, then S2 = 0,
			// TP2.NodeID = 1"
			second := candidate{tp: Tuple{ID: 1}}
			if len(tps) > 1 {
				second = tps[1]
			}
			first := tps[0]
			// 13. if S1 − S2 > N − ΣSh or (S1 − S2 = N − ΣSh and
			//     TP1.NodeID < TP2.NodeID) then
			lead, rest := first.s-second.s, nodes-sum
			if lead > rest || lead == rest && first.tp.ID < second.tp.ID {
				// 14. append TP1 to NONL
				if !n.NONL.Append(first.tp) {
					n.Overflow = true
					break
				}
				// 15. delete TP1 from any row of NSIT
				n.NSIT.DeleteEverywhere(first.tp)
				// 16-19. if TP1.NodeID = j then Continue = false;
				//        BeOrdered = true
				if first.tp.ID == j {
					own = first.tp
					cont, beOrdered = false, true
				}
			} else {
				// 21. Continue = false
				cont = false
			}
		}
		// 25. if OnTopOf(NONL) then Highest_Priority = true
		top, ok := n.NONL.Top()
		return beOrdered, beOrdered && ok && top == own, own
	}
}

// tops builds the sequence {TPh} of Order line 12.
func tops(n *Node, nodes int) []candidate {
	var out []candidate
	for h := 0; h < nodes; h++ {
		t, ok := n.NSIT[h].MNL.Top()
		if !ok {
			continue
		}
		found := false
		for i := range out {
			if out[i].tp == t {
				out[i].s++
				found = true
			}
		}
		if !found {
			out = append(out, candidate{tp: t, s: 1})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.s != y.s {
			return x.s > y.s
		}
		if x.tp.ID != y.tp.ID {
			return x.tp.ID < y.tp.ID
		}
		return x.tp.TS < y.tp.TS
	})
	return out
}
