package akw2

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
	PropLME      = "local-mutual-exclusion"
	PropForks    = "fork-uniqueness"
	PropPriority = "priority-consistency"
	PropAcyclic  = "priority-acyclic"
)

type link struct {
	u, v model.NodeID
	p, q model.Port
}

// links lists once (u < v) every edge both endpoints know (N): the
// neighbours of local mutual exclusion (with --notify=async, an edge one
// endpoint has not been told about is not listed).
func links(w *world) []link {
	var out []link
	for _, e := range edges(w) {
		if known(w, e) {
			out = append(out, e)
		}
	}
	return out
}

// known reports whether both endpoints of e know it.
func known(w *world, e link) bool { return w.Nodes[e.u].N.Has(e.p) && w.Nodes[e.v].N.Has(e.q) }

// edges lists every edge of the topology once (u < v).
func edges(w *world) []link {
	var out []link
	for u := range w.Nodes {
		for p := 1; p < model.MaxPorts; p++ {
			if l := w.Meta[u].Links[p]; l.Up() && int(l.Node()) > u {
				out = append(out, link{model.NodeID(u), l.Node(), model.Port(p), l.Port()})
			}
		}
	}
	return out
}

// inTransit counts the messages of kind k on edge e, both ways.
func inTransit(w *world, e link, k Kind) int {
	n := 0
	for _, m := range w.Msgs {
		if m.Msg.Kind == k && (m.From == e.u && m.FromPort == e.p && m.To == e.v || m.From == e.v && m.FromPort == e.q && m.To == e.u) {
			n++
		}
	}
	return n
}

func lmeBroken(w *world) (link, bool) {
	for _, e := range links(w) {
		if w.Nodes[e.u].State == Eating && w.Nodes[e.v].State == Eating {
			return e, true
		}
	}
	return link{}, false
}

// forksBroken returns an edge with two forks, or an edge both endpoints
// know with none while both are live.
func forksBroken(w *world) (link, int, bool) {
	for _, e := range edges(w) {
		k := inTransit(w, e, Fork)
		if w.Nodes[e.u].At.Has(e.p) {
			k++
		}
		if w.Nodes[e.v].At.Has(e.q) {
			k++
		}
		if k > 1 || k == 0 && known(w, e) && !w.Meta[e.u].Crashed && !w.Meta[e.v].Crashed {
			return e, k, true
		}
	}
	return link{}, 0, false
}

// priorityBroken returns a link between live nodes with no priority
// message in transit whose endpoints do not agree that exactly one of them
// has priority.
func priorityBroken(w *world) (link, bool) {
	for _, e := range links(w) {
		if inTransit(w, e, Prio) > 0 || w.Meta[e.u].Crashed || w.Meta[e.v].Crashed {
			continue // a crashed node's view is frozen
		}
		if w.Nodes[e.u].Higher.Has(e.p) == w.Nodes[e.v].Higher.Has(e.q) {
			return e, true
		}
	}
	return link{}, false
}

// priorityCycle returns a cycle of the settled priority graph: an edge
// j → i when i's higher[] says j has priority over it, on links between
// live nodes with no priority message in transit.
func priorityCycle(w *world) []model.NodeID {
	n := len(w.Nodes)
	var higher [model.MaxNodes]model.NodeSet // higher[i]: the j with j → i
	for _, e := range links(w) {
		if inTransit(w, e, Prio) > 0 || w.Meta[e.u].Crashed || w.Meta[e.v].Crashed {
			continue
		}
		if w.Nodes[e.u].Higher.Has(e.p) {
			higher[e.u] = higher[e.u].Add(e.v)
		}
		if w.Nodes[e.v].Higher.Has(e.q) {
			higher[e.v] = higher[e.v].Add(e.u)
		}
	}
	// Depth-first search for a cycle along "is lower than" (i → j ∈ higher[i]).
	const white, grey, black = 0, 1, 2
	var color [model.MaxNodes]uint8
	var stack []model.NodeID
	var cycle []model.NodeID
	var visit func(u model.NodeID) bool
	visit = func(u model.NodeID) bool {
		color[u] = grey
		stack = append(stack, u)
		for _, v := range higher[u].All() {
			if color[v] == grey {
				for i, x := range stack {
					if x == v {
						cycle = append([]model.NodeID(nil), stack[i:]...)
					}
				}
				return true
			}
			if color[v] == white && visit(v) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		color[u] = black
		return false
	}
	for u := 0; u < n; u++ {
		if color[u] == white && visit(model.NodeID(u)) {
			return cycle
		}
	}
	return nil
}

func invariants() []property {
	return []property{
		// A witness: some node eats (enters the CS).
		{Name: "some-node-eats", Expect: model.Sometimes, Holds: func(w *world) bool {
			return w.Count(func(n *Node) bool { return n.State == Eating }) > 0
		}},
		{Name: PropLME,
			Holds: func(w *world) bool { _, bad := lmeBroken(w); return !bad },
			Explain: func(w *world) string {
				e, _ := lmeBroken(w)
				return fmt.Sprintf("neighbours %v and %v both eating", e.u, e.v)
			}},
		{Name: PropForks,
			Holds: func(w *world) bool { _, _, bad := forksBroken(w); return !bad },
			Explain: func(w *world) string {
				e, k, _ := forksBroken(w)
				return fmt.Sprintf("edge %v.%d-%v.%d has %d forks", e.u, e.p, e.v, e.q, k)
			}},
		{Name: PropAcyclic,
			Holds: func(w *world) bool { return priorityCycle(w) == nil },
			Explain: func(w *world) string {
				return fmt.Sprintf("priority cycle %v (each has a neighbour of higher priority, the next)", priorityCycle(w))
			}},
		{Name: PropPriority,
			Holds: func(w *world) bool { _, bad := priorityBroken(w); return !bad },
			Explain: func(w *world) string {
				e, _ := priorityBroken(w)
				both := "both"
				if w.Nodes[e.u].Higher.Has(e.p) {
					both = "neither"
				}
				return fmt.Sprintf("on %v-%v %s endpoints have priority", e.u, e.v, both)
			}},
	}
}
