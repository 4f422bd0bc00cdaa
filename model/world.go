package model

import "bytes"

// Link is one end of an edge as seen from a port: the peer node and its port.
// The zero Link means "no edge".
type Link uint8

const noLink Link = 0

func makeLink(v NodeID, q Port) Link { return Link((uint8(v)+1)<<3 | uint8(q)) }

// Node is the peer node of the link.
func (l Link) Node() NodeID { return NodeID(uint8(l)>>3 - 1) }

// Port is the peer's port of the link.
func (l Link) Port() Port { return Port(uint8(l) & 7) }

// Up reports whether the link exists.
func (l Link) Up() bool { return l != noLink }

// Meta is what the engine keeps per node besides the protocol's own state:
// topology, membership, the disconnection set, the workload count and
// whether the node crashed.
type Meta struct {
	// Links[p] is the edge on port p (1..Δ); Links[0] is unused.
	Links [MaxPorts]Link
	// Members is the node's membership list (whom it knows).
	Members NodeSet
	// Removed holds entries the adversary removed from Members, which a
	// restore may put back.
	Removed NodeSet
	// D is the disconnection set: ports disconnected since the node last
	// acted.
	D Ports
	// Requests counts the Request calls made at the node.
	Requests uint8
	// Crashed nodes take no more steps.
	Crashed bool
	// spare fills what would be padding, which a Meta built on the stack
	// may fill with stale bytes; a field is always written. Always 0.
	spare uint8
}

// Envelope is a message in transit.
type Envelope[M Message] struct {
	From, To         NodeID
	FromPort, ToPort Port
	Msg              M
}

// Budget is what the adversary has left; each move spends one unit.
type Budget struct {
	Connects, Disconnects, Removes, Restores, Crashes uint8
}

// World is a global state of a compiled protocol: every node's local state,
// the engine's per-node bookkeeping, the messages in transit (in canonical
// order) and the adversary's remaining budget.
type World[N Value, M Message] struct {
	Nodes  []N
	Meta   []Meta
	Msgs   []Envelope[M]
	Budget Budget
	// hint, set only on the transient successor Successors yields, lets
	// appendKey copy the parent's encoding of the nodes a step left alone.
	hint *keyHint
	// flat, under RawKey, on the transient successor Successors yields and
	// on a state ReadState decodes, is one buffer that holds Nodes, Meta
	// and Msgs laid out as their encoding (flat.go), with room for flatCap
	// messages.
	flat    []byte
	flatCap int
}

// keyHint is the node part of a parent state's key, with each node's
// offset, and the nodes the current successor may have changed.
type keyHint struct {
	parent []byte
	off    [MaxNodes + 1]int
	dirty  uint32
}

// allDirty marks every node changed.
const allDirty = ^uint32(0)

// keyScratch holds the two message encodings compareEnv compares. A
// message's AppendKey is called through the generic dictionary, so buffers
// local to compareEnv would escape and be allocated at every comparison.
type keyScratch struct{ a, b [32]byte }

// keyBufs lends compareEnv a keyScratch: one its owner keeps (a step's
// context), or one made at the first comparison that needs it.
type keyBufs struct{ ks *keyScratch }

func (k *keyBufs) get() *keyScratch {
	if k.ks == nil {
		k.ks = new(keyScratch)
	}
	return k.ks
}

// compareEnv orders envelopes by channel (receiver first, so a node's
// messages are contiguous) and then, in a bag, by the message's encoding,
// written into kb's buffers.
func compareEnv[M Message](a, b *Envelope[M], fifo bool, kb *keyBufs) int {
	switch {
	case a.To != b.To:
		return int(a.To) - int(b.To)
	case a.ToPort != b.ToPort:
		return int(a.ToPort) - int(b.ToPort)
	case a.From != b.From:
		return int(a.From) - int(b.From)
	case a.FromPort != b.FromPort:
		return int(a.FromPort) - int(b.FromPort)
	}
	if fifo || a.Msg == b.Msg {
		return 0
	}
	ks := kb.get()
	return bytes.Compare(a.Msg.AppendKey(ks.a[:0]), b.Msg.AppendKey(ks.b[:0]))
}

