package model

// This file gives compiled protocols the capabilities reductions need:
// Independence (partial-order reduction) and Symmetric (symmetry reduction).

// Touchable reports whether an adversary move could ever touch node u from s
// (see Independence). It is exact for crashes and membership and
// over-approximates topology: any remaining connect or disconnect budget
// counts when u could take part in one.
func (m *Machine[N, M]) Touchable(s State, u NodeID) bool {
	w := s.(*World[N, M])
	b, meta := &w.Budget, &w.Meta[u]
	if b.Crashes > 0 {
		return true
	}
	if b.Removes > 0 && !meta.Members.Remove(u).Empty() || b.Restores > 0 && !meta.Removed.Empty() {
		return true
	}
	if m.cfg.Delta > 0 {
		linked := false
		free := false
		for p := 1; p <= m.cfg.Delta; p++ {
			if meta.Links[p].Up() {
				linked = true
			} else {
				free = true
			}
		}
		if b.Disconnects > 0 && (linked || b.Connects > 0) || b.Connects > 0 && free {
			return true
		}
	}
	return false
}

// Visible reports whether step t from s to next changes anything the
// invariants read: the acting node's Observe projection, or, when the
// invariants observe the network, any message, link, membership or
// disconnection set. Adversary steps are always visible; without Observe,
// every step is.
func (m *Machine[N, M]) Visible(s State, t Transition, next State) bool {
	if t.Kind == AdversaryStep || m.p.Observe == nil {
		return true
	}
	a, b := s.(*World[N, M]), next.(*World[N, M])
	u := t.Node
	if m.p.Observe(&a.Nodes[u]) != m.p.Observe(&b.Nodes[u]) {
		return true
	}
	if m.p.ObservesNetwork {
		if len(a.Msgs) != len(b.Msgs) || a.Meta[u] != b.Meta[u] {
			return true
		}
		for i := range a.Msgs {
			if a.Msgs[i] != b.Msgs[i] {
				return true
			}
		}
	}
	return false
}

// Independent reports whether t's action is declared independent of every
// other step of its node.
func (m *Machine[N, M]) Independent(t Transition) bool {
	return t.Kind != AdversaryStep && m.p.Actions[t.Action].Independent
}

// Symmetric returns the machine as a Symmetric system when the protocol
// declares its nodes anonymous, or nil.
func (m *Machine[N, M]) Symmetric() Symmetric {
	if !m.p.Anonymous {
		return nil
	}
	return symMachine[N, M]{m}
}

// symMachine adds the Symmetric capability to a Machine whose protocol is
// anonymous; a Machine of a protocol with ids does not have it.
type symMachine[N Value, M Message] struct{ *Machine[N, M] }

// NodeCount is the number of nodes.
func (m symMachine[N, M]) NodeCount(s State) int { return len(s.(*World[N, M]).Nodes) }

// AppendNodeSignature appends node i's state and the id-free part of its
// bookkeeping: D, request count, crash flag, which ports are up.
func (m symMachine[N, M]) AppendNodeSignature(dst []byte, s State, i NodeID) []byte {
	w := s.(*World[N, M])
	dst = w.Nodes[i].AppendKey(dst)
	meta := &w.Meta[i]
	var up Ports
	for p := 1; p <= m.cfg.Delta; p++ {
		if meta.Links[p].Up() {
			up = up.Add(Port(p))
		}
	}
	var crashed byte
	if meta.Crashed {
		crashed = 1
	}
	return append(dst, byte(meta.D), meta.Requests, crashed, byte(up), byte(meta.Members.Len()), byte(meta.Removed.Len()))
}

// PortSymmetry returns Δ when the protocol declares its ports
// interchangeable (RenamePorts), or 0.
func (m symMachine[N, M]) PortSymmetry() int {
	if m.p.RenamePorts == nil {
		return 0
	}
	return m.cfg.Delta
}

// AppendLocalKey appends node i's state and bookkeeping with its ports
// renamed by ports (nil: unchanged), without naming any other node.
func (m symMachine[N, M]) AppendLocalKey(dst []byte, s State, i NodeID, ports *[MaxPorts]Port) []byte {
	w := s.(*World[N, M])
	n := w.Nodes[i]
	meta := &w.Meta[i]
	d := meta.D
	var up Ports
	for p := 1; p <= m.cfg.Delta; p++ {
		if meta.Links[p].Up() {
			up = up.Add(Port(p))
		}
	}
	if ports != nil {
		n = m.p.RenamePorts(n, ports)
		d, up = d.Rename(ports), up.Rename(ports)
	}
	dst = n.AppendKey(dst)
	var crashed byte
	if meta.Crashed {
		crashed = 1
	}
	return append(dst, byte(d), meta.Requests, crashed, byte(up), byte(meta.Members.Len()), byte(meta.Removed.Len()))
}

