package model

import (
	"fmt"
	"strings"
	"testing"
)

// toy node: counts pings sent, remembers the last value and port received,
// and the last D snapshot it saw.
type tNode struct {
	Sent, Got, From uint8
	SawD            Ports
	Coin            uint8
}

func (n tNode) AppendKey(dst []byte) []byte {
	return append(dst, n.Sent, n.Got, n.From, byte(n.SawD), n.Coin)
}

type tMsg struct{ V uint8 }

func (m tMsg) AppendKey(dst []byte) []byte { return append(dst, m.V) }
func (m tMsg) String() string              { return fmt.Sprintf("v(%d)", m.V) }

// toyProto sends value 1 then 2 on port 1 (or to node 1 when id-addressed),
// receives anything, and flips a 2×3 coin once.
func toyProto(fifo, byID bool) *Protocol[tNode, tMsg] {
	return &Protocol[tNode, tMsg]{
		Name: "toy",
		Init: func(NodeID, *Config) tNode { return tNode{} },
		FIFO: fifo,
		Actions: []Action[tNode, tMsg]{
			{Name: "Ping", Guard: func(c *Ctx[tNode, tMsg], n *tNode) bool { return c.Self() == 0 && n.Sent < 2 },
				Do: func(c *Ctx[tNode, tMsg], n *tNode) {
					n.Sent++
					n.SawD = c.Disconnected()
					if byID {
						c.Send(1, tMsg{V: n.Sent})
					} else {
						c.SendPort(1, tMsg{V: n.Sent})
					}
				}},
			{Name: "Recv", Kind: Receive, Do: func(c *Ctx[tNode, tMsg], n *tNode) {
				n.Got, n.From, n.SawD = c.Msg().V, uint8(c.Port()), c.Disconnected()
			}},
			{Name: "Flip", Guard: func(c *Ctx[tNode, tMsg], n *tNode) bool { return c.Self() == 1 && n.Coin == 0 },
				Do: func(c *Ctx[tNode, tMsg], n *tNode) { n.Coin = uint8(10 + 3*c.Choose(2) + c.Choose(3)) }},
		},
	}
}

type succ struct {
	t    Transition
	w    *World[tNode, tMsg]
	desc string
}

func successors(m *Machine[tNode, tMsg], w *World[tNode, tMsg]) []succ {
	var out []succ
	m.Successors(w, func(t Transition, s State) bool {
		out = append(out, succ{t, s.(*World[tNode, tMsg]).clone(), m.DescribeStep(w, t)})
		return true
	})
	return out
}

func find(t *testing.T, m *Machine[tNode, tMsg], w *World[tNode, tMsg], prefix string) *World[tNode, tMsg] {
	t.Helper()
	var descs []string
	for _, s := range successors(m, w) {
		if strings.HasPrefix(s.desc, prefix) {
			return s.w
		}
		descs = append(descs, s.desc)
	}
	t.Fatalf("no step %q among %v", prefix, descs)
	return nil
}

func has(m *Machine[tNode, tMsg], w *World[tNode, tMsg], prefix string) int {
	k := 0
	for _, s := range successors(m, w) {
		if strings.HasPrefix(s.desc, prefix) {
			k++
		}
	}
	return k
}

