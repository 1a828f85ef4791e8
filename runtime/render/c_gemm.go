package render

// The CPU device's matrix multiply. A float32 contraction kernel (ir.MatchGemm:
// the reduce-sum of A[..., M, 1, K] * B[..., 1, N, K] that Matmul builds)
// is rendered as a packed, register-blocked GEMM instead of the generic
// reduce: B is packed per (K block, N block) into k-major strips of
// TICK_NR columns, A per (M block, K block) into k-major strips of TICK_MR
// rows, and a TICK_MR × TICK_NR micro-kernel keeps its tile of C in vector
// registers (TICK_MR × 2 vectors of TICK_VB bytes: 6×16 on AVX2, 12×32 on
// AVX-512), loading and storing full tiles of C in place (edge tiles go
// through a tile on the stack). Each output sums its products in k order,
// starting from the value the previous K block left in C.
//
// Where the target has fused multiply-adds (native.VectorISA.FMA: __FMA__,
// every AVX-512 target, __ARM_FEATURE_FMA), the micro-kernel contracts
// each a*b + c into one: no BLAS library gives bit-identical non-FMA
// results, and Intel CPUs issue two FMAs but only two multiplies or adds
// per cycle, so the separate operations run at half the machine's peak.
// Results are then within the usual dot-product bound of the reference
// (|c - ref| <= 2·K·u·Σ|a||b|, u = 2^-24), not bit-identical to it or to the
// GO device. With C.FMA false (the CPU backend's TICK_FMA=0) the
// micro-kernel multiplies and adds separately: bit-identical to the scalar
// reduce (and to irtest.Eval). Elementwise kernels never contract
// (-ffp-contract=off).

import (
	"fmt"
	"strings"

	"github.com/tick-kernel/tick/runtime/ir"
)

// Block sizes: a kc×TICK_NR strip of B stays in L1 (24 KB on AVX2, 32 KB
// on AVX-512), an mc×kc block of A in L2, a kc×nc panel of B in L2/L3.
// cGemmKC is for 32-byte vectors or narrower; AVX-512's strips are twice
// as wide, so its K blocks are shorter (the prelude picks).
const (
	cGemmKC    = 384
	cGemmKC512 = 256
	cGemmMC    = 144 // a multiple of both TICK_MR values (6 and 12)
	cGemmNC    = 1024
)

