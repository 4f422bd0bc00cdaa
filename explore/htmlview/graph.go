package htmlview

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// Graph is the graph a graph invariant inspects (lme's dependency graph),
// laid out on a circle, with the edges that lie on a directed cycle marked.
type Graph struct {
	Nodes []GraphNode `json:"nodes"`
	Edges []GraphEdge `json:"edges"`
}

// GraphNode is a vertex: its name, its DOT shape ("box", "ellipse", ...)
// and its position.
type GraphNode struct {
	Name  string  `json:"name"`
	Shape string  `json:"shape,omitempty"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
}

// GraphEdge is a directed edge between vertex indexes; Cycle says it lies
// on a directed cycle.
type GraphEdge struct {
	From  int  `json:"from"`
	To    int  `json:"to"`
	Cycle bool `json:"cycle,omitempty"`
}

var (
	dotEdge   = regexp.MustCompile(`^("[^"]*"|[\w./]+)\s*->\s*("[^"]*"|[\w./]+)\s*(\[.*\])?\s*;?$`)
	dotVertex = regexp.MustCompile(`^("[^"]*"|[\w./]+)\s*(\[(.*)\])?\s*;?$`)
	dotShape  = regexp.MustCompile(`shape\s*=\s*"?(\w+)"?`)
)

// ParseDOT reads the directed graphs mxcheck's specs write: one statement a
// line, vertices `"a" [shape=box];` and edges `"a" -> "b";`. It lays the
// vertices out on a circle in order of appearance and marks the edges on
// cycles. The error names the first line it cannot read.
func ParseDOT(src string) (*Graph, error) {
	g := &Graph{Nodes: []GraphNode{}, Edges: []GraphEdge{}}
	index := map[string]int{}
	vertex := func(name string) int {
		name = strings.Trim(name, `"`)
		if i, ok := index[name]; ok {
			return i
		}
		index[name] = len(g.Nodes)
		g.Nodes = append(g.Nodes, GraphNode{Name: name})
		return index[name]
	}
	lines := strings.Split(src, "\n")
	for n, line := range lines {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line == "}" || strings.HasPrefix(line, "digraph") || strings.HasPrefix(line, "//"):
			continue
		case strings.HasPrefix(line, "graph ") || strings.HasPrefix(line, "node ") || strings.HasPrefix(line, "edge ") || strings.HasPrefix(line, "rankdir"):
			continue
		}
		if m := dotEdge.FindStringSubmatch(line); m != nil {
			g.Edges = append(g.Edges, GraphEdge{From: vertex(m[1]), To: vertex(m[2])})
			continue
		}
		if m := dotVertex.FindStringSubmatch(line); m != nil {
			i := vertex(m[1])
			if s := dotShape.FindStringSubmatch(m[3]); s != nil {
				g.Nodes[i].Shape = s[1]
			}
			continue
		}
		return nil, fmt.Errorf("graph line %d: cannot read %q", n+1, line)
	}
	MarkCycles(g)
	CircleLayout(g, graphRadius(len(g.Nodes)))
	return g, nil
}

// MarkCycles sets Cycle on every edge u→v such that v reaches u.
func MarkCycles(g *Graph) {
	out := make([][]int, len(g.Nodes))
	for _, e := range g.Edges {
		out[e.From] = append(out[e.From], e.To)
	}
	reaches := func(from, to int) bool {
		seen := make([]bool, len(g.Nodes))
		stack := []int{from}
		seen[from] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x == to {
				return true
			}
			for _, y := range out[x] {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		return false
	}
	for i := range g.Edges {
		g.Edges[i].Cycle = reaches(g.Edges[i].To, g.Edges[i].From)
	}
}

// graphRadius grows with the number of vertices so that neighbours on the
// circle stay about 130 units apart.
func graphRadius(n int) float64 { return math.Max(90, 130*float64(n)/(2*math.Pi)) }

// CircleLayout places the vertices evenly on a circle of radius r centred
// at (r+margin, r+margin), the first at the top, going clockwise.
func CircleLayout(g *Graph, r float64) {
	c := r + graphMargin
	for i := range g.Nodes {
		a := 2*math.Pi*float64(i)/float64(len(g.Nodes)) - math.Pi/2
		g.Nodes[i].X = round2(c + r*math.Cos(a))
		g.Nodes[i].Y = round2(c + r*math.Sin(a))
	}
}

const graphMargin = 50.0

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// GraphSVG renders g as SVG: vertices as boxes or ellipses, edges as
// arrows, the edges on a cycle in class "edge cycle".
func GraphSVG(g *Graph) string {
	size := 2 * (graphRadius(len(g.Nodes)) + graphMargin)
	var b strings.Builder
	f := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	f(`<svg xmlns="http://www.w3.org/2000/svg" id="graph" width="%g" height="%g" viewBox="0 0 %g %g">`, size, size, size, size)
	b.WriteString(`<defs><marker id="ghead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker>` +
		`<marker id="ghead-cycle" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>`)
	for _, e := range g.Edges {
		u, v := g.Nodes[e.From], g.Nodes[e.To]
		x1, y1, x2, y2 := shorten(u.X, u.Y, v.X, v.Y, 32)
		cls, head := "edge", "ghead"
		if e.Cycle {
			cls, head = "edge cycle", "ghead-cycle"
		}
		f(`<line class="%s" x1="%g" y1="%g" x2="%g" y2="%g" marker-end="url(#%s)"><title>%s → %s</title></line>`,
			cls, x1, y1, x2, y2, head, esc(u.Name), esc(v.Name))
	}
	for _, n := range g.Nodes {
		if n.Shape == "box" {
			f(`<rect class="vertex" x="%g" y="%g" width="56" height="26" rx="2"/>`, n.X-28, n.Y-13)
		} else {
			f(`<ellipse class="vertex" cx="%g" cy="%g" rx="30" ry="15"/>`, n.X, n.Y)
		}
		f(`<text class="vertex-name" x="%g" y="%g">%s</text>`, n.X, n.Y+4, esc(n.Name))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// shorten pulls both ends of a segment in by d, so arrows stop at the
// vertices' outlines rather than their centres.
func shorten(x1, y1, x2, y2, d float64) (float64, float64, float64, float64) {
	dx, dy := x2-x1, y2-y1
	n := math.Hypot(dx, dy)
	if n <= 2*d {
		return x1, y1, x2, y2
	}
	ux, uy := dx/n*d, dy/n*d
	return round2(x1 + ux), round2(y1 + uy), round2(x2 - ux), round2(y2 - uy)
}
