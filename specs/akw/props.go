package akw

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
	PropLME          = "local-mutual-exclusion"
	PropForks        = "fork-uniqueness"
	PropCSInForks    = "cs-in-fork-collection"
	PropColorsDiffer = "colors-differ-behind-doorway"
	PropDoorway      = "doorway-guarantee"
	PropAssumption1  = "assumption-1"
	// PropStaticStarvation is the liveness property of --starvation=static.
	PropStaticStarvation = "static-starvation-freedom"
)

// link is one live edge as the property checks see it.
type link struct {
	u, v model.NodeID
	p, q model.Port
}

// links lists once (u < v) every edge both endpoints know (N): the
// neighbours of local mutual exclusion. With atomic notifications every
// edge; with --notify=async an edge whose LinkUp has not reached both
// endpoints yet, or whose LinkDown has reached one, is not listed.
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
			l := w.Meta[u].Links[p]
			if l.Up() && int(l.Node()) > u {
				out = append(out, link{model.NodeID(u), l.Node(), model.Port(p), l.Port()})
			}
		}
	}
	return out
}

// forksOn counts the forks of edge e: held at either end or in transit on
// it, either way.
func forksOn(w *world, e link) int {
	k := 0
	if w.Nodes[e.u].At.Has(e.p) {
		k++
	}
	if w.Nodes[e.v].At.Has(e.q) {
		k++
	}
	for _, m := range w.Msgs {
		if m.Msg.Kind != Fork {
			continue
		}
		if m.From == e.u && m.FromPort == e.p && m.To == e.v || m.From == e.v && m.FromPort == e.q && m.To == e.u {
			k++
		}
	}
	return k
}

// lmeBroken returns two neighbours both eating (a node that crashed while
// eating still counts).
func lmeBroken(w *world) (link, bool) {
	for _, e := range links(w) {
		if w.Nodes[e.u].State == Eating && w.Nodes[e.v].State == Eating {
			return e, true
		}
	}
	return link{}, false
}

// forksBroken returns an edge with two forks, or an edge both endpoints
// know with none while both are live (a fork sent to a node that crashed
// is never received, but stays in transit; with --notify=async the fork
// of a new link appears when the static endpoint is told).
func forksBroken(w *world) (link, int, bool) {
	for _, e := range edges(w) {
		k := forksOn(w, e)
		if k > 1 || k == 0 && known(w, e) && !w.Meta[e.u].Crashed && !w.Meta[e.v].Crashed {
			return e, k, true
		}
	}
	return link{}, 0, false
}

// colorsBroken returns two neighbours behind AD^f with the same color
// (Lemma 3: behind the second double doorway).
func colorsBroken(w *world) (link, bool) {
	for _, e := range links(w) {
		a, b := &w.Nodes[e.u], &w.Nodes[e.v]
		if a.Pos&ADf != 0 && b.Pos&ADf != 0 && a.Color == b.Color {
			return e, true
		}
	}
	return link{}, false
}

// assumption1Broken returns two neighbours that recolored while both
// behind SD^r (so each started recoloring while the other was behind the
// first double doorway) and picked the same color: Assumption 1, read on
// the nodes that have picked (stage past Coloring, still behind SD^r).
func assumption1Broken(w *world) (link, bool) {
	picked := func(n *Node) bool { return n.Pos&SDr != 0 && n.Stage > Coloring }
	for _, e := range links(w) {
		a, b := &w.Nodes[e.u], &w.Nodes[e.v]
		if picked(a) && picked(b) && a.Color == b.Color {
			return e, true
		}
	}
	return link{}, false
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
		{Name: PropCSInForks,
			Holds: func(w *world) bool {
				for i := range w.Nodes {
					if n := &w.Nodes[i]; n.State == Eating && (n.Pos&SDf == 0 || n.Stage != Forks) {
						return false
					}
				}
				return true
			}},
		{Name: PropAssumption1,
			Holds: func(w *world) bool { _, bad := assumption1Broken(w); return !bad },
			Explain: func(w *world) string {
				e, _ := assumption1Broken(w)
				return fmt.Sprintf("neighbours %v and %v recolored concurrently to %v", e.u, e.v, w.Nodes[e.u].Color)
			}},
		{Name: PropColorsDiffer,
			Holds: func(w *world) bool { _, bad := colorsBroken(w); return !bad },
			Explain: func(w *world) string {
				e, _ := colorsBroken(w)
				return fmt.Sprintf("neighbours %v and %v behind AD^f both have color %v", e.u, e.v, w.Nodes[e.u].Color)
			}},
	}
}

// doorwayGuarantee is §3's guarantee, read from the ghost variables.
func doorwayGuarantee() property {
	return property{Name: PropDoorway,
		Holds: func(w *world) bool { _, _, _, bad := guaranteeBroken(w); return !bad },
		Explain: func(w *world) string {
			u, v, d, _ := guaranteeBroken(w)
			return fmt.Sprintf("%v crossed %v while %v, behind it since before %v began the entry code, had not exited", u, d, v, u)
		}}
}
