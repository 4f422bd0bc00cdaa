package rcv

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

type (
	world    = model.World[Node, Msg]
	property = model.Property[Node, Msg]
)

// invariants are the safety properties (names are stable, kebab-case).
func invariants() []property {
	return []property{
		{Name: "mutual-exclusion", Holds: func(w *world) bool {
			return w.Count(func(n *Node) bool { return n.Phase == InCS }) <= 1
		}},
		// A witness: some node enters the CS.
		{Name: "cs-entered", Expect: model.Sometimes, Holds: func(w *world) bool {
			return w.Count(func(n *Node) bool { return n.Phase == InCS }) > 0
		}},
		{Name: "next-chain-consistent", Holds: func(w *world) bool { return chainProblem(w) == "" }, Explain: chainProblem},
		{Name: "lists-bounded", Holds: func(w *world) bool {
			return w.Count(func(n *Node) bool { return n.Overflow }) == 0
		}},
		{Name: "mnl-one-tuple-per-node", Holds: func(w *world) bool { return mnlProblem(w) == "" }, Explain: mnlProblem},
		{Name: "rm-ordered-within-n-1", Holds: func(w *world) bool {
			return w.Count(func(n *Node) bool { return n.Stranded }) == 0
		}},
		// Section 6.1.1: at most N−1 RMs, an IM and an EM per CS entry.
		{Name: "messages-per-entry-at-most-n+1", Holds: func(w *world) bool {
			return w.Count(func(n *Node) bool { return int(n.Cost) > len(w.Nodes)+1 }) == 0
		}},
	}
}

// chainProblem checks `next-chain-consistent` and says which clause fails,
// or returns "":
//
//  1. at most one requester is first: the nodes in the CS plus the EMs in
//     transit number at most one (an EM is the permission to enter, MPM
//     lines 14–16; two of them make two requesters first);
//  2. the Next links (i → SIi.Next) form no cycle (Theorem 2's second
//     case);
//  3. no ordered requester is dropped: a waiting node whose RM is no
//     longer in transit (it was ordered: lines 38–45; a dropped RM is
//     `rm-ordered-within-n-1`'s business) is held by an EM in transit to
//     it, an IM in transit naming it, or some node's Next.
func chainProblem(w *world) string {
	first := 0
	var rmFor, emTo, imFor, nextOf model.NodeSet
	for _, e := range w.Msgs {
		switch e.Msg.Kind {
		case EM:
			first++
			emTo = emTo.Add(e.To)
		case IM:
			imFor = imFor.Add(e.Msg.Next)
		case RM:
			rmFor = rmFor.Add(e.Msg.Host)
		}
	}
	for i := range w.Nodes {
		n := &w.Nodes[i]
		if n.Phase == InCS {
			first++
		}
		if n.Next != NoNext {
			nextOf = nextOf.Add(model.NodeID(n.Next))
		}
	}
	if first > 1 {
		return fmt.Sprintf("%d requesters are first (nodes in the CS plus EMs in transit)", first)
	}
	for i := range w.Nodes {
		seen := model.NodeSet(0)
		for j := i; j != NoNext; j = int(w.Nodes[j].Next) {
			if seen.Has(model.NodeID(j)) {
				return "the Next links form a cycle through " + cycle(w, j)
			}
			seen = seen.Add(model.NodeID(j))
		}
	}
	for i := range w.Nodes {
		id := model.NodeID(i)
		n := &w.Nodes[i]
		if n.Phase != Waiting || rmFor.Has(id) || n.Stranded || anyStranded(w) {
			continue
		}
		if !emTo.Has(id) && !imFor.Has(id) && !nextOf.Has(id) {
			return fmt.Sprintf("%v is ordered but dropped: no EM to it, no IM naming it, no node's Next", id)
		}
	}
	return ""
}

// anyStranded reports whether some RM was dropped for want of a target (then
// clause 3 cannot tell ordered from dropped requesters).
func anyStranded(w *world) bool { return w.Count(func(n *Node) bool { return n.Stranded }) > 0 }

// cycle renders the Next cycle through j as "n0 -> n2 -> n0".
func cycle(w *world, j int) string {
	parts := []string{model.NodeID(j).String()}
	for k := int(w.Nodes[j].Next); ; k = int(w.Nodes[k].Next) {
		parts = append(parts, model.NodeID(k).String())
		if k == j {
			break
		}
	}
	return strings.Join(parts, " -> ")
}

// mnlProblem checks Lemma 1's proof ("a MNL does not contain any pair of
// tuples that has the same NodeID") on every node's NSIT.
func mnlProblem(w *world) string {
	for i := range w.Nodes {
		for k := range w.Nodes[i].NSIT {
			l := &w.Nodes[i].NSIT[k].MNL
			for a := 0; a < int(l.Len); a++ {
				for b := a + 1; b < int(l.Len); b++ {
					if l.T[a].ID == l.T[b].ID {
						return fmt.Sprintf("%v: NSIT[%d].MNL = %v holds two tuples of node %d", model.NodeID(i), k, l, l.T[a].ID)
					}
				}
			}
		}
	}
	return ""
}
