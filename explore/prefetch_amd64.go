package explore

import "unsafe"

// prefetchWrite asks the processor to bring p's cache line into this
// core's cache for writing (PREFETCHW), without waiting for it; a hint,
// with no effect on memory. Call it only when canPrefetchWrite.
//
//go:noescape
func prefetchWrite(p unsafe.Pointer)

// extFeaturesECX is ECX of CPUID leaf 0x80000001 (0 without the leaf).
func extFeaturesECX() uint32

// canPrefetchWrite: the processor has PREFETCHW (CPUID 0x80000001 ECX bit
// 8); elsewhere the instruction may be undefined.
var canPrefetchWrite = extFeaturesECX()&(1<<8) != 0
