#include "textflag.h"

// func prefetchW(p unsafe.Pointer, n uintptr)
// PREFETCHW (0F 0D /1) each 64-byte line of p[0:n]: the lines come into
// the cache ready to be written. Older CPUs run it as a NOP.
TEXT ·prefetchW(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	TESTQ CX, CX
	JLE done
loop:
	BYTE $0x0F; BYTE $0x0D; BYTE $0x08 // PREFETCHW (AX)
	ADDQ $64, AX
	SUBQ $64, CX
	JGT loop
done:
	RET
