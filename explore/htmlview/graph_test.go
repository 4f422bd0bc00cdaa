package htmlview

import (
	"math"
	"strings"
	"testing"
)

const depsDOT = `digraph dependencies {
  "n0/I" [shape=box];
  "n0/P" [shape=ellipse];
  "n1/I" [shape=box];
  "n1/P" [shape=ellipse];
  "n2/I" [shape=box];
  "n0/I" -> "n0/P";
  "n0/P" -> "n1/I";
  "n1/I" -> "n1/P";
  "n1/P" -> "n0/I";
  "n2/I" -> "n0/P";
}
`

// TestParseDOT: vertices in order with their shapes, edges, and exactly
// the edges on the cycle marked.
func TestParseDOT(t *testing.T) {
	g, err := ParseDOT(depsDOT)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 5 || g.Nodes[0].Name != "n0/I" || g.Nodes[0].Shape != "box" || g.Nodes[1].Shape != "ellipse" {
		t.Fatalf("nodes %+v", g.Nodes)
	}
	if len(g.Edges) != 5 {
		t.Fatalf("edges %+v", g.Edges)
	}
	for i, e := range g.Edges {
		if want := i < 4; e.Cycle != want {
			t.Errorf("edge %s -> %s: cycle %v, want %v", g.Nodes[e.From].Name, g.Nodes[e.To].Name, e.Cycle, want)
		}
	}
	svg := GraphSVG(g)
	if strings.Count(svg, `class="edge cycle"`) != 4 || strings.Count(svg, `class="edge"`) != 1 || strings.Count(svg, "<rect") != 3 {
		t.Errorf("graph SVG: %s", svg)
	}
	if _, err := ParseDOT("digraph g {\n  a -> ;\n}"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("malformed DOT: err = %v", err)
	}
}

// TestCircleLayout: vertices on the circle, the first at the top, evenly
// spaced.
func TestCircleLayout(t *testing.T) {
	g := &Graph{Nodes: make([]GraphNode, 4)}
	CircleLayout(g, 100)
	c := 100 + graphMargin
	if g.Nodes[0].X != c || g.Nodes[0].Y != c-100 {
		t.Errorf("first vertex at (%v, %v), want top (%v, %v)", g.Nodes[0].X, g.Nodes[0].Y, c, c-100)
	}
	if g.Nodes[1].X != c+100 || g.Nodes[1].Y != c {
		t.Errorf("second vertex at (%v, %v), want right (%v, %v)", g.Nodes[1].X, g.Nodes[1].Y, c+100, c)
	}
	for _, n := range g.Nodes {
		if r := math.Hypot(n.X-c, n.Y-c); math.Abs(r-100) > 0.01 {
			t.Errorf("vertex at distance %v from the centre", r)
		}
	}
}