// insert adds e to the in-transit list, keeping it canonical: sorted in a
// bag, appended at the end of its channel under FIFO; kb: see compareEnv.
func (w *World[N, M]) insert(e Envelope[M], fifo bool, kb *keyBufs) {
	w.Msgs = insertEnv(w.Msgs, e, fifo, kb)
}

// insertEnv inserts e into the canonically ordered list msgs (kb: see
// compareEnv).
func insertEnv[M Message](msgs []Envelope[M], e Envelope[M], fifo bool, kb *keyBufs) []Envelope[M] {
	i := len(msgs)
	for i > 0 && compareEnv(&msgs[i-1], &e, fifo, kb) > 0 {
		i--
	}
	msgs = append(msgs, e)
	copy(msgs[i+1:], msgs[i:])
	msgs[i] = e
	return msgs
}

// removeAt deletes the i-th message in transit.
func (w *World[N, M]) removeAt(i int) {
	w.Msgs = append(w.Msgs[:i], w.Msgs[i+1:]...)
}

// copyWithout makes w a copy of src without its message i (with i < 0, an
// exact copy), reusing w's storage: for a flat world, the bytes before
// the message and those after it, each copied once.
func (w *World[N, M]) copyWithout(src *World[N, M], i int) {
	if i < 0 {
		w.copyFrom(src)
		return
	}
	if w.copyFlatWithout(src, i) {
		return
	}
	w.copyFrom(src)
	w.removeAt(i)
}

// copyFrom makes w an exact copy of src, reusing w's storage.
func (w *World[N, M]) copyFrom(src *World[N, M]) {
	if w.copyFlat(src) {
		return
	}
	w.Nodes = append(w.Nodes[:0], src.Nodes...)
	w.Meta = append(w.Meta[:0], src.Meta...)
	w.Msgs = append(w.Msgs[:0], src.Msgs...)
	w.Budget = src.Budget
}

// clone returns a copy of w with storage of its own, sized exactly.
func (w *World[N, M]) clone() *World[N, M] {
	c := &World[N, M]{Budget: w.Budget}
	c.Nodes = append(make([]N, 0, len(w.Nodes)), w.Nodes...)
	c.Meta = append(make([]Meta, 0, len(w.Meta)), w.Meta...)
	if len(w.Msgs) > 0 {
		c.Msgs = append(make([]Envelope[M], 0, len(w.Msgs)), w.Msgs...)
	}
	return c
}

// arena allocates clones in chunks. A chunk is freed by the garbage
// collector once no clone carved from it is referenced; searches drop
// states roughly in the order they cloned them, so little is held back.
// Each clone's slices are capped at their length, so an append by whoever
// owns the clone reallocates rather than overwriting a neighbour.
type arena[N Value, M Message] struct {
	worlds []World[N, M]
	nodes  []N
	meta   []Meta
	msgs   []Envelope[M]
}

// arenaChunk is the number of worlds per chunk.
const arenaChunk = 256

func (a *arena[N, M]) clone(w *World[N, M]) *World[N, M] {
	if len(a.worlds) == 0 {
		a.worlds = make([]World[N, M], arenaChunk)
	}
	c := &a.worlds[0]
	a.worlds = a.worlds[1:]
	c.Budget = w.Budget
	n := len(w.Nodes)
	if len(a.nodes) < n {
		a.nodes = make([]N, max(n, arenaChunk*n))
		a.meta = make([]Meta, max(n, arenaChunk*n))
	}
	c.Nodes, a.nodes = a.nodes[:n:n], a.nodes[n:]
	c.Meta, a.meta = a.meta[:n:n], a.meta[n:]
	copy(c.Nodes, w.Nodes)
	copy(c.Meta, w.Meta)
	if k := len(w.Msgs); k > 0 {
		if len(a.msgs) < k {
			a.msgs = make([]Envelope[M], max(k, arenaChunk*8))
		}
		c.Msgs, a.msgs = a.msgs[:k:k], a.msgs[k:]
		copy(c.Msgs, w.Msgs)
	}
	return c
}

