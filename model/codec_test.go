package model

import (
	"reflect"
	"testing"
)

// Every reachable state of the toy (with disconnects, connects and churn
// in its budget) reads back exactly as it was encoded, into a new state and
// into a reused one of a different shape; damaged encodings are refused.
func TestCodecRoundTrip(t *testing.T) {
	edges, _ := Topology("ring", 3, 2)
	m := compile(t, toyProto(false, false), Config{Nodes: 3, Delta: 2, Edges: edges,
		Budget: Budget{Disconnects: 1, Connects: 1, Removes: 1, Crashes: 1}})
	if !m.Encodable() {
		t.Fatal("plain toy states not encodable")
	}
	seen := map[string]bool{}
	queue := []*World[tNode, tMsg]{m.Init()[0].(*World[tNode, tMsg])}
	var reused State
	var buf []byte
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		buf = m.AppendState(buf[:0], w)
		for _, into := range []State{nil, reused} {
			got, err := m.ReadState(buf, into)
			if err != nil {
				t.Fatal(err)
			}
			g := got.(*World[tNode, tMsg])
			if !reflect.DeepEqual(g.Nodes, w.Nodes) || !reflect.DeepEqual(g.Meta, w.Meta) ||
				!reflect.DeepEqual(append([]Envelope[tMsg]{}, g.Msgs...), append([]Envelope[tMsg]{}, w.Msgs...)) || g.Budget != w.Budget {
				t.Fatalf("read back\n%+v\nwant\n%+v", g, w)
			}
			reused = got
		}
		for _, cut := range []int{0, 7, len(buf) - 1} {
			if _, err := m.ReadState(buf[:cut], nil); err == nil {
				t.Fatalf("a state cut to %d of %d bytes was read", cut, len(buf))
			}
		}
		if _, err := m.ReadState(append(buf, 0), nil); err == nil {
			t.Fatal("a state with a byte too many was read")
		}
		for _, s := range successors(m, w) {
			k := string(m.AppendKey(nil, s.w))
			if !seen[k] {
				seen[k] = true
				queue = append(queue, s.w)
			}
		}
	}
	if len(seen) < 1000 {
		t.Errorf("only %d states", len(seen))
	}
}

type ptrNode struct{ Name string }

func (ptrNode) AppendKey(dst []byte) []byte { return dst }

// States holding pointers are not encodable byte for byte.
func TestCodecRefusesPointers(t *testing.T) {
	p := &Protocol[ptrNode, tMsg]{Name: "ptr", Init: func(NodeID, *Config) ptrNode { return ptrNode{} }}
	m, err := Compile(p, Config{Nodes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Encodable() {
		t.Error("a node state with a string is encodable")
	}
	for typ, want := range map[reflect.Type]bool{
		reflect.TypeOf([3]uint16{}): true, reflect.TypeOf(struct{ A [2]bool }{}): true,
		reflect.TypeOf([]int{}): false, reflect.TypeOf(struct{ P *int }{}): false, reflect.TypeOf(map[int]int{}): false,
	} {
		if plain(typ) != want {
			t.Errorf("plain(%v) = %v", typ, !want)
		}
	}
}