const cGemmPrelude = `#if TICK_VB >= 64
#define TICK_MR 12
#else
#define TICK_MR 6
#endif
#define TICK_VL (TICK_VB / 4)
#define TICK_NR (2 * TICK_VL)
// C[TICK_MR×TICK_NR] (+)= A·B over kc: ap is a k-major strip of TICK_MR
// rows, bp a k-major strip of TICK_NR columns; first: C starts from zero.
// The tile of C stays in registers; each output adds its products in k order.
TICK_MK_ATTR static void tick_mk(int64_t kc, const float *restrict ap, const float *restrict bp,
		float *restrict c, int64_t ldc, int first) {
	tick_vf acc[TICK_MR][2];
	if (first) {
#pragma GCC unroll 12
		for (int r = 0; r < TICK_MR; r++) acc[r][0] = acc[r][1] = (tick_vf){};
	} else {
#pragma GCC unroll 12
		for (int r = 0; r < TICK_MR; r++) {
			acc[r][0] = tick_vf_ld(c + r * ldc);
			acc[r][1] = tick_vf_ld(c + r * ldc + TICK_VL);
		}
	}
#pragma GCC unroll 2
	for (int64_t p = 0; p < kc; p++) {
		const tick_vf b0 = tick_vf_ld(bp + p * TICK_NR), b1 = tick_vf_ld(bp + p * TICK_NR + TICK_VL);
#pragma GCC unroll 12
		for (int r = 0; r < TICK_MR; r++) {
			const tick_vf a = TICK_VBCAST(tick_vf, ap[p * TICK_MR + r]);
			acc[r][0] = acc[r][0] + a * b0;
			acc[r][1] = acc[r][1] + a * b1;
		}
	}
#pragma GCC unroll 12
	for (int r = 0; r < TICK_MR; r++) {
		__builtin_memcpy(c + r * ldc, &acc[r][0], sizeof acc[r][0]);
		__builtin_memcpy(c + r * ldc + TICK_VL, &acc[r][1], sizeof acc[r][1]);
	}
}
// tick_mk_edge is tick_mk for a partial tile of mr rows and nr columns,
// through a full tile on the stack.
static void tick_mk_edge(int64_t kc, const float *restrict ap, const float *restrict bp,
		float *restrict c, int64_t ldc, int mr, int nr, int first) {
	float t[TICK_MR * TICK_NR] __attribute__((aligned(64))) = {0};
	if (!first)
		for (int r = 0; r < mr; r++)
			for (int j = 0; j < nr; j++) t[r * TICK_NR + j] = c[r * ldc + j];
	tick_mk(kc, ap, bp, t, TICK_NR, first);
	for (int r = 0; r < mr; r++)
		for (int j = 0; j < nr; j++) c[r * ldc + j] = t[r * TICK_NR + j];
}
// tick_gemm_rows computes rows [r0, r1) of one M×N product: A row i,
// column k at a[i*sai + k*sak]; B (as the kernel reads it) row j, column k
// at b[j*sbj + k*sbk]; C row-major with N columns. pa, pb: packing buffers.
static inline void tick_gemm_rows(float *restrict c, const float *restrict a, const float *restrict b,
		int64_t r0, int64_t r1, int64_t N, int64_t K, int64_t sai, int64_t sak, int64_t sbj, int64_t sbk,
		float *restrict pa, float *restrict pb) {
	for (int64_t jc = 0; jc < N; jc += TICK_GEMM_NC) {
		const int64_t nc = N - jc < TICK_GEMM_NC ? N - jc : TICK_GEMM_NC;
		for (int64_t pc = 0; pc < K; pc += TICK_GEMM_KC) {
			const int64_t kc = K - pc < TICK_GEMM_KC ? K - pc : TICK_GEMM_KC;
			for (int64_t js = 0; js < nc; js += TICK_NR) { // pack B: strips of TICK_NR columns
				float *s = pb + js * kc;
				const float *src = b + (jc + js) * sbj + pc * sbk;
				if (js + TICK_NR <= nc) {
					for (int64_t p = 0; p < kc; p++)
						for (int j = 0; j < TICK_NR; j++) s[p * TICK_NR + j] = src[j * sbj + p * sbk];
				} else {
					for (int64_t p = 0; p < kc; p++)
						for (int j = 0; j < TICK_NR; j++) s[p * TICK_NR + j] = js + j < nc ? src[j * sbj + p * sbk] : 0.0f;
				}
			}
			for (int64_t ic = r0; ic < r1; ic += TICK_GEMM_MC) {
				const int64_t mc = r1 - ic < TICK_GEMM_MC ? r1 - ic : TICK_GEMM_MC;
				for (int64_t is = 0; is < mc; is += TICK_MR) { // pack A: strips of TICK_MR rows
					float *s = pa + is * kc;
					const float *src = a + (ic + is) * sai + pc * sak;
					if (is + TICK_MR <= mc) {
						for (int64_t p = 0; p < kc; p++)
							for (int r = 0; r < TICK_MR; r++) s[p * TICK_MR + r] = src[r * sai + p * sak];
					} else {
						for (int64_t p = 0; p < kc; p++)
							for (int r = 0; r < TICK_MR; r++) s[p * TICK_MR + r] = is + r < mc ? src[r * sai + p * sak] : 0.0f;
					}
				}
				for (int64_t js = 0; js < nc; js += TICK_NR)
					for (int64_t is = 0; is < mc; is += TICK_MR) {
						const int mr = mc - is < TICK_MR ? (int)(mc - is) : TICK_MR;
						const int nr = nc - js < TICK_NR ? (int)(nc - js) : TICK_NR;
						float *ct = c + (ic + is) * N + jc + js;
						if (mr == TICK_MR && nr == TICK_NR)
							tick_mk(kc, pa + is * kc, pb + js * kc, ct, N, pc == 0);
						else
							tick_mk_edge(kc, pa + is * kc, pb + js * kc, ct, N, mr, nr, pc == 0);
					}
			}
		}
	}
}
`

