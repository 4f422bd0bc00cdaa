//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package model

import "unsafe"

// load64 is the little-endian 8 bytes at p+off: one load on this machine.
func load64(p unsafe.Pointer, off uintptr) uint64 {
	return *(*uint64)(unsafe.Add(p, off))
}
