package model

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// Codec is the optional System capability of writing a state to bytes and
// reading it back exactly, so that a search can keep its queue on disk.
type Codec interface {
	// Encodable reports whether states can be encoded at all.
	Encodable() bool
	// AppendState appends the encoding of s to dst.
	AppendState(dst []byte, s State) []byte
	// ReadState decodes an encoding made by AppendState into into (a state
	// of this system, whose storage is reused), or into a new state when
	// into is nil, and returns it.
	ReadState(src []byte, into State) (State, error)
}

// plain reports whether values of type t hold no pointers (no strings,
// slices, maps, interfaces or pointers anywhere inside): their bytes are
// then the whole value.
func plain(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return plain(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if !plain(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// rawBytes is the memory of the elements of s, which must be plain.
func rawBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// Encodable reports whether the protocol's node states and messages are
// plain values, which AppendState copies byte for byte.
func (m *Machine[N, M]) Encodable() bool {
	var n N
	var msg M
	return plain(reflect.TypeOf(&n).Elem()) && plain(reflect.TypeOf(&msg).Elem())
}

// AppendState appends w's node states, bookkeeping, messages in transit and
// budget: a header of counts, then each slice's memory as it is, its
// padding cleared (so that equal states have equal bytes: RawKey).
func (m *Machine[N, M]) AppendState(dst []byte, s State) []byte {
	w := s.(*World[N, M])
	// The eight header bytes in one store: the hash reads them as one word.
	dst = binary.LittleEndian.AppendUint64(dst, stateHeader(w))
	at := len(dst)
	dst = append(dst, rawBytes(w.Nodes)...)
	m.pad.nodes.clear(dst[at:])
	at = len(dst)
	dst = append(dst, rawBytes(w.Meta)...)
	m.pad.meta.clear(dst[at:])
	at = len(dst)
	dst = append(dst, rawBytes(w.Msgs)...)
	m.pad.msgs.clear(dst[at:])
	return dst
}

// padMasks clear the padding of the values AppendState copies. Go leaves
// padding as it finds it, and a struct built on the stack may carry stale
// bytes there into a state: two equal states would then differ in their
// bytes. Each mask covers a run of whole elements; it is nil when the
// type has no padding (nor blank fields, which no code writes).
type padMasks struct{ nodes, meta, msgs *padMask }

// padMask is the mask of a run of elements: the eight-byte words of the
// run that hold padding, by offset, each with the bits to keep.
type padMask struct {
	size  int
	words []padWord
	// each: every element is one word, with these bits to keep (0: no)
	each uint64
}

type padWord struct {
	off  int
	keep uint64
}

// padMasksOf returns the masks of N, Meta and Envelope[M] for runs of n
// node states and of 64 messages.
func padMasksOf[N Value, M Message](n int) padMasks {
	var node N
	var env Envelope[M]
	return padMasks{
		nodes: runMask(reflect.TypeOf(&node).Elem(), n),
		meta:  runMask(reflect.TypeOf(Meta{}), n),
		msgs:  runMask(reflect.TypeOf(&env).Elem(), 64),
	}
}

// runMask is the mask of k elements of type t, or nil when t has no
// padding.
func runMask(t reflect.Type, k int) *padMask {
	one := make([]byte, t.Size())
	markFields(one, t, 0)
	if !slices.Contains(one, 0) || k == 0 {
		return nil
	}
	run := bytes.Repeat(one, k)
	m := &padMask{size: len(run)}
	if len(one) == 8 {
		m.each = binary.LittleEndian.Uint64(one)
	}
	for off := 0; off < len(run); off += 8 {
		var w [8]byte
		copy(w[:], run[off:])
		if keep := binary.LittleEndian.Uint64(w[:]); keep != ^uint64(0) {
			m.words = append(m.words, padWord{off, keep})
		}
	}
	return m
}

// markFields sets to 0xff the bytes of mask that the fields of a value of
// type t at offset off occupy.
func markFields(mask []byte, t reflect.Type, off uintptr) {
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.Name != "_" {
				markFields(mask, f.Type, off+f.Offset)
			}
		}
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			markFields(mask, t.Elem(), off+uintptr(i)*t.Elem().Size())
		}
	default:
		for i := range t.Size() {
			mask[off+i] = 0xff
		}
	}
}

// clear zeroes the padding in b, a run of elements (the mask repeats when
// b is longer than its run).
func (m *padMask) clear(b []byte) {
	if m == nil {
		return
	}
	if m.each != 0 {
		// A word an element (RA's node states): one loop, no table.
		for ; len(b) >= 8; b = b[8:] {
			binary.LittleEndian.PutUint64(b, binary.LittleEndian.Uint64(b)&m.each)
		}
		return
	}
	for len(b) > 0 {
		k := min(len(b), m.size)
		c := b[:k]
		for _, w := range m.words {
			if w.off+8 > k {
				for i := w.off; i < k; i++ { // the run ends inside this word
					c[i] &= byte(w.keep >> (8 * (i - w.off)))
				}
				break
			}
			binary.LittleEndian.PutUint64(c[w.off:], binary.LittleEndian.Uint64(c[w.off:])&w.keep)
		}
		b = b[k:]
	}
}

// ReadState decodes what AppendState wrote.
func (m *Machine[N, M]) ReadState(src []byte, into State) (State, error) {
	if len(src) < 8 {
		return nil, fmt.Errorf("encoded state of %d bytes is too short", len(src))
	}
	n, k := int(src[0]), int(binary.LittleEndian.Uint16(src[6:8]))
	var w *World[N, M]
	if into != nil {
		w = into.(*World[N, M])
	} else {
		w = &World[N, M]{}
	}
	w.hint = nil
	w.Budget = Budget{src[1], src[2], src[3], src[4], src[5]}
	if m.p.RawKey && (into == nil || w.flat != nil) && flatLayout[N, M](n) {
		return w.readFlat(src, n, k)
	}
	w.Nodes = resize(w.Nodes, n)
	w.Meta = resize(w.Meta, n)
	w.Msgs = resize(w.Msgs, k)
	rest := src[8:]
	for _, part := range [][]byte{rawBytes(w.Nodes), rawBytes(w.Meta), rawBytes(w.Msgs)} {
		if len(rest) < len(part) {
			return nil, fmt.Errorf("encoded state is truncated")
		}
		rest = rest[copy(part, rest):]
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("encoded state has %d bytes left over", len(rest))
	}
	return w, nil
}

// resize returns s with length n, reusing its storage when it is large
// enough.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