// gemmC renders k (matched by ir.MatchGemm as g) as the packed GEMM.
func (r *cRender) gemmC(sb *strings.Builder, symbol string, g *ir.Gemm) {
	fmt.Fprintf(sb, "#if TICK_VB >= 64\n#define TICK_GEMM_KC %d\n#else\n#define TICK_GEMM_KC %d\n#endif\n", cGemmKC512, cGemmKC)
	fmt.Fprintf(sb, "#define TICK_GEMM_MC %d\n#define TICK_GEMM_NC %d\n", cGemmMC, cGemmNC)
	if r.opt.FMA { // the micro-kernel may fuse a*b + c (where the target has FMA)
		sb.WriteString("#define TICK_MK_ATTR __attribute__((optimize(\"fp-contract=fast\")))\n")
	} else { // TICK_FMA=0: separate multiply and add, bit-identical to the reference
		sb.WriteString("#define TICK_MK_ATTR\n")
	}
	sb.WriteString(cGemmPrelude)
	plane := g.M * g.N
	fmt.Fprintf(sb, "void %s(void **bufs, int64_t start, int64_t end) {\n", symbol)
	fmt.Fprintf(sb, "\tfloat *restrict c = bufs[0];\n\tconst float *restrict A = bufs[%d];\n\tconst float *restrict B = bufs[%d];\n", g.BufA, g.BufB)
	fmt.Fprintf(sb, "\tconst int64_t M = %d, N = %d, K = %d, plane = %d;\n", g.M, g.N, g.K, plane)
	fmt.Fprintf(sb, "\tfloat *pa = 0, *pb = 0;\n")
	fmt.Fprintf(sb, "\tfor (int64_t o = start; o < end;) {\n")
	fmt.Fprintf(sb, "\t\tconst int64_t bi = o / plane, pe = (bi + 1) * plane < end ? (bi + 1) * plane : end;\n")
	// Batch offsets of A and B.
	fmt.Fprintf(sb, "\t\tint64_t oa = %d, ob = %d, rem = bi;\n", g.OffA, g.OffB)
	for d := len(g.Batch) - 1; d >= 0; d-- {
		fmt.Fprintf(sb, "\t\t{ const int64_t x = rem %% %d; rem /= %d; oa += x * %d; ob += x * %d; }\n", g.Batch[d], g.Batch[d], g.BsA[d], g.BsB[d])
	}
	sb.WriteString("\t\tconst float *a = A + oa, *b = B + ob;\n\t\tfloat *cp = c + bi * plane;\n")
	sb.WriteString("\t\tconst int64_t lo = o - bi * plane, hi = pe - bi * plane;\n")
	sb.WriteString("\t\tconst int64_t fr0 = (lo + N - 1) / N, fr1 = hi / N; // whole rows\n")
	// Partial rows at either end: in-order scalar dot products.
	fmt.Fprintf(sb, "\t\tfor (int64_t e = lo; e < hi; e++) {\n")
	sb.WriteString("\t\t\tif (e == fr0 * N && fr1 > fr0) { e = fr1 * N - 1; continue; }\n")
	fmt.Fprintf(sb, "\t\t\tconst int64_t i = e / N, j = e %% N;\n\t\t\tfloat s = 0;\n")
	fmt.Fprintf(sb, "\t\t\tfor (int64_t k = 0; k < K; k++) s = s + a[i * %d + k * %d] * b[j * %d + k * %d];\n", g.SAi, g.SAk, g.SBj, g.SBk)
	sb.WriteString("\t\t\tcp[e] = s;\n\t\t}\n")
	sb.WriteString("\t\tif (fr1 > fr0) {\n")
	sb.WriteString("\t\t\tif (!pa) {\n")
	// Packing buffers sized by the product (a small matmul allocates little).
	fmt.Fprintf(sb, "\t\t\t\tconst int64_t kc = K < TICK_GEMM_KC ? K : TICK_GEMM_KC, mc = M < TICK_GEMM_MC ? M : TICK_GEMM_MC, nc = N < TICK_GEMM_NC ? N : TICK_GEMM_NC;\n")
	sb.WriteString("\t\t\t\tpa = malloc(sizeof(float) * (mc + TICK_MR) * kc);\n")
	sb.WriteString("\t\t\t\tpb = malloc(sizeof(float) * (nc + TICK_NR) * kc);\n")
	sb.WriteString("\t\t\t}\n")
	fmt.Fprintf(sb, "\t\t\ttick_gemm_rows(cp, a, b, fr0, fr1, N, K, %d, %d, %d, %d, pa, pb);\n", g.SAi, g.SAk, g.SBj, g.SBk)
	sb.WriteString("\t\t}\n\t\to = pe;\n\t}\n\tfree(pa);\n\tfree(pb);\n}\n")
}
