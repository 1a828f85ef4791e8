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

// func packT8(n int, dst *float32, dw int, src *float32, ss int)
//
// Transposes n blocks of 8 lines × 8 values (AVX): line l's values k at
// src + l*ss + k floats go to dst + k*dw + l (k-major strips: 8 lines
// side by side per step, dw floats apart). Block b covers values 8b..8b+7.
TEXT ·packT8(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ dst+8(FP), DI
	MOVQ dw+16(FP), R8
	SHLQ $2, R8
	MOVQ src+24(FP), SI
	MOVQ ss+32(FP), R9
	SHLQ $2, R9
	LEAQ (R9)(R9*2), R10  // 3 lines
	LEAQ (R8)(R8*2), R11  // 3 steps
	TESTQ CX, CX
	JEQ  t8done

t8loop:
	MOVQ SI, AX
	VMOVUPS (AX), Y0
	VMOVUPS (AX)(R9*1), Y1
	VMOVUPS (AX)(R9*2), Y2
	VMOVUPS (AX)(R10*1), Y3
	LEAQ (AX)(R9*4), AX
	VMOVUPS (AX), Y4
	VMOVUPS (AX)(R9*1), Y5
	VMOVUPS (AX)(R9*2), Y6
	VMOVUPS (AX)(R10*1), Y7
	VUNPCKLPS Y1, Y0, Y8  // l0 l1 of k 0,1 | 4,5
	VUNPCKHPS Y1, Y0, Y9  // k 2,3 | 6,7
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15
	VSHUFPS $0x44, Y10, Y8, Y0  // lines 0-3 of k 0 | 4
	VSHUFPS $0xEE, Y10, Y8, Y1  // k 1 | 5
	VSHUFPS $0x44, Y11, Y9, Y2  // k 2 | 6
	VSHUFPS $0xEE, Y11, Y9, Y3  // k 3 | 7
	VSHUFPS $0x44, Y14, Y12, Y4 // lines 4-7
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7
	VPERM2F128 $0x20, Y4, Y0, Y8  // k 0
	VPERM2F128 $0x20, Y5, Y1, Y9  // k 1
	VPERM2F128 $0x20, Y6, Y2, Y10 // k 2
	VPERM2F128 $0x20, Y7, Y3, Y11 // k 3
	VPERM2F128 $0x31, Y4, Y0, Y12 // k 4
	VPERM2F128 $0x31, Y5, Y1, Y13 // k 5
	VPERM2F128 $0x31, Y6, Y2, Y14 // k 6
	VPERM2F128 $0x31, Y7, Y3, Y15 // k 7
	MOVQ DI, AX
	VMOVUPS Y8, (AX)
	VMOVUPS Y9, (AX)(R8*1)
	VMOVUPS Y10, (AX)(R8*2)
	VMOVUPS Y11, (AX)(R11*1)
	LEAQ (AX)(R8*4), AX
	VMOVUPS Y12, (AX)
	VMOVUPS Y13, (AX)(R8*1)
	VMOVUPS Y14, (AX)(R8*2)
	VMOVUPS Y15, (AX)(R11*1)
	ADDQ $32, SI
	LEAQ (DI)(R8*8), DI
	DECQ CX
	JNE  t8loop

t8done:
	VZEROUPPER
	RET

// func packT4(n int, dst *float32, dw int, src *float32, ss int)
//
// packT8 for 4 lines: n blocks of 4 lines × 8 values.
TEXT ·packT4(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ dst+8(FP), DI
	MOVQ dw+16(FP), R8
	SHLQ $2, R8
	MOVQ src+24(FP), SI
	MOVQ ss+32(FP), R9
	SHLQ $2, R9
	LEAQ (R9)(R9*2), R10
	LEAQ (R8)(R8*2), R11
	TESTQ CX, CX
	JEQ  t4done

t4loop:
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R9*1), Y1
	VMOVUPS (SI)(R9*2), Y2
	VMOVUPS (SI)(R10*1), Y3
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VSHUFPS $0x44, Y10, Y8, Y0 // k 0 | 4
	VSHUFPS $0xEE, Y10, Y8, Y1 // k 1 | 5
	VSHUFPS $0x44, Y11, Y9, Y2 // k 2 | 6
	VSHUFPS $0xEE, Y11, Y9, Y3 // k 3 | 7
	MOVQ DI, AX
	VMOVUPS X0, (AX)
	VMOVUPS X1, (AX)(R8*1)
	VMOVUPS X2, (AX)(R8*2)
	VMOVUPS X3, (AX)(R11*1)
	LEAQ (AX)(R8*4), AX
	VEXTRACTF128 $1, Y0, (AX)
	VEXTRACTF128 $1, Y1, (AX)(R8*1)
	VEXTRACTF128 $1, Y2, (AX)(R8*2)
	VEXTRACTF128 $1, Y3, (AX)(R11*1)
	ADDQ $32, SI
	LEAQ (DI)(R8*8), DI
	DECQ CX
	JNE  t4loop

t4done:
	VZEROUPPER
	RET
