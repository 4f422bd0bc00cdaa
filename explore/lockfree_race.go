//go:build race

package explore

// lockFree: see lockfree_norace.go.
const lockFree = false
