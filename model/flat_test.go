package model

import (
	"bytes"
	"reflect"
	"testing"
)

// A RawKey protocol's successors are flat worlds whose key is their own
// buffer (KeyView): the same bytes as AppendState writes, for every
// successor of every reachable state, including those of a step that sends
// more messages than the buffer has room for (KeyView declines them, and
// the next step lays the buffer out again). Worlds whose parts would start
// misaligned are never flat. Decoding into a flat world reads back what was
// encoded and refuses encodings of the wrong length.
func TestFlatWorlds(t *testing.T) {
	for _, nodes := range []int{2, 3} {
		p := toyProto(false, true)
		p.RawKey = true
		p.Actions = append(p.Actions, Action[tNode, tMsg]{Name: "Burst",
			Guard: func(c *Ctx[tNode, tMsg], n *tNode) bool { return c.Self() == 0 && n.Coin == 0 },
			Do: func(c *Ctx[tNode, tMsg], n *tNode) {
				for range 3 * flatSlack {
					c.Send(1, tMsg{V: 9})
				}
				n.Coin = 1
			}})
		m := compile(t, p, Config{Nodes: nodes})
		// tNode has 5 bytes: Meta (2-aligned) starts at 8+5n.
		wantFlat := flatLayout[tNode, tMsg](nodes)
		if wantFlat != (nodes%2 == 0) {
			t.Fatalf("%d nodes: flat layout %v", nodes, wantFlat)
		}
		h := m.NewHandle()
		seen := map[string]bool{}
		queue := []State{m.Init()[0]}
		var into State
		views, declined := 0, 0
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			h.Successors(s, func(_ Transition, next State) bool {
				enc := m.AppendState(nil, next)
				if v, ok := m.KeyView(next); ok {
					views++
					if !bytes.Equal(v, enc) {
						t.Fatalf("%d nodes: key in place %x, encoding %x", nodes, v, enc)
					}
				} else {
					declined++
				}
				got, err := m.ReadState(enc, into)
				if err != nil {
					t.Fatal(err)
				}
				into = got
				g, w := got.(*World[tNode, tMsg]), next.(*World[tNode, tMsg])
				if !reflect.DeepEqual(g.Nodes, w.Nodes) || !reflect.DeepEqual(g.Meta, w.Meta) || g.Budget != w.Budget ||
					!reflect.DeepEqual(append([]Envelope[tMsg]{}, g.Msgs...), append([]Envelope[tMsg]{}, w.Msgs...)) {
					t.Fatalf("%d nodes: read back\n%+v\nwant\n%+v", nodes, g, w)
				}
				if (g.flat != nil) != wantFlat {
					t.Fatalf("%d nodes: decoded world flat: %v", nodes, g.flat != nil)
				}
				for _, bad := range [][]byte{enc[:len(enc)-1], append(enc[:len(enc):len(enc)], 0)} {
					if _, err := m.ReadState(bad, into); err == nil {
						t.Fatalf("%d nodes: an encoding of %d bytes, not %d, was read", nodes, len(bad), len(enc))
					}
				}
				if k := string(enc); !seen[k] {
					seen[k] = true
					queue = append(queue, h.Clone(next))
				}
				return true
			})
		}
		if len(seen) < 100 {
			t.Fatalf("%d nodes: only %d states", nodes, len(seen))
		}
		if wantFlat && (views < len(seen) || declined == 0) {
			t.Errorf("%d nodes: %d keys in place, %d declined, of %d states", nodes, views, declined, len(seen))
		}
		if !wantFlat && views > 0 {
			t.Errorf("%d nodes: %d keys in place of worlds that cannot be flat", nodes, views)
		}
	}
}

// copyWithout of a flat world is the world with one message removed, for
// every message of every state reached, whatever the destination held.
func TestCopyWithout(t *testing.T) {
	p := toyProto(false, true)
	p.RawKey = true
	p.Actions = append(p.Actions, Action[tNode, tMsg]{Name: "Spray",
		Guard: func(c *Ctx[tNode, tMsg], n *tNode) bool { return c.Self() >= 2 && n.Sent == 0 },
		Do: func(c *Ctx[tNode, tMsg], n *tNode) {
			for v := range 3 {
				c.Send(NodeID(v), tMsg{V: uint8(10*int(c.Self()) + v)})
			}
			n.Sent = 1
		}})
	m := compile(t, p, Config{Nodes: 4})
	h := m.NewHandle()
	seen := map[string]bool{}
	queue := []State{m.Init()[0]}
	var dst State
	checked := 0
	for len(queue) > 0 && len(seen) < 2000 {
		s := queue[0]
		queue = queue[1:]
		enc := m.AppendState(nil, s)
		src, err := m.ReadState(enc, nil) // flat
		if err != nil {
			t.Fatal(err)
		}
		w := src.(*World[tNode, tMsg])
		if w.flat == nil {
			t.Fatal("4 nodes of the toy protocol: not flat")
		}
		for i := range w.Msgs {
			if dst == nil {
				dst, _ = m.ReadState(enc, nil)
			}
			d := dst.(*World[tNode, tMsg])
			d.copyWithout(w, i)
			ref := w.clone()
			ref.removeAt(i)
			if !reflect.DeepEqual(d.Nodes, ref.Nodes) || !reflect.DeepEqual(d.Meta, ref.Meta) || d.Budget != ref.Budget ||
				!reflect.DeepEqual(append([]Envelope[tMsg]{}, d.Msgs...), append([]Envelope[tMsg]{}, ref.Msgs...)) {
				t.Fatalf("without message %d of\n%+v\ngot\n%+v\nwant\n%+v", i, w, d, ref)
			}
			checked++
		}
		h.Successors(s, func(_ Transition, next State) bool {
			if k := string(m.AppendState(nil, next)); !seen[k] {
				seen[k] = true
				queue = append(queue, h.Clone(next))
			}
			return true
		})
	}
	if checked < 100 {
		t.Fatalf("only %d removals checked", checked)
	}
}