// Count counts the live nodes for which pred holds; a helper for invariants such as
// mutual exclusion.
func (w *World[N, M]) Count(pred func(n *N) bool) int {
	k := 0
	for i := range w.Nodes {
		if !w.Meta[i].Crashed && pred(&w.Nodes[i]) {
			k++
		}
	}
	return k
}

// appendKey appends the canonical encoding of w. Each node state and message
// is length-prefixed, so the encoding is injective whenever the protocol's
// AppendKey methods are.
func (w *World[N, M]) appendKey(dst []byte, delta int) []byte {
	h := w.hint
	if h == nil || h.dirty == allDirty {
		for i := range w.Nodes {
			dst = appendNodeKey(dst, &w.Nodes[i], &w.Meta[i], delta)
		}
		return appendMsgsKey(dst, w.Budget, w.Msgs)
	}
	// Each run of nodes the step left alone is one copy of the parent's
	// bytes (a node step changes one node: two copies in all).
	clean := 0 // the first node of the current run of unchanged nodes
	for i := range w.Nodes {
		if h.dirty&(1<<i) == 0 {
			continue
		}
		dst = append(dst, h.parent[h.off[clean]:h.off[i]]...)
		dst = appendNodeKey(dst, &w.Nodes[i], &w.Meta[i], delta)
		clean = i + 1
	}
	dst = append(dst, h.parent[h.off[clean]:h.off[len(w.Nodes)]]...)
	return appendMsgsKey(dst, w.Budget, w.Msgs)
}

// recordHint records parent's node encodings in h, for its successors.
func recordHint[N Value, M Message](h *keyHint, parent *World[N, M], delta int) {
	h.parent = h.parent[:0]
	for i := range parent.Nodes {
		h.off[i] = len(h.parent)
		h.parent = appendNodeKey(h.parent, &parent.Nodes[i], &parent.Meta[i], delta)
	}
	h.off[len(parent.Nodes)] = len(h.parent)
	h.dirty = allDirty
}

// appendNodeKey appends one node's part of a world's key: its state,
// length-prefixed, then its bookkeeping.
func appendNodeKey[N Value](dst []byte, n *N, m *Meta, delta int) []byte {
	at := len(dst)
	dst = append(dst, 0)
	dst = (*n).AppendKey(dst)
	dst[at] = byte(len(dst) - at - 1)
	var crashed byte
	if m.Crashed {
		crashed = 1
	}
	dst = append(dst, byte(m.Members), byte(m.Members>>8), byte(m.Removed), byte(m.Removed>>8),
		byte(m.D), m.Requests, crashed)
	for p := 1; p <= delta; p++ {
		dst = append(dst, byte(m.Links[p]))
	}
	return dst
}

// appendMsgsKey appends the rest of a world's key: the adversary's budget
// and the messages in transit, in canonical order.
func appendMsgsKey[M Message](dst []byte, b Budget, msgs []Envelope[M]) []byte {
	dst = append(dst, b.Connects, b.Disconnects, b.Removes, b.Restores, b.Crashes, byte(len(msgs)), byte(len(msgs)>>8))
	for i := range msgs {
		e := &msgs[i]
		dst = append(dst, byte(e.From), byte(e.To), byte(e.FromPort)<<4|byte(e.ToPort))
		at := len(dst)
		dst = append(dst, 0)
		dst = e.Msg.AppendKey(dst)
		dst[at] = byte(len(dst) - at - 1)
	}
	return dst
}
