package model

import "github.com/cespare/xxhash/v2"

// Fingerprint is the 64-bit fingerprint of a canonical state key: XXH64 with
// seed 0, so it is the same on every run and every machine. It is never 0,
// which seen-sets use to mark empty slots.
func Fingerprint(key []byte) uint64 {
	h := xxhash.Sum64(key)
	if h == 0 {
		h = 1
	}
	return h
}
