//go:build race

package explore

import "sync/atomic"

// storeSlot writes a seen-set slot that reads without a lock may read at
// the same time (sharedSeen.settled and prefetch, whole 8-byte loads). A
// build with the race detector makes it an atomic store, which the
// detector pairs with those loads, so that it checks the very reads and
// writes the search makes; elsewhere it is a plain store (see
// lockfree_norace.go).
func storeSlot(p *uint64, v uint64) { atomic.StoreUint64(p, v) }