func compile(t *testing.T, p *Protocol[tNode, tMsg], c Config) *Machine[tNode, tMsg] {
	t.Helper()
	m, err := Compile(p, c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestChooseBranchesOverEveryOutcome(t *testing.T) {
	m := compile(t, toyProto(false, true), Config{Nodes: 2})
	coins := map[uint8]bool{}
	for _, s := range successors(m, m.Init()[0].(*World[tNode, tMsg])) {
		if s.t.Action == 2 {
			if s.t.Choices != 2 {
				t.Errorf("flip step has Choices=%d, want 2", s.t.Choices)
			}
			coins[s.w.Nodes[1].Coin] = true
		}
	}
	if len(coins) != 6 {
		t.Errorf("flip outcomes %v, want all 6 of 2×3", coins)
	}
}

func TestBagAndFIFO(t *testing.T) {
	for _, fifo := range []bool{false, true} {
		m := compile(t, toyProto(fifo, true), Config{Nodes: 2})
		w := m.Init()[0].(*World[tNode, tMsg])
		w = find(t, m, w, "n0 Ping")
		w = find(t, m, w, "n0 Ping")
		want := 2
		if fifo {
			want = 1
		}
		if got := has(m, w, "n1 Recv"); got != want {
			t.Errorf("fifo=%v: %d deliverable messages, want %d", fifo, got, want)
		}
		if fifo && has(m, w, "n1 Recv n0->n1 v(1)") != 1 {
			t.Error("FIFO must deliver v(1) first")
		}
	}
}

func TestIdenticalMessagesGiveOneStep(t *testing.T) {
	m := compile(t, toyProto(false, true), Config{Nodes: 2})
	w := m.Init()[0].(*World[tNode, tMsg])
	w.insert(Envelope[tMsg]{From: 0, To: 1, Msg: tMsg{V: 7}}, false, new(keyBufs))
	w.insert(Envelope[tMsg]{From: 0, To: 1, Msg: tMsg{V: 7}}, false, new(keyBufs))
	if got := has(m, w, "n1 Recv"); got != 1 {
		t.Errorf("%d receive steps for two identical messages, want 1", got)
	}
	w = find(t, m, w, "n1 Recv")
	if len(w.Msgs) != 1 {
		t.Errorf("receiving one copy left %d messages, want 1", len(w.Msgs))
	}
}

// Disconnect loses the messages on the edge both ways and adds the ports to
// D; the owner sees D once, at its next action, and D is then reset; until
// then the port cannot be re-used (footnote 1) unless ReusePorts.
func TestDisconnectAndFootnote1(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		edges, err := Topology("path", 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		m := compile(t, toyProto(false, false), Config{Nodes: 2, Delta: 1, Edges: edges,
			Budget: Budget{Disconnects: 1, Connects: 1}, ReusePorts: reuse})
		w := m.Init()[0].(*World[tNode, tMsg])
		w = find(t, m, w, "n0 Ping")
		if len(w.Msgs) != 1 || w.Msgs[0].ToPort != 1 {
			t.Fatalf("ping on port 1 not in transit: %v", w.Msgs)
		}
		w = find(t, m, w, "adversary disconnect n0.1-n1.1")
		if len(w.Msgs) != 0 || w.Meta[0].D != Ports(0).Add(1) || w.Meta[1].D != Ports(0).Add(1) {
			t.Fatalf("after disconnect: msgs %v, D %v %v", w.Msgs, w.Meta[0].D, w.Meta[1].D)
		}
		if got := has(m, w, "adversary connect"); got != map[bool]int{false: 0, true: 1}[reuse] {
			t.Errorf("reuse=%v: %d connects enabled while ports are in D", reuse, got)
		}
		w = find(t, m, w, "n0 Ping")
		if w.Nodes[0].SawD != Ports(0).Add(1) || w.Meta[0].D != 0 {
			t.Errorf("n0 saw D=%v and kept D=%v; want {1} then reset", w.Nodes[0].SawD, w.Meta[0].D)
		}
		if len(w.Msgs) != 0 {
			t.Errorf("a message sent on a disconnected port was not lost: %v", w.Msgs)
		}
		if !reuse && has(m, w, "adversary connect") != 0 {
			t.Error("connect enabled while n1's port is still in its D")
		}
		if !reuse {
			w.Meta[1].D = 0 // as if n1 had acted
			w = find(t, m, w, "adversary connect n0.1-n1.1")
			if !w.Meta[0].Links[1].Up() || w.Meta[1].Links[1].Node() != 0 {
				t.Error("connect did not link the ports")
			}
		}
	}
}

func TestReceivePortAndSelfPort(t *testing.T) {
	edges := []Edge{{U: 0, P: 2, V: 1, Q: 1}}
	p := toyProto(false, false)
	p.Actions[0].Do = func(c *Ctx[tNode, tMsg], n *tNode) { n.Sent++; c.SendPort(2, tMsg{V: 5}); c.SendPort(0, tMsg{V: 6}) }
	m := compile(t, p, Config{Nodes: 2, Delta: 2, Edges: edges})
	w := find(t, m, m.Init()[0].(*World[tNode, tMsg]), "n0 Ping")
	if got := find(t, m, w, "n1 Recv n0.2->n1.1 v(5)").Nodes[1].From; got != 1 {
		t.Errorf("received on port %d, want 1", got)
	}
	if got := find(t, m, w, "n0 Recv n0.0->n0.0 v(6)").Nodes[0].Got; got != 6 {
		t.Errorf("self-message carried %d, want 6", got)
	}
}

func TestChurnAndCrash(t *testing.T) {
	m := compile(t, toyProto(false, true), Config{Nodes: 2, Budget: Budget{Removes: 1, Restores: 1, Crashes: 1}})
	w := m.Init()[0].(*World[tNode, tMsg])
	if got := has(m, w, "adversary remove"); got != 2 {
		t.Errorf("%d removes, want 2 (each node forgets the other; never itself)", got)
	}
	r := find(t, m, w, "adversary remove n0 forgets n1")
	if r.Meta[0].Members.Has(1) || r.Budget.Removes != 0 || has(m, r, "adversary remove") != 0 {
		t.Error("remove did not remove, or did not spend its budget")
	}
	r = find(t, m, r, "adversary restore n0 learns n1")
	if !r.Meta[0].Members.Has(1) {
		t.Error("restore did not restore")
	}
	w = find(t, m, w, "n0 Ping")
	c := find(t, m, w, "adversary crash n1")
	if len(c.Msgs) != 0 || has(m, c, "n1 ") != 0 {
		t.Error("a crashed node still has messages or steps")
	}
}

func TestSuccessorsAreDeterministic(t *testing.T) {
	edges, _ := Topology("ring", 3, 2)
	m := compile(t, toyProto(false, false), Config{Nodes: 3, Delta: 2, Edges: edges, Budget: Budget{Disconnects: 1, Connects: 1}})
	w := find(t, m, m.Init()[0].(*World[tNode, tMsg]), "n0 Ping")
	a, b := successors(m, w), successors(m, w)
	if len(a) != len(b) || len(a) < 5 {
		t.Fatalf("%d vs %d successors", len(a), len(b))
	}
	for i := range a {
		ka, kb := m.AppendKey(nil, a[i].w), m.AppendKey(nil, b[i].w)
		if a[i].t != b[i].t || string(ka) != string(kb) {
			t.Fatalf("successor %d differs between enumerations", i)
		}
		if s := step(m, w, a[i].t); s == nil || string(m.AppendKey(nil, s)) != string(ka) {
			t.Fatalf("Step(%s) does not give the enumerated successor", a[i].desc)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	for name, c := range map[string]Config{
		"no-nodes":       {Nodes: 0},
		"too-many-nodes": {Nodes: 17},
		"delta-too-big":  {Nodes: 2, Delta: 8},
		"negative-req":   {Nodes: 2, Requests: -1},
		"members-length": {Nodes: 2, Members: []NodeSet{1}},
		"member-range":   {Nodes: 2, Members: []NodeSet{1, 4}},
		"edge-range":     {Nodes: 2, Delta: 1, Edges: []Edge{{0, 1, 2, 1}}},
		"edge-self":      {Nodes: 2, Delta: 1, Edges: []Edge{{0, 1, 0, 1}}},
		"port-zero":      {Nodes: 2, Delta: 1, Edges: []Edge{{0, 0, 1, 1}}},
		"port-above":     {Nodes: 2, Delta: 1, Edges: []Edge{{0, 2, 1, 1}}},
		"port-twice":     {Nodes: 3, Delta: 1, Edges: []Edge{{0, 1, 1, 1}, {0, 1, 2, 1}}},
		"double-edge":    {Nodes: 2, Delta: 2, Edges: []Edge{{0, 1, 1, 1}, {0, 2, 1, 2}}},
	} {
		if _, err := Compile(toyProto(false, false), c); err == nil {
			t.Errorf("%s: Compile accepted %+v", name, c)
		}
	}
}

func TestTopology(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n, delta int
		want     string
	}{
		{"path", 3, 2, "[n0.1-n1.1 n1.2-n2.1]"},
		{"ring", 3, 2, "[n0.1-n1.1 n1.2-n2.1 n2.2-n0.2]"},
		{"star", 3, 2, "[n0.1-n1.1 n0.2-n2.1]"},
		{"complete", 3, 2, "[n0.1-n1.1 n0.2-n2.1 n1.2-n2.2]"},
		{"none", 3, 2, "[]"},
	} {
		edges, err := Topology(tc.name, tc.n, tc.delta)
		if err != nil || fmt.Sprint(edges) != tc.want {
			t.Errorf("%s: %v %v, want %s", tc.name, edges, err, tc.want)
		}
	}
	for _, bad := range []struct {
		name     string
		n, delta int
	}{{"complete", 4, 2}, {"star", 4, 2}, {"ring", 3, 1}, {"mesh", 3, 2}} {
		if _, err := Topology(bad.name, bad.n, bad.delta); err == nil {
			t.Errorf("%s on %d nodes with Δ=%d accepted", bad.name, bad.n, bad.delta)
		}
	}
	if e, err := ParseEdges("0.1-1.2,1.1-2.1"); err != nil || fmt.Sprint(e) != "[n0.1-n1.2 n1.1-n2.1]" {
		t.Errorf("ParseEdges: %v %v", e, err)
	}
	for _, bad := range []string{"0.1-1", "a.b-c.d", "0.1-1.2x", "-1.1-2.1", "", "0. 1-1. 1", "0 .1-1.1", "+0.1-1.1", "0.1 - 1.1", "0.1-1.1 0.2-2.1", "0.0x1-1.1", "0.1-1.1,", "1000.1-1.1", "0.1-1.256"} {
		if _, err := ParseEdges(bad); err == nil {
			t.Errorf("ParseEdges(%q) accepted", bad)
		}
	}
}

func TestSets(t *testing.T) {
	s := NodeSet(0).Add(3).Add(0).Add(15)
	if s.String() != "{n0,n3,n15}" || s.Len() != 3 || !s.Has(15) || s.Remove(3).Has(3) || FullSet(3) != 7 {
		t.Errorf("NodeSet: %v", s)
	}
	p := Ports(0).Add(0).Add(7)
	if p.String() != "{0,7}" || p.Len() != 2 || p.Remove(7).Has(7) {
		t.Errorf("Ports: %v", p)
	}
	if Fingerprint(nil) == 0 || Fingerprint([]byte("x")) != Fingerprint([]byte("x")) || Fingerprint([]byte("x")) == Fingerprint([]byte("y")) {
		t.Error("fingerprint is not a fixed, non-zero hash")
	}
}

// step returns the successor of s by transition t, or nil when t is not
// enabled in s.
func step[N Value, M Message](m *Machine[N, M], s State, t Transition) State {
	var found State
	m.Successors(s, func(u Transition, next State) bool {
		if u == t {
			found = next.(*World[N, M]).clone()
			return false
		}
		return true
	})
	return found
}

// TestStepsDoNotAllocate guards the hot path of a search: with a handle's
// scratch, enumerating successors allocates nothing — not even when a
// step sends a message that must be ordered against another one on its
// channel by the messages' encodings (compareEnv), nor when one is
// received.
func TestStepsDoNotAllocate(t *testing.T) {
	m := compile(t, toyProto(false, true), Config{Nodes: 2})
	w := m.Init()[0].(*World[tNode, tMsg])
	w = find(t, m, w, "n0 Ping") // v(1) in transit 0→1; the next Ping sends v(2) beside it
	h := m.NewHandle()
	steps := 0
	count := func(Transition, State) bool { steps++; return true }
	allocs := testing.AllocsPerRun(50, func() {
		steps = 0
		h.Successors(w, count)
	})
	if steps < 3 {
		t.Fatalf("%d successors, want a Ping, a Recv and the flips", steps)
	}
	if allocs != 0 {
		t.Errorf("enumerating %d successors allocates %.1f times, want 0", steps, allocs)
	}
}

// TestPermutedKeyAllocations: the symmetry reduction writes the key of
// every candidate renaming of every successor; it allocates nothing when
// no two messages on one channel must be ordered by their encodings, and
// one set of key buffers when some must.
func TestPermutedKeyAllocations(t *testing.T) {
	p := toyProto(false, true)
	p.Anonymous = true
	m := compile(t, p, Config{Nodes: 2})
	sym := m.Symmetric()
	w := m.Init()[0].(*World[tNode, tMsg]).clone()
	perm := []NodeID{1, 0}
	buf := make([]byte, 0, 256)
	for _, tc := range []struct {
		name string
		msgs []Envelope[tMsg]
		max  float64
	}{
		{"two channels", []Envelope[tMsg]{{From: 1, To: 0, Msg: tMsg{V: 1}}, {From: 0, To: 1, Msg: tMsg{V: 2}}}, 0},
		{"one channel", []Envelope[tMsg]{{From: 0, To: 1, Msg: tMsg{V: 1}}, {From: 0, To: 1, Msg: tMsg{V: 2}}}, 1},
	} {
		w.Msgs = tc.msgs
		allocs := testing.AllocsPerRun(50, func() { buf = sym.AppendPermutedKey(buf[:0], w, perm, nil) })
		if allocs > tc.max {
			t.Errorf("%s: a permuted key allocates %.1f times, want at most %.0f", tc.name, allocs, tc.max)
		}
	}
}
