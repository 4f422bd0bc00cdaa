package model

import (
	"fmt"
	"reflect"
	"strings"
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

// States holding pointers are not encodable byte for byte, nor keyed by
// their bytes.
func TestCodecRefusesPointers(t *testing.T) {
	p := &Protocol[ptrNode, tMsg]{Name: "ptr", Init: func(NodeID, *Config) ptrNode { return ptrNode{} }}
	m, err := Compile(p, Config{Nodes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Encodable() {
		t.Error("a node state with a string is encodable")
	}
	p.RawKey = true
	if _, err := Compile(p, Config{Nodes: 1}); err == nil || !strings.Contains(err.Error(), "RawKey") {
		t.Errorf("RawKey with a string in the node state: %v", err)
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

// A node state and a message with padding (and a blank field): three node
// states take 18 bytes, so the run ends inside a word.
type padNode struct {
	A uint8
	B uint16 // one byte of padding before
	C uint8  // and one after
}

func (n padNode) AppendKey(dst []byte) []byte { return append(dst, n.A, byte(n.B), byte(n.B>>8), n.C) }

type padMsg struct {
	K uint8
	_ uint8
	V uint16
}

func (m padMsg) AppendKey(dst []byte) []byte { return append(dst, m.K, byte(m.V), byte(m.V>>8)) }
func (m padMsg) String() string              { return fmt.Sprint(m.K, m.V) }

// AppendState clears padding: a state whose padding (node states, the
// engine's bookkeeping, messages) holds stale bytes, as a struct built on
// the stack may, encodes to the same bytes as the same state with clean
// padding, and those are the key of a RawKey system. The fields' own bytes
// are kept.
func TestCodecClearsPadding(t *testing.T) {
	p := &Protocol[padNode, padMsg]{Name: "pad", RawKey: true, Init: func(id NodeID, _ *Config) padNode {
		return padNode{A: uint8(id) + 1, B: 0x0302, C: 4}
	}}
	m, err := Compile(p, Config{Nodes: 3})
	if err != nil {
		t.Fatal(err)
	}
	w := m.Init()[0].(*World[padNode, padMsg])
	for i := range 71 { // more than one run of the message mask
		w.Msgs = append(w.Msgs, Envelope[padMsg]{From: 0, To: 1, Msg: padMsg{K: uint8(i), V: 0x0a0b}})
	}
	clean := m.AppendState(nil, w)
	key := m.AppendKey(nil, w)
	if string(key) != string(clean) {
		t.Fatal("the key of a RawKey system is not its encoding")
	}
	dirty := m.Clone(w).(*World[padNode, padMsg])
	masks := padMasksOf[padNode, padMsg](3)
	if masks.nodes == nil || masks.msgs == nil {
		t.Fatalf("padding not found: %+v", masks)
	}
	poke := func(b []byte, m *padMask) int {
		n := 0
		for _, w := range m.words {
			for i := range 8 {
				for at := w.off + i; at < len(b) && w.keep>>(8*i)&0xff == 0; at += m.size {
					b[at] = 0xee
					n++
				}
			}
		}
		return n
	}
	if masks.meta != nil {
		t.Error("Meta has padding")
	}
	n := poke(rawBytes(dirty.Nodes), masks.nodes) + poke(rawBytes(dirty.Msgs), masks.msgs)
	if want := 3*2 + 71*1; n != want {
		t.Errorf("%d padding bytes poked, want %d", n, want)
	}
	if got := m.AppendState(nil, dirty); string(got) != string(clean) {
		t.Errorf("stale padding shows in the encoding:\n%x\nwant\n%x", got, clean)
	}
	back, err := m.ReadState(clean, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.(*World[padNode, padMsg]).Nodes, w.Nodes) || !reflect.DeepEqual(back.(*World[padNode, padMsg]).Msgs, w.Msgs) {
		t.Error("clearing padding changed a field")
	}
	if runMask(reflect.TypeOf(tNode{}), 3) != nil {
		t.Error("a type without padding has a mask")
	}
}
