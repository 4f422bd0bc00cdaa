//go:build 386 || amd64 || arm64 || loong64 || ppc64le || wasm

package model

import "unsafe"

// load64 is the little-endian 8 bytes at p+off: one load on this machine,
// little-endian and at ease with unaligned loads (elsewhere:
// fingerprint_load_bytes.go).
func load64(p unsafe.Pointer, off uintptr) uint64 {
	return *(*uint64)(unsafe.Add(p, off))
}
