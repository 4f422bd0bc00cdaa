package model

import "testing"

// notifyProto is toyProto with link notifications: LinkUp records the port
// and whether the node was told "static" (Got = port, From = 1 static / 2
// moving) and sends v(9) on the new link; LinkDown records the port in
// SawD; Pending while Sent is odd.
func notifyProto() *Protocol[tNode, tMsg] {
	p := toyProto(true, false)
	p.Links = Notifications[tNode, tMsg]{
		LinkUp: func(c *Ctx[tNode, tMsg], n *tNode, port Port, static bool) {
			n.Got = uint8(port)
			n.From = 2
			if static {
				n.From = 1
			}
			c.SendPort(port, tMsg{V: 9})
		},
		LinkDown: func(c *Ctx[tNode, tMsg], n *tNode, port Port) { n.SawD = n.SawD.Add(port) },
	}
	p.Pending = func(n *tNode) bool { return n.Sent%2 == 1 }
	return p
}

// TestLinkUpSplitsConnectByStaticEndpoint: a connect becomes two moves,
// one per endpoint told "static"; both endpoints run LinkUp in the same
// step, after the link exists, so their sends are in transit on it.
func TestLinkUpSplitsConnectByStaticEndpoint(t *testing.T) {
	m := compile(t, notifyProto(), Config{Nodes: 2, Delta: 1, Budget: Budget{Connects: 1}})
	w := m.Init()[0].(*World[tNode, tMsg])
	if k := has(m, w, "adversary connect n0.1-n1.1 static="); k != 2 {
		t.Fatalf("%d connect moves, want 2 (one per static endpoint)", k)
	}
	for static, want := range map[string][2]uint8{"n0": {1, 2}, "n1": {2, 1}} {
		s := find(t, m, w, "adversary connect n0.1-n1.1 static="+static)
		if s.Nodes[0].From != want[0] || s.Nodes[1].From != want[1] || s.Nodes[0].Got != 1 || s.Nodes[1].Got != 1 {
			t.Errorf("static=%s: notifications %+v %+v, want kinds %v on port 1", static, s.Nodes[0], s.Nodes[1], want)
		}
		if len(s.Msgs) != 2 {
			t.Errorf("static=%s: %d messages in transit, want both LinkUp sends", static, len(s.Msgs))
		}
	}
}

// TestLinkDownNotifiesLiveEndpoints: a disconnect loses the link's
// messages, runs LinkDown at each live endpoint (not at a crashed one) and
// leaves D empty.
func TestLinkDownNotifiesLiveEndpoints(t *testing.T) {
	m := compile(t, notifyProto(), Config{Nodes: 2, Delta: 1, Edges: []Edge{{0, 1, 1, 1}}, Budget: Budget{Disconnects: 1, Crashes: 1}})
	w := m.Init()[0].(*World[tNode, tMsg])
	w = find(t, m, w, "n0 Ping") // v(1) in transit on the link
	d := find(t, m, w, "adversary disconnect n0.1-n1.1")
	if len(d.Msgs) != 0 {
		t.Errorf("messages survive the disconnect: %v", d.Msgs)
	}
	for i := range d.Nodes {
		if !d.Nodes[i].SawD.Has(1) || d.Meta[i].D != 0 {
			t.Errorf("n%d: LinkDown saw %v, D=%v; want port 1 notified and D empty", i, d.Nodes[i].SawD, d.Meta[i].D)
		}
	}
	c := find(t, m, w, "adversary crash n1")
	c = find(t, m, c, "adversary disconnect n0.1-n1.1")
	if !c.Nodes[0].SawD.Has(1) || c.Nodes[1].SawD.Has(1) {
		t.Errorf("after n1 crashed: n0 saw %v, n1 saw %v; want only the live n0 notified", c.Nodes[0].SawD, c.Nodes[1].SawD)
	}
}

// TestExcusedAndCrashDistance: a pending node with a crashed node within
// the excused distance does not count as pending; CrashDistance follows
// links and is -1 across components.
func TestExcusedAndCrashDistance(t *testing.T) {
	p := notifyProto()
	p.Excused = func(w *World[tNode, tMsg], i NodeID) bool { d := w.CrashDistance(i); return d >= 0 && d <= 1 }
	m := compile(t, p, Config{Nodes: 3, Delta: 1, Edges: []Edge{{0, 1, 1, 1}}, Budget: Budget{Crashes: 1}})
	w := m.Init()[0].(*World[tNode, tMsg])
	w = find(t, m, w, "n0 Ping") // n0 pending
	if !m.Pending(w) {
		t.Fatal("n0 sent once and is not pending")
	}
	crashed := find(t, m, w, "adversary crash n1")
	if got := crashed.CrashDistance(0); got != 1 {
		t.Errorf("CrashDistance(n0) = %d, want 1", got)
	}
	if got := crashed.CrashDistance(2); got != -1 {
		t.Errorf("CrashDistance(n2) = %d, want -1 (another component)", got)
	}
	if m.Pending(crashed) {
		t.Error("n0 is excused (crash at distance 1) but still counts as pending")
	}
	far := find(t, m, w, "adversary crash n2")
	if !m.Pending(far) {
		t.Error("n0 has no crash within distance 1 but is not pending")
	}
}
