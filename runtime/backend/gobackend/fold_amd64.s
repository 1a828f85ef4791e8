#include "textflag.h"

// Lane folds of float32 for the GO device (AVX2; fold_amd64.go checks the
// CPU has it). The exact folds keep each lane a sequential fold with the
// scalar folds' semantics (foldSeg): sum acc + x; max (acc > x || acc !=
// acc) ? acc : x; min with <. The any-order maxima and minima (maxAny32,
// minAny32) also report whether a value was NaN.

// func addLanes32(acc, x *float32, n int)
// acc[i] += x[i] for i < n (n a multiple of 8).
TEXT ·addLanes32(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ  addl_done
addl_loop:
	VMOVUPS (DI), Y0
	VADDPS  (SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	DECQ    CX
	JNE     addl_loop
addl_done:
	VZEROUPPER
	RET

// func maxLanes32(acc, x *float32, n int)
// acc[i] = (acc[i] > x[i] || acc[i] != acc[i]) ? acc[i] : x[i] (n a multiple of 8).
TEXT ·maxLanes32(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ  maxl_done
maxl_loop:
	VMOVUPS   (DI), Y0
	VMOVUPS   (SI), Y1
	VCMPPS    $0x1e, Y1, Y0, Y2
	VCMPPS    $0x03, Y0, Y0, Y3
	VORPS     Y3, Y2, Y2
	VBLENDVPS Y2, Y0, Y1, Y4
	VMOVUPS   Y4, (DI)
	ADDQ      $32, DI
	ADDQ      $32, SI
	DECQ      CX
	JNE       maxl_loop
maxl_done:
	VZEROUPPER
	RET

// func minLanes32(acc, x *float32, n int)
// acc[i] = (acc[i] < x[i] || acc[i] != acc[i]) ? acc[i] : x[i] (n a multiple of 8).
TEXT ·minLanes32(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ  minl_done
minl_loop:
	VMOVUPS   (DI), Y0
	VMOVUPS   (SI), Y1
	VCMPPS    $0x11, Y1, Y0, Y2
	VCMPPS    $0x03, Y0, Y0, Y3
	VORPS     Y3, Y2, Y2
	VBLENDVPS Y2, Y0, Y1, Y4
	VMOVUPS   Y4, (DI)
	ADDQ      $32, DI
	ADDQ      $32, SI
	DECQ      CX
	JNE       minl_loop
minl_done:
	VZEROUPPER
	RET

// func sumRows64(acc, x *float32, rows, stride int)
// acc[w] += x[r*stride + w] for r < rows in order, w < 64: the 64 lanes
// stay in eight registers across the rows.
TEXT ·sumRows64(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	SHLQ $2, DX
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
	TESTQ   CX, CX
	JEQ     sumr_store
sumr_loop:
	VADDPS (SI), Y0, Y0
	VADDPS 32(SI), Y1, Y1
	VADDPS 64(SI), Y2, Y2
	VADDPS 96(SI), Y3, Y3
	VADDPS 128(SI), Y4, Y4
	VADDPS 160(SI), Y5, Y5
	VADDPS 192(SI), Y6, Y6
	VADDPS 224(SI), Y7, Y7
	ADDQ   DX, SI
	DECQ   CX
	JNE    sumr_loop
sumr_store:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VZEROUPPER
	RET

// func maxAny32(x *float32, n int, out *[8]float32) (nan bool)
// The maximum of x[:n] (n a multiple of 32) in any order, lane by lane
// into out; nan reports a NaN among them (then out means nothing).
TEXT ·maxAny32(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI
	VMOVUPS (SI), Y0
	VMOVUPS Y0, Y1
	VMOVUPS Y0, Y2
	VMOVUPS Y0, Y3
	VXORPS  Y8, Y8, Y8
	SHRQ    $5, CX
	JEQ     maxa_done
maxa_loop:
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VCMPPS  $0x03, Y5, Y4, Y9
	VCMPPS  $0x03, Y7, Y6, Y10
	VORPS   Y9, Y8, Y8
	VORPS   Y10, Y8, Y8
	VMAXPS  Y4, Y0, Y0
	VMAXPS  Y5, Y1, Y1
	VMAXPS  Y6, Y2, Y2
	VMAXPS  Y7, Y3, Y3
	ADDQ    $128, SI
	DECQ    CX
	JNE     maxa_loop
maxa_done:
	VMAXPS   Y1, Y0, Y0
	VMAXPS   Y3, Y2, Y2
	VMAXPS   Y2, Y0, Y0
	VMOVUPS  Y0, (DI)
	VMOVMSKPS Y8, AX
	TESTL    AX, AX
	SETNE    nan+24(FP)
	VZEROUPPER
	RET

// func minAny32(x *float32, n int, out *[8]float32) (nan bool)
// As maxAny32, the minimum.
TEXT ·minAny32(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI
	VMOVUPS (SI), Y0
	VMOVUPS Y0, Y1
	VMOVUPS Y0, Y2
	VMOVUPS Y0, Y3
	VXORPS  Y8, Y8, Y8
	SHRQ    $5, CX
	JEQ     mina_done
mina_loop:
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VCMPPS  $0x03, Y5, Y4, Y9
	VCMPPS  $0x03, Y7, Y6, Y10
	VORPS   Y9, Y8, Y8
	VORPS   Y10, Y8, Y8
	VMINPS  Y4, Y0, Y0
	VMINPS  Y5, Y1, Y1
	VMINPS  Y6, Y2, Y2
	VMINPS  Y7, Y3, Y3
	ADDQ    $128, SI
	DECQ    CX
	JNE     mina_loop
mina_done:
	VMINPS   Y1, Y0, Y0
	VMINPS   Y3, Y2, Y2
	VMINPS   Y2, Y0, Y0
	VMOVUPS  Y0, (DI)
	VMOVMSKPS Y8, AX
	TESTL    AX, AX
	SETNE    nan+24(FP)
	VZEROUPPER
	RET

// func maxRows64(acc, x *float32, rows, stride int)
// As sumRows64 with the max fold: acc[w] = (acc[w] > x || acc[w] != acc[w]) ? acc[w] : x.
TEXT ·maxRows64(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	SHLQ $2, DX
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
	TESTQ CX, CX
	JEQ maxRows64_store
maxRows64_loop:
	VMOVUPS   0(SI), Y8
	VCMPPS    $0x1e, Y8, Y0, Y9
	VCMPPS    $0x03, Y0, Y0, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y0, Y8, Y0
	VMOVUPS   32(SI), Y8
	VCMPPS    $0x1e, Y8, Y1, Y9
	VCMPPS    $0x03, Y1, Y1, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y1, Y8, Y1
	VMOVUPS   64(SI), Y8
	VCMPPS    $0x1e, Y8, Y2, Y9
	VCMPPS    $0x03, Y2, Y2, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y2, Y8, Y2
	VMOVUPS   96(SI), Y8
	VCMPPS    $0x1e, Y8, Y3, Y9
	VCMPPS    $0x03, Y3, Y3, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y3, Y8, Y3
	VMOVUPS   128(SI), Y8
	VCMPPS    $0x1e, Y8, Y4, Y9
	VCMPPS    $0x03, Y4, Y4, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y4, Y8, Y4
	VMOVUPS   160(SI), Y8
	VCMPPS    $0x1e, Y8, Y5, Y9
	VCMPPS    $0x03, Y5, Y5, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y5, Y8, Y5
	VMOVUPS   192(SI), Y8
	VCMPPS    $0x1e, Y8, Y6, Y9
	VCMPPS    $0x03, Y6, Y6, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y6, Y8, Y6
	VMOVUPS   224(SI), Y8
	VCMPPS    $0x1e, Y8, Y7, Y9
	VCMPPS    $0x03, Y7, Y7, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y7, Y8, Y7
	ADDQ DX, SI
	DECQ CX
	JNE maxRows64_loop
maxRows64_store:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VZEROUPPER
	RET

// func minRows64(acc, x *float32, rows, stride int)
// As sumRows64 with the min fold: acc[w] = (acc[w] < x || acc[w] != acc[w]) ? acc[w] : x.
TEXT ·minRows64(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	SHLQ $2, DX
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
	TESTQ CX, CX
	JEQ minRows64_store
minRows64_loop:
	VMOVUPS   0(SI), Y8
	VCMPPS    $0x11, Y8, Y0, Y9
	VCMPPS    $0x03, Y0, Y0, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y0, Y8, Y0
	VMOVUPS   32(SI), Y8
	VCMPPS    $0x11, Y8, Y1, Y9
	VCMPPS    $0x03, Y1, Y1, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y1, Y8, Y1
	VMOVUPS   64(SI), Y8
	VCMPPS    $0x11, Y8, Y2, Y9
	VCMPPS    $0x03, Y2, Y2, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y2, Y8, Y2
	VMOVUPS   96(SI), Y8
	VCMPPS    $0x11, Y8, Y3, Y9
	VCMPPS    $0x03, Y3, Y3, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y3, Y8, Y3
	VMOVUPS   128(SI), Y8
	VCMPPS    $0x11, Y8, Y4, Y9
	VCMPPS    $0x03, Y4, Y4, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y4, Y8, Y4
	VMOVUPS   160(SI), Y8
	VCMPPS    $0x11, Y8, Y5, Y9
	VCMPPS    $0x03, Y5, Y5, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y5, Y8, Y5
	VMOVUPS   192(SI), Y8
	VCMPPS    $0x11, Y8, Y6, Y9
	VCMPPS    $0x03, Y6, Y6, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y6, Y8, Y6
	VMOVUPS   224(SI), Y8
	VCMPPS    $0x11, Y8, Y7, Y9
	VCMPPS    $0x03, Y7, Y7, Y10
	VORPS     Y10, Y9, Y9
	VBLENDVPS Y9, Y7, Y8, Y7
	ADDQ DX, SI
	DECQ CX
	JNE minRows64_loop
minRows64_store:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VZEROUPPER
	RET

// func sumSeqRows(out, x *float32, rows, r int)
// out[i] = x[i*r] + x[i*r+1] + ... in order (a float32 sum rounded at each
// step) for i < rows (a multiple of 8): eight rows at a time, lane l
// gathering row l's next value.
TEXT ·sumSeqRows(SB), NOSPLIT, $0-32
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ r+24(FP), DX
	SHRQ $3, CX
	JEQ  ssr_done
	// Y4: the lane offsets 0, r, 2r, ... 7r (elements).
	MOVQ    DX, X5
	VPBROADCASTD X5, Y5
	VMOVDQU ssr_lanes<>(SB), Y6
	VPMULLD Y6, Y5, Y4
	MOVQ DX, BX
	SHLQ $5, BX // 8 rows of r floats, in bytes
ssr_block:
	VXORPS Y0, Y0, Y0
	MOVQ   SI, R8
	MOVQ   DX, R9
	TESTQ  R9, R9
	JEQ    ssr_store
ssr_k:
	VPCMPEQD   Y1, Y1, Y1
	VXORPS     Y2, Y2, Y2
	VGATHERDPS Y1, (R8)(Y4*4), Y2
	VADDPS     Y2, Y0, Y0
	ADDQ       $4, R8
	DECQ       R9
	JNE        ssr_k
ssr_store:
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    BX, SI
	DECQ    CX
	JNE     ssr_block
ssr_done:
	VZEROUPPER
	RET

DATA ssr_lanes<>+0(SB)/4, $0
DATA ssr_lanes<>+4(SB)/4, $1
DATA ssr_lanes<>+8(SB)/4, $2
DATA ssr_lanes<>+12(SB)/4, $3
DATA ssr_lanes<>+16(SB)/4, $4
DATA ssr_lanes<>+20(SB)/4, $5
DATA ssr_lanes<>+24(SB)/4, $6
DATA ssr_lanes<>+28(SB)/4, $7
GLOBL ssr_lanes<>(SB), RODATA|NOPTR, $32
