#include "textflag.h"

// func prefetchWrite(p unsafe.Pointer)
TEXT ·prefetchWrite(SB),NOSPLIT,$0-8
	MOVQ p+0(FP), AX
	BYTE $0x0F; BYTE $0x0D; BYTE $0x08 // PREFETCHW (AX): the Go assembler has no name for it
	RET

// func extFeaturesECX() uint32
TEXT ·extFeaturesECX(SB),NOSPLIT,$0-4
	MOVL $0x80000000, AX
	CPUID
	CMPL AX, $0x80000001
	JB none
	MOVL $0x80000001, AX
	XORL CX, CX
	CPUID
	MOVL CX, ret+0(FP)
	RET
none:
	MOVL $0, ret+0(FP)
	RET
