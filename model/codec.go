package model

import (
	"encoding/binary"
	"fmt"
	"reflect"
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
// budget: a header of counts, then each slice's memory as it is.
func (m *Machine[N, M]) AppendState(dst []byte, s State) []byte {
	w := s.(*World[N, M])
	b := w.Budget
	dst = append(dst, byte(len(w.Nodes)), b.Connects, b.Disconnects, b.Removes, b.Restores, b.Crashes)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(w.Msgs)))
	dst = append(dst, rawBytes(w.Nodes)...)
	dst = append(dst, rawBytes(w.Meta)...)
	return append(dst, rawBytes(w.Msgs)...)
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
