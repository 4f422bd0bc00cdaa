package lme

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

type (
	world    = model.World[Node, Msg]
	property = model.Property[Node, Msg]
)

// Property names.
const (
	PropMutualExclusion         = "mutual-exclusion"
	PropLockValidity            = "lock-validity"
	PropLockStability           = "lock-stability"
	PropPersistentNeighbourhood = "persistent-neighbourhood"
	PropTwoMessages             = "two-messages-per-edge"
	PropAcyclic                 = "dependency-graph-acyclic"
)

// LockSet is 𝓛(u) of §2.2 as a set of nodes: every neighbour v of u whose
// lock variable is the port of v that leads to u, plus u itself when
// lock(u) = 0. It is computed from u's side of each edge.
func LockSet(w *world, u model.NodeID) model.NodeSet {
	var s model.NodeSet
	if w.Nodes[u].Lock == 0 {
		s = s.Add(u)
	}
	for p := 1; p < model.MaxPorts; p++ {
		l := w.Meta[u].Links[p]
		if l.Up() && w.Nodes[l.Node()].Lock == Lock(l.Port()) {
			s = s.Add(l.Node())
		}
	}
	return s
}

// lockHolders returns, for each node v, the nodes whose lock sets hold v:
// mutual exclusion says at most one.
func lockHolders(w *world) []model.NodeSet {
	out := make([]model.NodeSet, len(w.Nodes))
	for u := range w.Nodes {
		for _, v := range LockSet(w, model.NodeID(u)).All() {
			out[v] = out[v].Add(model.NodeID(u))
		}
	}
	return out
}

// persistentSet is {u} ∪ the neighbours connected to u without interruption
// since u's last InitLock (ghost Persist minus the disconnections u has not
// seen yet).
func persistentSet(w *world, u model.NodeID) model.NodeSet {
	s := model.NodeSet(0).Add(u)
	meta := &w.Meta[u]
	for _, p := range (w.Nodes[u].Persist &^ meta.D).Remove(0).All() {
		if l := meta.Links[p]; l.Up() {
			s = s.Add(l.Node())
		}
	}
	return s
}

// mutualExclusion: the lock sets are pairwise disjoint. Returns the first
// node found in two lock sets.
func mutualExclusion(w *world) (model.NodeID, model.NodeID, model.NodeID, bool) {
	var seen model.NodeSet
	owner := [model.MaxNodes]model.NodeID{}
	for u := range w.Nodes {
		ls := LockSet(w, model.NodeID(u))
		if both := ls & seen; both != 0 {
			v := both.All()[0]
			return v, owner[v], model.NodeID(u), false
		}
		for _, v := range ls.All() {
			owner[v] = model.NodeID(u)
		}
		seen |= ls
	}
	return 0, 0, 0, true
}

// holdsLocks reports whether an initiator in state s may have a non-empty
// lock set.
func holdsLocks(s State) bool { return s == Win || s == Locked || s == Unlock }

// lockValidity: a node belongs to u's lock set only while u is in WIN,
// LOCKED or UNLOCK (u itself included: lock(u) = 0).
func lockValidity(w *world) (model.NodeID, bool) {
	for u := range w.Nodes {
		if !holdsLocks(w.Nodes[u].State) && LockSet(w, model.NodeID(u)) != 0 {
			return model.NodeID(u), false
		}
	}
	return 0, true
}

// lockStability: while u is LOCKED, every port of L(u) that still carries
// the edge it carried when u called LOCK (connected, and not disconnected
// since u last acted) leads to a node locked by u; lock(u) = 0.
func lockStability(w *world) (model.NodeID, model.Port, bool) {
	for i := range w.Nodes {
		n, meta := &w.Nodes[i], &w.Meta[i]
		if n.State != Locked {
			continue
		}
		for _, p := range n.L.All() {
			if p == 0 {
				if n.Lock != 0 {
					return model.NodeID(i), 0, false
				}
				continue
			}
			l := meta.Links[p]
			if !l.Up() || meta.D.Has(p) {
				continue
			}
			if w.Nodes[l.Node()].Lock != Lock(l.Port()) {
				return model.NodeID(i), p, false
			}
		}
	}
	return 0, 0, true
}

