package model

import (
	"math/bits"
	"unsafe"
)

// Fingerprint is the 64-bit fingerprint of a canonical state key, never 0
// (seen-sets use 0 to mark empty slots). It is a fixed function, the same
// on every run and every machine: a folded-multiply hash, wyhash's
// construction. Each 16 bytes of key cost one 64×64→128-bit multiply,
// whose halves are XORed, in three independent lanes of 48 bytes; XXH64
// costs two 64-bit multiplies in sequence per 8 bytes. On a 146-byte key
// (RA, 4 nodes) it takes half of XXH64's time, and a search hashes every
// successor's key.
func Fingerprint(key []byte) uint64 {
	h := foldHash(key)
	if h == 0 {
		h = 1
	}
	return h
}

// The hash's constants: wyhash's, odd and with half their bits set.
const (
	fold0 = 0xa0761d6478bd642f
	fold1 = 0xe7037ed1a0b428db
	fold2 = 0x8ebc6af09c88c6e3
	fold3 = 0x589965cc75374cc3
)

// fold is the hash's mixing step: the 128-bit product of a and b, its two
// halves XORed.
func fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// foldHash hashes b, read as little-endian 8-byte words (load64: one
// unaligned load where the machine is little-endian), always within b.
func foldHash(b []byte) uint64 {
	n := uintptr(len(b))
	seed := uint64(fold0)
	var x, y uint64
	switch {
	case n >= 16:
		p := unsafe.Pointer(unsafe.SliceData(b))
		base := p
		i := n
		if i > 48 {
			s1, s2 := seed, seed
			for ; i > 48; i -= 48 {
				seed = fold(load64(p, 0)^fold1, load64(p, 8)^seed)
				s1 = fold(load64(p, 16)^fold2, load64(p, 24)^s1)
				s2 = fold(load64(p, 32)^fold3, load64(p, 40)^s2)
				p = unsafe.Add(p, 48)
			}
			seed ^= s1 ^ s2
		}
		for ; i > 16; i -= 16 {
			seed = fold(load64(p, 0)^fold1, load64(p, 8)^seed)
			p = unsafe.Add(p, 16)
		}
		// The last 16 bytes of b, which may overlap those already mixed.
		x, y = load64(base, n-16), load64(base, n-8)
	case n >= 4:
		// Two overlapping 4-byte reads from each end (4 ≤ n < 16).
		m := n >> 3 << 2
		x = uint64(load32(b, 0))<<32 | uint64(load32(b, m))
		y = uint64(load32(b, n-4))<<32 | uint64(load32(b, n-4-m))
	case n > 0:
		x = uint64(b[0])<<16 | uint64(b[n>>1])<<8 | uint64(b[n-1])
	}
	hi, lo := bits.Mul64(x^fold1, y^seed)
	return fold(lo^fold0^uint64(n), hi^fold1)
}

// load32 is the little-endian 4 bytes of b at off.
func load32(b []byte, off uintptr) uint32 {
	return uint32(b[off]) | uint32(b[off+1])<<8 | uint32(b[off+2])<<16 | uint32(b[off+3])<<24
}
