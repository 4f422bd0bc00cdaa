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
		exchange(rowTS, rowsInOrder, self, nodes, n, monl, msit)
	},
	order:   orderWith(1),
	targets: func(_ model.NodeID, _ int, m Msg) model.NodeSet { return m.UL },
}

// staleness is how Exchange lines 1 and 3 compare the message's timestamp
// of node x, MSIT[x].TS, with the visited node's: older is line 1's test
// (the message's information is the older), newer line 3's.
type staleness struct {
	older, newer func(self model.NodeID, n *Node, x model.NodeID, msgTS uint8) bool
}

// rowTS compares with the node's own row for x, SIi.NSIT[x].TS (see
// doc.go).
var rowTS = staleness{
	older: func(_ model.NodeID, n *Node, x model.NodeID, ts uint8) bool { return ts < n.NSIT[x].TS },
	newer: func(_ model.NodeID, n *Node, x model.NodeID, ts uint8) bool { return ts > n.NSIT[x].TS },
}

// exchange is the Exchange procedure at node self (Section 4.3, lines
// 1–22). st is how lines 1 and 3 compare timestamps, rows is lines
// 13–22.
func exchange(st staleness, rows rowSync, self model.NodeID, nodes int, n *Node, monl List, msit SIT) {
	// 1. if ∃ a ∈ MONL, a ∉ SIi.NONL, a ∉ SIi.NSIT[a.ID].MNL and
	//    MSIT[a.ID].TS < SIi.NSIT[a.ID].TS then
	// 2.     delete tuples which precede a, and a, from MONL
	// (every such a: up to the last one).
	if k := lastOutdated(&monl, &n.NONL, func(a Tuple) bool {
		return !n.NSIT[a.ID].MNL.Has(a) && st.older(self, n, a.ID, msit[a.ID].TS)
	}); k >= 0 {
		monl.DropThrough(k)
	}
	// 3. if ∃ b ∈ SIi.NONL, b ∉ MONL, b ∉ MSIT[b.ID].MNL and
	//    MSIT[b.ID].TS > SIi.NSIT[b.ID].TS then
	// 4.     delete tuples which precede b, and b, from SIi.NONL
	if k := lastOutdated(&n.NONL, &monl, func(b Tuple) bool {
		return !msit[b.ID].MNL.Has(b) && st.newer(self, n, b.ID, msit[b.ID].TS)
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
	// 13-22. synchronise NSIT and MSIT row by row
	rows(n, &msit, nodes)
}

// rowSync is Exchange lines 13–22.
type rowSync func(n *Node, msit *SIT, nodes int)

// rowsInOrder is lines 13–22 as printed: one loop over k that deletes the
// outdated tuples of k (lines 15–18) and then copies a newer row k
// (lines 19–20), so a row copied early keeps a tuple that a later k finds
// outdated.
func rowsInOrder(n *Node, msit *SIT, nodes int) {
	// 13. for k = 1 to N do
	for k := 0; k < nodes; k++ {
		dropOutdated(n, msit, k)
		copyNewer(n, msit, k)
	}
}

// dropOutdated is Exchange lines 14–18 for row k.
func dropOutdated(n *Node, msit *SIT, k int) { dropOutdatedFrom(n, msit, k, false) }

// dropOutdatedFrom is Exchange lines 14–18 for row k; alsoNSIT makes line
// 18 delete from SIi.NSIT too.
func dropOutdatedFrom(n *Node, msit *SIT, k int, alsoNSIT bool) {
	// 14. if SIi.NSIT[k].TS <> MSIT[k].TS then
	// 15-16. a tuple ⟨k, tk⟩ in SIi.NSIT[k].MNL but not in MSIT[k].MNL,
	//        and SIi.NSIT[k].TS < MSIT[k].TS: delete it from any entry of
	//        SIi.NSIT
	if n.NSIT[k].TS < msit[k].TS {
		for _, t := range ownTuples(&n.NSIT[k].MNL, model.NodeID(k)) {
			if !msit[k].MNL.Has(t) {
				n.NSIT.DeleteEverywhere(t)
			}
		}
	}
	// 17-18. a tuple ⟨k, tk⟩ in MSIT[k].MNL but not in SIi.NSIT[k].MNL,
	//        and SIi.NSIT[k].TS > MSIT[k].TS: delete it from any entry of
	//        MSIT
	if n.NSIT[k].TS > msit[k].TS {
		for _, t := range ownTuples(&msit[k].MNL, model.NodeID(k)) {
			if !n.NSIT[k].MNL.Has(t) {
				msit.DeleteEverywhere(t)
				if alsoNSIT {
					n.NSIT.DeleteEverywhere(t)
				}
			}
		}
	}
}

// copyNewer is Exchange lines 19–20 for row k: if SIi.NSIT[k].TS <
// MSIT[k].TS then SIi.NSIT[k] = MSIT[k].
func copyNewer(n *Node, msit *SIT, k int) {
	if n.NSIT[k].TS < msit[k].TS {
		n.NSIT[k] = msit[k]
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

// orderWith returns the Order procedure (Section 4.2) with lone, the
// NodeID line 12 gives the missing TP2 when only one tuple competes
// ("TP2.NodeID = 1" as printed).
func orderWith(lone model.NodeID) func(self model.NodeID, nodes int, n *Node, j model.NodeID, tj uint8) (bool, bool, Tuple) {
	return func(self model.NodeID, nodes int, n *Node, j model.NodeID, tj uint8) (bool, bool, Tuple) {
		return order(lone, nodes, n, j, tj)
	}
}

// order is the Order procedure at a node for the request ⟨j, tj⟩. It also
// returns the tuple of j it ordered (or found ordered).
func order(lone model.NodeID, nodes int, n *Node, j model.NodeID, tj uint8) (bool, bool, Tuple) {
	own := Tuple{ID: j, TS: tj}
	// 1. Continue = true; 2. BeOrdered = false
	cont, beOrdered := true, false
	// 3. if ⟨j, tj⟩ is in ONL // already ordered when processing
	//    other RM
	if n.NONL.Has(own) {
		// 4-6. Continue = false; BeOrdered = true; delete ⟨j, tj⟩
		//      from any entry of NSIT
		cont, beOrdered = false, true
		n.NSIT.DeleteEverywhere(own)
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
		second := candidate{tp: Tuple{ID: lone}}
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
