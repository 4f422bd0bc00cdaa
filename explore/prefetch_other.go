//go:build !amd64

package explore

import "unsafe"

// prefetchWrite is a hint with no instruction behind it here.
func prefetchWrite(p unsafe.Pointer) {}

const canPrefetchWrite = false
