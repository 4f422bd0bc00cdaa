package model

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

// A flat world keeps its node states, bookkeeping and messages in one
// buffer, laid out as AppendState writes them after its header (flat): the
// successor a handle yields is one, so that its key, under RawKey, is the
// buffer itself, with the header written and padding cleared in place
// (KeyView), and no copy is made to hash it. A step that sends more
// messages than the buffer has room for moves them elsewhere (append); the
// world is then not flat until the next copyFrom, and KeyView declines.

// KeyViewer is an optional System capability of RawKey systems: KeyView
// returns s's key (its encoding) without copying it, valid until s
// changes, when s's storage holds it laid out (ok false otherwise).
type KeyViewer interface {
	KeyView(s State) (key []byte, ok bool)
}

const (
	flatHeader = 8  // AppendState's header
	flatSlack  = 16 // room for messages a step sends, beyond its parent's
)

// flatLayout reports whether worlds of n nodes can be laid out flat: each
// part starts aligned for its type (the checkptr instrumentation of race
// builds insists, and so should we).
func flatLayout[N Value, M Message](n int) bool {
	var node N
	var env Envelope[M]
	meta := flatHeader + n*int(unsafe.Sizeof(node))
	msgs := meta + n*int(unsafe.Sizeof(Meta{}))
	return flatHeader%unsafe.Alignof(node) == 0 && uintptr(meta)%unsafe.Alignof(Meta{}) == 0 &&
		uintptr(msgs)%unsafe.Alignof(env) == 0 && unsafe.Sizeof(env) > 0
}

// flatMsgs is the offset of the messages in a flat world of n nodes.
func flatMsgs[N Value](n int) int {
	var node N
	return flatHeader + n*(int(unsafe.Sizeof(node))+int(unsafe.Sizeof(Meta{})))
}

// layFlat gives w a flat buffer for n nodes and up to k messages; w's
// contents are lost.
func (w *World[N, M]) layFlat(n, k int) {
	var env Envelope[M]
	k = max(k, 1)
	off := flatMsgs[N](n)
	size := off + k*int(unsafe.Sizeof(env))
	words := make([]uint64, (size+7)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)
	w.flat, w.flatCap = b, k
	w.Nodes = unsafe.Slice((*N)(unsafe.Pointer(&b[flatHeader])), n)
	w.Meta = unsafe.Slice((*Meta)(unsafe.Pointer(&b[flatHeader+n*int(unsafe.Sizeof(w.Nodes[0]))])), n)
	w.Msgs = w.flatMsgsAt(off)[:0]
}

// flatMsgsAt is the room for messages in w's flat buffer, from offset off.
func (w *World[N, M]) flatMsgsAt(off int) []Envelope[M] {
	return unsafe.Slice((*Envelope[M])(unsafe.Pointer(&w.flat[off])), w.flatCap)
}

// isFlat reports whether w's parts all lie in its flat buffer.
func (w *World[N, M]) isFlat() bool {
	b := w.flat
	if b == nil {
		return false
	}
	n := len(w.Nodes)
	return unsafe.Pointer(unsafe.SliceData(w.Nodes)) == unsafe.Pointer(&b[flatHeader]) &&
		unsafe.Pointer(unsafe.SliceData(w.Msgs)) == unsafe.Pointer(&b[flatMsgs[N](n)])
}

// copyFlatWithout is copyFlat without src's message i, when both worlds
// are flat already (false: nothing was done).
func (w *World[N, M]) copyFlatWithout(src *World[N, M], i int) bool {
	n, k := len(src.Nodes), len(src.Msgs)
	if w.flat == nil || !src.isFlat() || n != len(w.Nodes) || k+flatSlack > w.flatCap {
		return false
	}
	var env Envelope[M]
	sz := int(unsafe.Sizeof(env))
	off := flatMsgs[N](n)
	w.Msgs = w.flatMsgsAt(off)[:k-1]
	w.Budget = src.Budget
	at := off + i*sz
	copy(w.flat[flatHeader:at], src.flat[flatHeader:at])
	copy(w.flat[at:], src.flat[at+sz:off+k*sz])
	return true
}

// copyFlat makes w, flat, a copy of src: one copy of the buffer when src
// is flat too. It reports false when w is not flat (copyFrom copies then).
func (w *World[N, M]) copyFlat(src *World[N, M]) bool {
	if w.flat == nil {
		return false
	}
	n, k := len(src.Nodes), len(src.Msgs)
	if n != len(w.Nodes) || k+flatSlack > w.flatCap {
		// w was laid out for its own node count, checked then.
		if n != len(w.Nodes) && !flatLayout[N, M](n) {
			w.flat = nil // plain slices from now on
			return false
		}
		w.layFlat(n, 2*(k+flatSlack))
	}
	var env Envelope[M]
	off := flatMsgs[N](n)
	w.Msgs = w.flatMsgsAt(off)[:k]
	w.Budget = src.Budget
	if src.isFlat() {
		copy(w.flat[flatHeader:], src.flat[flatHeader:off+k*int(unsafe.Sizeof(env))])
		return true
	}
	copy(w.Nodes, src.Nodes)
	copy(w.Meta, src.Meta)
	copy(w.Msgs, src.Msgs)
	return true
}

// stateHeader is AppendState's header of w: node and message counts and
// the adversary's budget, as one little-endian word.
func stateHeader[N Value, M Message](w *World[N, M]) uint64 {
	b := w.Budget
	return uint64(uint8(len(w.Nodes))) | uint64(b.Connects)<<8 | uint64(b.Disconnects)<<16 |
		uint64(b.Removes)<<24 | uint64(b.Restores)<<32 | uint64(b.Crashes)<<40 | uint64(uint16(len(w.Msgs)))<<48
}

// KeyView returns s's key in place when it is a flat world of a RawKey
// protocol (see KeyViewer): the header written, padding cleared.
func (m *Machine[N, M]) KeyView(s State) ([]byte, bool) {
	w := s.(*World[N, M])
	if !m.p.RawKey || !w.isFlat() {
		return nil, false
	}
	var env Envelope[M]
	n := len(w.Nodes)
	off := flatMsgs[N](n)
	end := off + len(w.Msgs)*int(unsafe.Sizeof(env))
	b := w.flat[:end]
	binary.LittleEndian.PutUint64(b, stateHeader(w))
	m.pad.nodes.clear(b[flatHeader : flatHeader+n*int(unsafe.Sizeof(w.Nodes[0]))])
	m.pad.msgs.clear(b[off:end])
	return b, true
}

// readFlat decodes src, the encoding of a world of n nodes and k messages,
// into w laid out flat: one copy.
func (w *World[N, M]) readFlat(src []byte, n, k int) (State, error) {
	var env Envelope[M]
	off := flatMsgs[N](n)
	switch want := off + k*int(unsafe.Sizeof(env)); {
	case len(src) < want:
		return nil, fmt.Errorf("encoded state is truncated")
	case len(src) > want:
		return nil, fmt.Errorf("encoded state has %d bytes left over", len(src)-want)
	}
	if w.flat == nil || n != len(w.Nodes) || k > w.flatCap {
		w.layFlat(n, 2*(k+flatSlack))
	}
	w.Nodes, w.Meta = w.Nodes[:n:n], w.Meta[:n:n]
	w.Msgs = w.flatMsgsAt(off)[:k:k]
	copy(w.flat[flatHeader:], src[flatHeader:])
	return w, nil
}