// AppendPermutedKey appends the key of s with node i renamed perm[i] and its
// ports renamed ports[i] (when ports is non-nil): the key of Permute(s, perm,
// ports), written without building the renamed state (the symmetry
// reduction calls it for every candidate renaming of every successor).
func (m symMachine[N, M]) AppendPermutedKey(dst []byte, s State, perm []NodeID, ports [][MaxPorts]Port) []byte {
	w := s.(*World[N, M])
	var invBuf [MaxNodes]NodeID
	inv := invBuf[:len(w.Nodes)]
	for i, j := range perm {
		inv[j] = NodeID(i)
	}
	for _, i := range inv {
		n, meta := m.renameNode(w, i, perm, ports)
		dst = appendNodeKey(dst, &n, &meta, m.cfg.Delta)
	}
	var msgBuf [32]Envelope[M]
	msgs := msgBuf[:0]
	var kb keyBufs // made at the first comparison of two messages' encodings
	for _, e := range w.Msgs {
		msgs = insertEnv(msgs, renameEnv(e, perm, ports), m.p.FIFO, &kb)
	}
	return appendMsgsKey(dst, w.Budget, msgs)
}

// Permute returns s with node i renamed perm[i] and its ports renamed
// ports[i] (when ports is non-nil): node states and bookkeeping move to
// their new index, and every node id and port in links, membership lists
// and messages is renamed.
func (m symMachine[N, M]) Permute(s State, perm []NodeID, ports [][MaxPorts]Port) State {
	w := s.(*World[N, M])
	p := &World[N, M]{
		Nodes:  make([]N, len(w.Nodes)),
		Meta:   make([]Meta, len(w.Meta)),
		Msgs:   make([]Envelope[M], 0, len(w.Msgs)),
		Budget: w.Budget,
	}
	for i := range w.Nodes {
		j := perm[i]
		p.Nodes[j], p.Meta[j] = m.renameNode(w, NodeID(i), perm, ports)
	}
	for _, e := range w.Msgs {
		p.Msgs = insertEnv(p.Msgs, renameEnv(e, perm, ports), m.p.FIFO, new(keyBufs))
	}
	return p
}

// renameNode returns node i's state and bookkeeping under the renaming:
// its own ports renamed ports[i], and every node id and port it refers to
// (links, membership lists) renamed.
func (m symMachine[N, M]) renameNode(w *World[N, M], i NodeID, perm []NodeID, ports [][MaxPorts]Port) (N, Meta) {
	n, meta := w.Nodes[i], w.Meta[i]
	var links [MaxPorts]Link
	for q := 1; q <= m.cfg.Delta; q++ {
		if l := meta.Links[q]; l.Up() {
			links[renamePort(ports, i, Port(q))] = makeLink(perm[l.Node()], renamePort(ports, l.Node(), l.Port()))
		}
	}
	meta.Links = links
	if ports != nil {
		n = m.p.RenamePorts(n, &ports[i])
		meta.D = meta.D.Rename(&ports[i])
	}
	meta.Members = permuteSet(meta.Members, perm)
	meta.Removed = permuteSet(meta.Removed, perm)
	return n, meta
}

// renameEnv renames a message's endpoints.
func renameEnv[M Message](e Envelope[M], perm []NodeID, ports [][MaxPorts]Port) Envelope[M] {
	e.FromPort, e.ToPort = renamePort(ports, e.From, e.FromPort), renamePort(ports, e.To, e.ToPort)
	e.From, e.To = perm[e.From], perm[e.To]
	return e
}

// renamePort is node i's port q under ports (nil: unchanged).
func renamePort(ports [][MaxPorts]Port, i NodeID, q Port) Port {
	if ports == nil {
		return q
	}
	return ports[i][q]
}

func permuteSet(s NodeSet, perm []NodeID) NodeSet {
	var out NodeSet
	for x := uint16(s); x != 0; x &= x - 1 {
		i := 0
		for x&(1<<i) == 0 {
			i++
		}
		out = out.Add(perm[i])
	}
	return out
}
