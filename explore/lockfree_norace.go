//go:build !race

package explore

// lockFree turns on the reads of a shared seen-set made without its locks
// (sharedSeen.settled and prefetch). They read slots other workers may be
// writing, whole 8-byte words whose every value is safe to act on, which
// the race detector reports all the same: a build with -race goes through
// the locks instead, to the same results.
const lockFree = true
