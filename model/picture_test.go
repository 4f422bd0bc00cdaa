package model

import (
	"reflect"
	"testing"
)

// TestPicturer: InTransit lists the messages in transit with their
// endpoints and the text traces use; InCS lists the nodes whose exit-CS
// call is enabled.
func TestPicturer(t *testing.T) {
	p := toyProto(false, false)
	p.Actions = append(p.Actions, Action[tNode, tMsg]{Name: "Leave", Kind: Exit,
		Guard: func(c *Ctx[tNode, tMsg], n *tNode) bool { return n.Got == 2 }})
	m := compile(t, p, Config{Nodes: 2, Delta: 1, Edges: []Edge{{U: 0, P: 1, V: 1, Q: 1}}})
	var sys System = m
	pic, ok := sys.(Picturer)
	if !ok {
		t.Fatal("a Machine is not a Picturer")
	}
	w := m.Init()[0].(*World[tNode, tMsg])
	if got := pic.InTransit(w); len(got) != 0 || !pic.InCS(w).Empty() {
		t.Fatalf("initially: in transit %v, in the CS %v", got, pic.InCS(w))
	}
	w = find(t, m, w, "n0 Ping")
	w = find(t, m, w, "n0 Ping")
	want := []InFlight{{From: 0, To: 1, Text: "n0.1->n1.1 v(1)"}, {From: 0, To: 1, Text: "n0.1->n1.1 v(2)"}}
	if got := pic.InTransit(w); !reflect.DeepEqual(got, want) {
		t.Errorf("InTransit = %+v, want %+v", got, want)
	}
	for i, x := range m.ITF(w)["msgs"].([]any) {
		if x != want[i].Text {
			t.Errorf("ITF msgs[%d] = %v, InTransit says %q", i, x, want[i].Text)
		}
	}
	w = find(t, m, w, "n1 Recv n0.1->n1.1 v(1)")
	if !pic.InCS(w).Empty() {
		t.Errorf("in the CS after v(1): %v", pic.InCS(w))
	}
	w = find(t, m, w, "n1 Recv n0.1->n1.1 v(2)")
	if got := pic.InCS(w); got != (NodeSet(0)).Add(1) {
		t.Errorf("in the CS after v(2): %v, want {n1}", got)
	}
}