// persistentNeighbourhood: while u is LOCKED (from the state CheckDone
// produces until InitUnlock), 𝓛(u) = {u} ∪ the neighbours connected to u
// continuously since its InitLock.
func persistentNeighbourhood(w *world) (model.NodeID, bool) {
	for i := range w.Nodes {
		u := model.NodeID(i)
		if w.Nodes[i].State == Locked && LockSet(w, u) != persistentSet(w, u) {
			return u, false
		}
	}
	return 0, true
}

// twoMessages: at most two messages in transit on any edge, both directions
// together; a node's self-port counts as an edge (Lemma 11).
func twoMessages(w *world) (int, bool) {
	for i := range w.Msgs {
		a := &w.Msgs[i]
		k := 0
		for j := range w.Msgs {
			b := &w.Msgs[j]
			same := (a.From == b.From && a.FromPort == b.FromPort && a.To == b.To && a.ToPort == b.ToPort) ||
				(a.From == b.To && a.FromPort == b.ToPort && a.To == b.From && a.ToPort == b.FromPort)
			if same {
				k++
			}
		}
		if k > 2 {
			return i, false
		}
	}
	return 0, true
}

func edgeString(e *model.Envelope[Msg]) string {
	return fmt.Sprintf("%v.%d-%v.%d", e.From, e.FromPort, e.To, e.ToPort)
}

// invariants returns the named invariants.
func invariants() []property {
	return []property{
		// A witness: some node gets its locks (enters the CS).
		{Name: "lock-acquired", Expect: model.Sometimes, Holds: func(w *world) bool {
			return w.Count(func(n *Node) bool { return n.State == Locked }) > 0
		}},
		{
			Name: PropMutualExclusion,
			Holds: func(w *world) bool {
				_, _, _, ok := mutualExclusion(w)
				return ok
			},
			Explain: func(w *world) string {
				v, a, b, ok := mutualExclusion(w)
				if ok {
					return ""
				}
				return fmt.Sprintf("%v is in the lock sets of both %v and %v", v, a, b)
			},
		},
		{
			Name: PropLockValidity,
			Holds: func(w *world) bool {
				_, ok := lockValidity(w)
				return ok
			},
			Explain: func(w *world) string {
				u, ok := lockValidity(w)
				if ok {
					return ""
				}
				return fmt.Sprintf("lock set of %v is %v while its state is %v", u, LockSet(w, u), w.Nodes[u].State)
			},
		},
		{
			Name: PropLockStability,
			Holds: func(w *world) bool {
				_, _, ok := lockStability(w)
				return ok
			},
			Explain: func(w *world) string {
				u, p, ok := lockStability(w)
				if ok {
					return ""
				}
				v := u
				if p != 0 {
					v = w.Meta[u].Links[p].Node()
				}
				return fmt.Sprintf("%v is LOCKED but %v (port %d of L) has lock=%v", u, v, p, w.Nodes[v].Lock)
			},
		},
		{
			Name: PropPersistentNeighbourhood,
			Holds: func(w *world) bool {
				_, ok := persistentNeighbourhood(w)
				return ok
			},
			Explain: func(w *world) string {
				u, ok := persistentNeighbourhood(w)
				if ok {
					return ""
				}
				return fmt.Sprintf("%v is LOCKED with lock set %v, but its persistent neighbourhood is %v", u, LockSet(w, u), persistentSet(w, u))
			},
		},
		{
			Name: PropTwoMessages,
			Holds: func(w *world) bool {
				_, ok := twoMessages(w)
				return ok
			},
			Explain: func(w *world) string {
				i, ok := twoMessages(w)
				if ok {
					return ""
				}
				e := &w.Msgs[i]
				var msgs []string
				for j := range w.Msgs {
					b := &w.Msgs[j]
					if (e.From == b.From && e.FromPort == b.FromPort && e.To == b.To && e.ToPort == b.ToPort) ||
						(e.From == b.To && e.FromPort == b.ToPort && e.To == b.From && e.ToPort == b.FromPort) {
						msgs = append(msgs, b.Msg.String())
					}
				}
				return fmt.Sprintf("edge %s carries %d messages: %s", edgeString(e), len(msgs), strings.Join(msgs, ", "))
			},
		},
		{
			Name:    PropAcyclic,
			Holds:   func(w *world) bool { d := BuildDeps(w); return d.Acyclic() },
			Explain: func(w *world) string { return explainCycle(w) },
			DOT:     func(w *world) string { return depsDOT(w) },
		},
	}
}
