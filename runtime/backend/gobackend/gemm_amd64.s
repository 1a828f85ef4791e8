//go:build !purego

#include "textflag.h"

// func gemmMicro4x8(k int, a, b, c *float32, ldc int)
//
// C[4×8] += A[4×k] · B[k×8] with A packed k-major (a[4*p+r]) and B packed
// k-major (b[8*p+j]); c points at C[0][0], rows ldc floats apart. SSE only
// (amd64 baseline). Accumulators: X0..X7 = row r, columns 0-3 / 4-7,
// loaded from C, so each output adds its products to C in k order (the
// in-order sum of the reference, across K blocks too).
TEXT ·gemmMicro4x8(SB), NOSPLIT, $0-40
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8
	MOVQ   DX, R9
	MOVUPS (R9), X0
	MOVUPS 16(R9), X1
	ADDQ   R8, R9
	MOVUPS (R9), X2
	MOVUPS 16(R9), X3
	ADDQ   R8, R9
	MOVUPS (R9), X4
	MOVUPS 16(R9), X5
	ADDQ   R8, R9
	MOVUPS (R9), X6
	MOVUPS 16(R9), X7
	TESTQ  CX, CX
	JEQ   store

loop:
	MOVUPS (DI), X8
	MOVUPS 16(DI), X9

	MOVSS  (SI), X10
	SHUFPS $0x00, X10, X10
	MOVAPS X10, X11
	MULPS  X8, X10
	ADDPS  X10, X0
	MULPS  X9, X11
	ADDPS  X11, X1

	MOVSS  4(SI), X12
	SHUFPS $0x00, X12, X12
	MOVAPS X12, X13
	MULPS  X8, X12
	ADDPS  X12, X2
	MULPS  X9, X13
	ADDPS  X13, X3

	MOVSS  8(SI), X10
	SHUFPS $0x00, X10, X10
	MOVAPS X10, X11
	MULPS  X8, X10
	ADDPS  X10, X4
	MULPS  X9, X11
	ADDPS  X11, X5

	MOVSS  12(SI), X12
	SHUFPS $0x00, X12, X12
	MOVAPS X12, X13
	MULPS  X8, X12
	ADDPS  X12, X6
	MULPS  X9, X13
	ADDPS  X13, X7

	ADDQ $16, SI
	ADDQ $32, DI
	DECQ CX
	JNE  loop

store:
	MOVUPS X0, (DX)
	MOVUPS X1, 16(DX)
	ADDQ   R8, DX
	MOVUPS X2, (DX)
	MOVUPS X3, 16(DX)
	ADDQ   R8, DX
	MOVUPS X4, (DX)
	MOVUPS X5, 16(DX)
	ADDQ   R8, DX
	MOVUPS X6, (DX)
	MOVUPS X7, 16(DX)
	RET
