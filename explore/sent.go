package explore

// offeredCache remembers, in a small direct-mapped table, fingerprints a
// BFS worker has recently offered (to itself or to another owner). Offering
// the same fingerprint again can change nothing: the state is then in its
// owner's seen-set, from an earlier level (ignored) or from this one with a
// lesser key from the same worker (a worker offers in increasing key order),
// which the new offer cannot replace. So a hit drops the successor before it
// is encoded, batched and probed. States of a search reach each other in
// diamonds, mostly from parents expanded close together, so most repeats
// hit. A miss only costs the probe it would have cost anyway; the full
// fingerprint is compared, so a hit is never another state.
type offeredCache struct {
	lo, hi []uint64 // hi is nil with 64-bit fingerprints
}

// offeredBits is the log2 of the cache's entries: 2^15 × 8 bytes (16 with
// 128-bit fingerprints), within a core's L2 cache.
const offeredCacheBits = 15

func newOfferedCache(wide bool) *offeredCache {
	c := &offeredCache{lo: make([]uint64, 1<<offeredCacheBits)}
	if wide {
		c.hi = make([]uint64, 1<<offeredCacheBits)
	}
	return c
}

// again reports whether f is in the cache, and puts it there. f.lo is
// never 0, so an empty entry never matches.
func (c *offeredCache) again(f fingerprint) bool {
	i := (f.lo * 0x9e3779b97f4a7c15) >> (64 - offeredCacheBits)
	if c.lo[i] == f.lo && (c.hi == nil || c.hi[i] == f.hi) {
		return true
	}
	c.lo[i] = f.lo
	if c.hi != nil {
		c.hi[i] = f.hi
	}
	return false
}
