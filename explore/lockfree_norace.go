//go:build !race

package explore

// storeSlot writes a seen-set slot that reads without a lock may read at
// the same time (sharedSeen.settled and prefetch). In a shared seen-set
// the writes are made under the shard's lock, and each is one aligned
// 8-byte store, which a concurrent 8-byte load sees whole, before or
// after: every value it can read is safe to act on (settled). An atomic
// store would be a locked instruction, waiting for every store before it;
// a build with the race detector makes it one all the same
// (lockfree_race.go), so that the detector checks these reads and writes
// as the search makes them.
func storeSlot(p *uint64, v uint64) { *p = v }
