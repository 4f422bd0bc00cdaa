package lme

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/dominikbraun/graph"

	"github.com/mxcheck/mxcheck/model"
)

// Deps is the dependency graph 𝒟_i of Lemma 4 as bitsets: vertex u
// (0 ≤ u < MaxNodes) is the initiator version of node u, vertex MaxNodes+v
// the participant version of node v. It is built without allocating, for
// the invariant; Graph builds the same graph with dominikbraun/graph.
type Deps struct {
	// Vertices is the set of vertices present (𝓘_i ∪ 𝓟_i).
	Vertices uint32
	// Out[x] is the set of successors of vertex x.
	Out [2 * model.MaxNodes]uint32
}

func initiator(u model.NodeID) int   { return int(u) }
func participant(v model.NodeID) int { return model.MaxNodes + int(v) }

// vertexName renders a vertex as "n0/I" or "n1/P".
func vertexName(x int) string {
	if x < model.MaxNodes {
		return fmt.Sprintf("n%d/I", x)
	}
	return fmt.Sprintf("n%d/P", x-model.MaxNodes)
}

// BuildDeps derives 𝒟_i from w. The competing initiators are the nodes in
// state COMPETE; the participants are the nodes of their L sets reached over
// a live edge (or the initiator itself, port 0). For an initiator u and a
// participant v on port ℓ of u (port q of v):
//   - (v, u) ∈ E iff v owes u a win(): a request-lock() from u.ℓ to v.q is
//     in transit, or v holds a priority from port q in P (it received the
//     request and has not answered yet);
//   - (u, v) ∈ E iff u owes v a request-lock(): a win() from v.q to u.ℓ is
//     in transit, or u holds an outcome from port ℓ in W (it received the
//     win and has not run CheckWin yet).
func BuildDeps(w *world) Deps {
	var d Deps
	for i := range w.Nodes {
		u := model.NodeID(i)
		n := &w.Nodes[i]
		if n.State != Compete {
			continue
		}
		d.Vertices |= 1 << initiator(u)
		for _, l := range n.L.All() {
			v, q := u, model.Port(0)
			if l != 0 {
				link := w.Meta[u].Links[l]
				if !link.Up() {
					continue
				}
				v, q = link.Node(), link.Port()
			}
			d.Vertices |= 1 << participant(v)
			owesWin := w.Nodes[v].P[q] != 0
			owesReq := n.W.T.Has(l) || n.W.F.Has(l)
			for k := range w.Msgs {
				e := &w.Msgs[k]
				switch {
				case e.Msg.Kind == MsgRequestLock && e.From == u && e.FromPort == l && e.To == v && e.ToPort == q:
					owesWin = true
				case e.Msg.Kind == MsgWin && e.From == v && e.FromPort == q && e.To == u && e.ToPort == l:
					owesReq = true
				}
			}
			if owesWin {
				d.Out[participant(v)] |= 1 << initiator(u)
			}
			if owesReq {
				d.Out[initiator(u)] |= 1 << participant(v)
			}
		}
	}
	return d
}

// Acyclic reports whether d has no directed cycle, by repeatedly removing
// the vertices that have no incoming edge from the remaining ones.
func (d *Deps) Acyclic() bool {
	left := d.Vertices
	for left != 0 {
		var hasIn uint32
		for x := left; x != 0; x &= x - 1 {
			hasIn |= d.Out[bits.TrailingZeros32(x)]
		}
		hasIn &= left
		sources := left &^ hasIn
		if sources == 0 {
			return false
		}
		left &^= sources
	}
	return true
}

// Cycle returns a shortest directed cycle through the smallest vertex that
// lies on a cycle, as vertex indices (the first repeated at the end), or nil.
func (d *Deps) Cycle() []int {
	for x := 0; x < 2*model.MaxNodes; x++ {
		if d.Vertices&(1<<x) == 0 {
			continue
		}
		// BFS from x back to x.
		prev := map[int]int{}
		frontier := []int{x}
		seen := uint32(0)
		for len(frontier) > 0 {
			var next []int
			for _, y := range frontier {
				for s := d.Out[y]; s != 0; s &= s - 1 {
					z := bits.TrailingZeros32(s)
					if z == x {
						cyc := []int{x}
						for c := y; c != x; c = prev[c] {
							cyc = append(cyc, c)
						}
						for i, j := 1, len(cyc)-1; i < j; i, j = i+1, j-1 {
							cyc[i], cyc[j] = cyc[j], cyc[i]
						}
						return append(cyc, x)
					}
					if seen&(1<<z) == 0 {
						seen |= 1 << z
						prev[z] = y
						next = append(next, z)
					}
				}
			}
			frontier = next
		}
	}
	return nil
}

// Graph builds 𝒟_i of w with dominikbraun/graph, vertices named as
// vertexName.
func Graph(w *world) graph.Graph[string, string] {
	d := BuildDeps(w)
	g := graph.New(graph.StringHash, graph.Directed())
	for x := d.Vertices; x != 0; x &= x - 1 {
		_ = g.AddVertex(vertexName(bits.TrailingZeros32(x)))
	}
	for x := d.Vertices; x != 0; x &= x - 1 {
		y := bits.TrailingZeros32(x)
		for s := d.Out[y]; s != 0; s &= s - 1 {
			_ = g.AddEdge(vertexName(y), vertexName(bits.TrailingZeros32(s)))
		}
	}
	return g
}

// GraphAcyclic is the library's verdict on 𝒟_i: acyclic iff no strongly
// connected component has more than one vertex (𝒟_i has no self-loops: it
// is bipartite).
func GraphAcyclic(g graph.Graph[string, string]) bool {
	sccs, err := graph.StronglyConnectedComponents(g)
	if err != nil {
		return false
	}
	for _, c := range sccs {
		if len(c) > 1 {
			return false
		}
	}
	return true
}

// explainCycle renders a cycle of 𝒟_i, checked against the library.
func explainCycle(w *world) string {
	d := BuildDeps(w)
	cyc := d.Cycle()
	if cyc == nil {
		return ""
	}
	names := make([]string, len(cyc))
	for i, x := range cyc {
		names[i] = vertexName(x)
	}
	s := "cycle " + strings.Join(names, " -> ")
	if GraphAcyclic(Graph(w)) {
		s += " (but dominikbraun/graph finds no cycle: a checker bug)"
	}
	return s
}

// depsDOT renders 𝒟_i as Graphviz DOT with sorted vertices and edges.
func depsDOT(w *world) string {
	g := Graph(w)
	adj, err := g.AdjacencyMap()
	if err != nil {
		return ""
	}
	var vs []string
	for v := range adj {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	var b strings.Builder
	b.WriteString("digraph dependencies {\n")
	for _, v := range vs {
		shape := "box"
		if strings.HasSuffix(v, "/P") {
			shape = "ellipse"
		}
		fmt.Fprintf(&b, "  %q [shape=%s];\n", v, shape)
	}
	for _, v := range vs {
		var ts []string
		for t := range adj[v] {
			ts = append(ts, t)
		}
		sort.Strings(ts)
		for _, t := range ts {
			fmt.Fprintf(&b, "  %q -> %q;\n", v, t)
		}
	}
	b.WriteString("}\n")
	return b.String()
}
