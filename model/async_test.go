package model

import "testing"

// asyncProto is notifyProto with asynchronous notifications: a notice is
// v(100+k); a node knows port p once LinkUp recorded it (Got = p) and
// until LinkDown (SawD has p). Recv takes protocol messages only.
func asyncProto() *Protocol[tNode, tMsg] {
	p := notifyProto()
	p.Actions[1].On = func(m tMsg) bool { return m.V < 100 }
	p.Links.Moved = func(n *tNode) { n.Coin = 99 }
	return Apply(p, AsyncLinks("async", "", Async[tNode, tMsg]{
		Wrap: func(k Notice) tMsg { return tMsg{V: 100 + uint8(k)} },
		Unwrap: func(m tMsg) Notice {
			if m.V < 100 {
				return NotNotice
			}
			return Notice(m.V - 100)
		},
		Knows: func(n *tNode, p Port) bool { return n.Got == uint8(p) && !n.SawD.Has(p) },
	}))
}

// TestAsyncLinkUpIsDeliveredLater: a connect posts one notice per
// endpoint and runs no handler; a notice is at the head of its channel, so
// a node cannot receive what its new neighbour sent before its own LinkUp.
// The mover is marked at the move.
func TestAsyncLinkUpIsDeliveredLater(t *testing.T) {
	m := compile(t, asyncProto(), Config{Nodes: 2, Delta: 1, Budget: Budget{Connects: 1}})
	w := find(t, m, m.Init()[0].(*World[tNode, tMsg]), "adversary connect n0.1-n1.1 static=n0")
	if w.Nodes[0].Got != 0 || w.Nodes[1].Got != 0 || len(w.Msgs) != 2 {
		t.Fatalf("after the connect: %+v, %d in transit; want no handler run and two notices", w.Nodes, len(w.Msgs))
	}
	if w.Nodes[1].Coin != 99 || w.Nodes[0].Coin != 0 {
		t.Errorf("Moved marked %+v, want n1 (told moving) only", w.Nodes)
	}
	w = find(t, m, w, "n1 LinkUp n0.1->n1.1 v(102)") // moving: sends v(9) to n0
	if w.Nodes[1].From != 2 {
		t.Errorf("n1 told %d, want 2 (moving)", w.Nodes[1].From)
	}
	if k := has(m, w, "n0 Recv"); k != 0 {
		t.Errorf("n0 can receive v(9) before its own LinkUp")
	}
	w = find(t, m, w, "n0 LinkUp n1.1->n0.1 v(101)")
	if w.Nodes[0].From != 1 {
		t.Errorf("n0 told %d, want 1 (static)", w.Nodes[0].From)
	}
	find(t, m, w, "n0 Recv n1.1->n0.1 v(9)")
}

// TestAsyncLinkDown: a LinkUp in transit is lost with its link (nobody
// knew it, nobody is told it failed); a LinkDown goes to the endpoints
// that knew the link, and no connect re-uses a port whose owner has not
// been told yet.
func TestAsyncLinkDown(t *testing.T) {
	m := compile(t, asyncProto(), Config{Nodes: 2, Delta: 1, ReusePorts: true, Budget: Budget{Connects: 2, Disconnects: 2}})
	w := find(t, m, m.Init()[0].(*World[tNode, tMsg]), "adversary connect n0.1-n1.1 static=n0")
	lost := find(t, m, w, "adversary disconnect n0.1-n1.1")
	if len(lost.Msgs) != 0 {
		t.Errorf("after a disconnect before any delivery: %v in transit, want nothing", lost.Msgs)
	}
	w = find(t, m, w, "n0 LinkUp") // n0 knows the link, n1 not yet
	w = find(t, m, w, "adversary disconnect n0.1-n1.1")
	if len(w.Msgs) != 1 || w.Msgs[0].To != 0 || w.Msgs[0].Msg.V != 100+uint8(Down) {
		t.Fatalf("after the disconnect: %v in transit, want one LinkDown to n0", w.Msgs)
	}
	if k := has(m, w, "adversary connect"); k != 0 {
		t.Errorf("%d connects re-use n0.1 before n0 is told its link failed", k)
	}
	w = find(t, m, w, "n0 LinkDown")
	if !w.Nodes[0].SawD.Has(1) {
		t.Errorf("n0 not told: %+v", w.Nodes[0])
	}
	if k := has(m, w, "adversary connect n0.1-n1.1"); k != 2 {
		t.Errorf("%d connects once n0 was told, want 2", k)
	}
}

// TestMovedMarksLiveEndpointOfLinkToCrashed: with atomic notifications,
// a failed link to a crashed node marks the live endpoint as a mover; a
// failed link between live nodes marks nobody.
func TestMovedMarksLiveEndpointOfLinkToCrashed(t *testing.T) {
	p := notifyProto()
	p.Links.Moved = func(n *tNode) { n.Coin = 99 }
	m := compile(t, p, Config{Nodes: 2, Delta: 1, Edges: []Edge{{0, 1, 1, 1}}, Budget: Budget{Disconnects: 1, Crashes: 1}})
	w := m.Init()[0].(*World[tNode, tMsg])
	if d := find(t, m, w, "adversary disconnect"); d.Nodes[0].Coin != 0 || d.Nodes[1].Coin != 0 {
		t.Errorf("a disconnect between live nodes marked %+v", d.Nodes)
	}
	w = find(t, m, w, "adversary crash n1")
	if d := find(t, m, w, "adversary disconnect"); d.Nodes[0].Coin != 99 || d.Nodes[1].Coin != 0 {
		t.Errorf("after n1 crashed, the disconnect marked %+v, want n0 only", d.Nodes)
	}
}
