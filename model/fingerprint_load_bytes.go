//go:build !(386 || amd64 || arm64 || loong64 || ppc64le || wasm)

package model

import (
	"encoding/binary"
	"unsafe"
)

// load64 is the little-endian 8 bytes at p+off, read byte by byte on this
// machine (big-endian, or one where an unaligned 8-byte load may trap:
// 32-bit ARM, MIPS, RISC-V), so that fingerprints are the same as on
// every other.
func load64(p unsafe.Pointer, off uintptr) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(p, off)), 8))
}
