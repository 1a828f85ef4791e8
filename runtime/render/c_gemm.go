package render

// The CPU device's matrix multiply. A float32 contraction kernel (ir.MatchGemm:
// the reduce-sum of A[..., M, 1, K] * B[..., 1, N, K] that Matmul builds)
// is rendered as a register-blocked GEMM instead of the generic reduce. A
// micro-kernel keeps a tile of C of mr rows × nv vectors (mr up to TICK_MR,
// nv up to 2: 12×32 floats on AVX-512, 6×16 on AVX2) in vector registers
// over a run of k, broadcasting A one element at a time and loading rows
// of B as vectors. It is specialized (always inlined with constant sizes)
// for mr ∈ {TICK_MR, 4, 1} and nv ∈ {2, 1}; other row counts are made of
// those, so edge rows never go through a buffer.
//
// Two layouts feed it:
//
//   - direct: when B's rows are contiguous (B[k, j..j+NR] adjacent, as a
//     row-major right operand is) and B is small (gemmDirectMax floats: it
//     stays in L1/L2 while every block of rows of A passes over it), A and
//     B are read in place: no packing, no allocation. Small matrices, tall
//     and skinny ones (the training step's x·w with few columns) and the
//     products of a batch of small ones run this way;
//   - packed: B is packed per (K block, N block) into k-major strips of
//     TICK_NR columns, A per (M block, K block) into k-major strips of
//     TICK_MR rows, so both are read contiguously from cache whatever their
//     layout (a transposed operand of the backward pass included); columns
//     past the last full strip go through a tile on the stack. An A whose
//     rows are contiguous along k is packed through in-register transposes
//     (tick_vf_tr), and the next tile's rows of C are prefetched while a
//     tile computes.
//
// Each output sums its products in k order, starting from zero (the
// previous K block's value is reloaded from C), in every layout and edge,
// so every path gives the same bits. Where the target has fused
// multiply-adds (native.VectorISA.FMA: __FMA__, every AVX-512 target,
// __ARM_FEATURE_FMA) every function of the GEMM contracts each a*b + c into
// one: no BLAS library gives bit-identical non-FMA results, and Intel CPUs
// issue two FMAs but only two multiplies or adds per cycle, so the separate
// operations run at half the machine's peak. Results are then the in-order
// chain of fused multiply-adds, within the usual dot-product bound of the
// reference (|c - ref| <= 2·K·u·Σ|a||b|, u = 2^-24). With C.FMA false (the
// CPU backend's TICK_FMA=0) products and sums are rounded separately:
// bit-identical to the scalar reduce and to irtest.Eval. Elementwise kernels
// never contract (-ffp-contract=off).

import (
	"fmt"
	"strings"

	"github.com/tick-kernel/tick/runtime/ir"
)

// Block sizes: a kc×TICK_NR strip of B stays in L1 (24 KB on AVX2), an
// mc×kc block of A in L2, a kc×nc panel of B in L2/L3. cGemmKC is for
// 32-byte vectors or narrower; AVX-512's strips are twice as wide, and its
// K blocks are longer (the prelude picks): its 64 KB strip of B streams
// from L2 (2 MB per core on the Xeons measured), and C, read and written
// once per K block, is read half as often as with 256. With the next
// tile's C prefetched and A packed through transposes (tick_gemm_rows),
// one thread on an AVX-512 Xeon went from 256 to 512 at 0.89–0.92× the
// time at 1024³ and 0.71–0.83× at 2048³ (docs/benchmarks.md, "C kernels,
// 2026-12-03"; issue 30).
const (
	cGemmKC    = 384
	cGemmKC512 = 512
	cGemmMC    = 144 // a multiple of both TICK_MR values (6 and 12)
	cGemmNC    = 1024
	// gemmDirectMax is the size of B (K·N floats) up to which a B with
	// contiguous rows is read in place (256 KB: within a 1–2 MB L2 with
	// room for A's rows and C). Up to 256×256 reading B in place beats
	// packing it: the 256³ kernel alone took 280 µs of CPU time per call
	// direct against 345 µs packed (one thread, AVX-512, medians of 31
	// batches; issue 30), and a split across threads no longer packs B
	// once per thread; at 512×512 packing wins (2.85–2.96 ms against
	// 3.0–3.2 ms direct).
	gemmDirectMax = 64 << 10
)

const cGemmPrelude = `#if TICK_VB >= 64
#define TICK_MR 12
#else
#define TICK_MR 6
#endif
#define TICK_VL (TICK_VB / 4)
#define TICK_NR (2 * TICK_VL)
// TICK_FMADD(a, b, s) is s + a*b as the micro-kernel computes it: fused
// where the GEMM contracts and the target has FMA (spelled out: gcc
// vectorizes a scalar dot product's products apart from its in-order sum,
// and then does not contract them), else rounded twice.
#if TICK_GEMM_FMA && (defined(__FMA__) || defined(__AVX512F__) || defined(__ARM_FEATURE_FMA))
#define TICK_FMADD(a, b, s) __builtin_fmaf((a), (b), (s))
#else
#define TICK_FMADD(a, b, s) ((s) + (a) * (b))
#endif
// tick_mk: C[mr × nv·TICK_VL] (+)= A·B over kc. Row r of A at step p is
// a[r*sar + p*sap]; vector v of B at step p is b + p*sbp + v*TICK_VL; C row
// r at c + r*ldc. first: C starts from zero. The tile of C stays in
// registers; each output adds its products in k order. Called with
// constant mr and nv, it is specialized for them.
TICK_MK_ATTR static inline __attribute__((always_inline)) void tick_mk(const int mr, const int nv, int64_t kc,
		const float *restrict a, int64_t sar, int64_t sap, const float *restrict b, int64_t sbp,
		float *restrict c, int64_t ldc, int first) {
	tick_vf acc[TICK_MR][2];
#pragma GCC unroll 12
	for (int r = 0; r < mr; r++)
#pragma GCC unroll 2
		for (int v = 0; v < nv; v++) acc[r][v] = first ? (tick_vf){} : tick_vf_ld(c + r * ldc + v * TICK_VL);
#pragma GCC unroll 2
	for (int64_t p = 0; p < kc; p++) {
		tick_vf bv[2];
#pragma GCC unroll 2
		for (int v = 0; v < nv; v++) bv[v] = tick_vf_ld(b + p * sbp + v * TICK_VL);
#pragma GCC unroll 12
		for (int r = 0; r < mr; r++) {
			const tick_vf av = TICK_VBCAST(tick_vf, a[r * sar + p * sap]);
#pragma GCC unroll 2
			for (int v = 0; v < nv; v++) acc[r][v] = acc[r][v] + av * bv[v];
		}
	}
#pragma GCC unroll 12
	for (int r = 0; r < mr; r++)
#pragma GCC unroll 2
		for (int v = 0; v < nv; v++) __builtin_memcpy(c + r * ldc + v * TICK_VL, &acc[r][v], sizeof acc[r][v]);
}
// tick_mk_rows is tick_mk for any mr up to TICK_MR: blocks of TICK_MR, 4
// and 1 rows.
#define TICK_MK_ROWS(NV) \
TICK_MK_ATTR static void tick_mk_rows##NV(int mr, int64_t kc, const float *restrict a, int64_t sar, int64_t sap, \
		const float *restrict b, int64_t sbp, float *restrict c, int64_t ldc, int first) { \
	int r = 0; \
	for (; r + TICK_MR <= mr; r += TICK_MR) tick_mk(TICK_MR, NV, kc, a + r * sar, sar, sap, b, sbp, c + r * ldc, ldc, first); \
	for (; r + 4 <= mr; r += 4) tick_mk(4, NV, kc, a + r * sar, sar, sap, b, sbp, c + r * ldc, ldc, first); \
	for (; r < mr; r++) tick_mk(1, NV, kc, a + r * sar, sar, sap, b, sbp, c + r * ldc, ldc, first); \
}
TICK_MK_ROWS(1)
TICK_MK_ROWS(2)
// tick_mk_edge computes mr rows × nr (< TICK_NR) columns through a full
// tile on the stack (b must be readable for TICK_NR columns: a packed,
// zero-padded strip).
TICK_MK_ATTR static void tick_mk_edge(int mr, int nr, int64_t kc, const float *restrict a, int64_t sar, int64_t sap,
		const float *restrict b, int64_t sbp, float *restrict c, int64_t ldc, int first) {
	float t[TICK_MR * TICK_NR] __attribute__((aligned(64)));
	if (!first)
		for (int r = 0; r < mr; r++)
			for (int j = 0; j < nr; j++) t[r * TICK_NR + j] = c[r * ldc + j];
	tick_mk_rows2(mr, kc, a, sar, sap, b, sbp, t, TICK_NR, first);
	for (int r = 0; r < mr; r++)
		for (int j = 0; j < nr; j++) c[r * ldc + j] = t[r * TICK_NR + j];
}
// tick_gemm_direct computes rows [r0, r1) of one M×N product reading A and
// B in place: A row i, column k at a[i*sai + k*sak]; B row k at b + k*sbk,
// contiguous along j. Columns past the last whole vector are in-order dot
// products.
TICK_MK_ATTR static void tick_gemm_direct(float *restrict c, const float *restrict a, const float *restrict b,
		int64_t r0, int64_t r1, int64_t N, int64_t K, int64_t sai, int64_t sak, int64_t sbk) {
	for (int64_t i = r0; i < r1; i += TICK_MR) {
		const int mr = r1 - i < TICK_MR ? (int)(r1 - i) : TICK_MR;
		const float *ai = a + i * sai;
		float *ci = c + i * N;
		int64_t j = 0;
		for (; j + TICK_NR <= N; j += TICK_NR) tick_mk_rows2(mr, K, ai, sai, sak, b + j, sbk, ci + j, N, 1);
		if (j + TICK_VL <= N) {
			tick_mk_rows1(mr, K, ai, sai, sak, b + j, sbk, ci + j, N, 1);
			j += TICK_VL;
		}
		for (; j < N; j++)
			for (int r = 0; r < mr; r++) {
				float s = 0;
				for (int64_t k = 0; k < K; k++) s = TICK_FMADD(ai[r * sai + k * sak], b[k * sbk + j], s);
				ci[r * N + j] = s;
			}
	}
}
// tick_gemm_rows computes rows [r0, r1) of one M×N product by packing: A
// row i, column k at a[i*sai + k*sak]; B (as the kernel reads it) row j,
// column k at b[j*sbj + k*sbk]; C row-major with N columns. pa, pb:
// packing buffers.
TICK_MK_ATTR static void tick_gemm_rows(float *restrict c, const float *restrict a, const float *restrict b,
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
					const int mr = mc - is < TICK_MR ? (int)(mc - is) : TICK_MR;
					int64_t p = 0;
					if (TICK_MR <= TICK_VL && sak == 1 && mr == TICK_MR) // rows contiguous along k: transposed in registers
						for (; p + TICK_VL <= kc; p += TICK_VL) {
							tick_vf t[TICK_VL];
							for (int r = 0; r < TICK_VL; r++) t[r] = tick_vf_ld(src + (r < TICK_MR ? r : 0) * sai + p);
							tick_vf_tr(t);
							for (int q = 0; q < TICK_VL; q++) __builtin_memcpy(s + (p + q) * TICK_MR, &t[q], TICK_MR * sizeof(float));
						}
					for (; p < kc; p++)
						for (int r = 0; r < mr; r++) s[p * TICK_MR + r] = src[r * sai + p * sak];
				}
				for (int64_t js = 0; js < nc; js += TICK_NR)
					for (int64_t is = 0; is < mc; is += TICK_MR) {
						const int mr = mc - is < TICK_MR ? (int)(mc - is) : TICK_MR;
						const int nr = nc - js < TICK_NR ? (int)(nc - js) : TICK_NR;
						float *ct = c + (ic + is) * N + jc + js;
						const float *ap = pa + is * kc, *bp = pb + js * kc;
						// The next tile's rows of C (below, or the next strip's
						// first) are fetched while this one computes: a tile's
						// loads (and stores) otherwise wait on memory (C is
						// read and written once per K block). A prefetch past
						// the matrix does not fault.
						const float *cn = is + TICK_MR < mc ? ct + TICK_MR * N : c + ic * N + jc + js + TICK_NR;
						for (int r = 0; r < TICK_MR; r++) {
							__builtin_prefetch(cn + r * N, 1, 3);
							__builtin_prefetch(cn + r * N + TICK_VL, 1, 3);
						}
						if (nr == TICK_NR)
							tick_mk_rows2(mr, kc, ap, 1, TICK_MR, bp, TICK_NR, ct, N, pc == 0);
						else if (nr == TICK_VL)
							tick_mk_rows1(mr, kc, ap, 1, TICK_MR, bp, TICK_NR, ct, N, pc == 0);
						else
							tick_mk_edge(mr, nr, kc, ap, 1, TICK_MR, bp, TICK_NR, ct, N, pc == 0);
					}
			}
		}
	}
}
`

// gemmC renders k (matched by ir.MatchGemm as g) as the GEMM.
func (r *cRender) gemmC(sb *strings.Builder, symbol string, g *ir.Gemm) {
	fmt.Fprintf(sb, "#if TICK_VB >= 64\n#define TICK_GEMM_KC %d\n#else\n#define TICK_GEMM_KC %d\n#endif\n", cGemmKC512, cGemmKC)
	fmt.Fprintf(sb, "#define TICK_GEMM_MC %d\n#define TICK_GEMM_NC %d\n", cGemmMC, cGemmNC)
	if r.opt.FMA { // every function of the GEMM may fuse a*b + c (where the target has FMA)
		sb.WriteString("#define TICK_GEMM_FMA 1\n#define TICK_MK_ATTR __attribute__((optimize(\"fp-contract=fast\")))\n")
	} else { // TICK_FMA=0: separate multiply and add, bit-identical to the reference
		sb.WriteString("#define TICK_GEMM_FMA 0\n#define TICK_MK_ATTR\n")
	}
	sb.WriteString(cGemmPrelude)
	plane := g.M * g.N
	direct := g.SBj == 1 && g.K*g.N <= gemmDirectMax
	fmt.Fprintf(sb, "TICK_MK_ATTR void %s(void **bufs, int64_t start, int64_t end) {\n", symbol)
	fmt.Fprintf(sb, "\tfloat *restrict c = bufs[0];\n\tconst float *restrict A = bufs[%d];\n\tconst float *restrict B = bufs[%d];\n", g.BufA, g.BufB)
	fmt.Fprintf(sb, "\tconst int64_t M = %d, N = %d, K = %d, plane = %d;\n", g.M, g.N, g.K, plane)
	if !direct {
		fmt.Fprintf(sb, "\tfloat *pa = 0, *pb = 0;\n")
	}
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
	// Partial rows at either end: in-order dot products.
	fmt.Fprintf(sb, "\t\tfor (int64_t e = lo; e < hi; e++) {\n")
	sb.WriteString("\t\t\tif (e == fr0 * N && fr1 > fr0) { e = fr1 * N - 1; continue; }\n")
	fmt.Fprintf(sb, "\t\t\tconst int64_t i = e / N, j = e %% N;\n\t\t\tfloat s = 0;\n")
	fmt.Fprintf(sb, "\t\t\tfor (int64_t k = 0; k < K; k++) s = TICK_FMADD(a[i * %d + k * %d], b[j * %d + k * %d], s);\n", g.SAi, g.SAk, g.SBj, g.SBk)
	sb.WriteString("\t\t\tcp[e] = s;\n\t\t}\n")
	sb.WriteString("\t\tif (fr1 > fr0) {\n")
	if direct {
		fmt.Fprintf(sb, "\t\t\ttick_gemm_direct(cp, a, b, fr0, fr1, N, K, %d, %d, %d);\n", g.SAi, g.SAk, g.SBk)
		sb.WriteString("\t\t}\n\t\to = pe;\n\t}\n\t(void)M;\n}\n")
		return
	}
	sb.WriteString("\t\t\tif (!pa) {\n")
	// Packing buffers sized by the product (a small matmul allocates little).
	fmt.Fprintf(sb, "\t\t\t\tconst int64_t kc = K < TICK_GEMM_KC ? K : TICK_GEMM_KC, mc = M < TICK_GEMM_MC ? M : TICK_GEMM_MC, nc = N < TICK_GEMM_NC ? N : TICK_GEMM_NC;\n")
	sb.WriteString("\t\t\t\tpa = malloc(sizeof(float) * (mc + TICK_MR) * kc);\n")
	sb.WriteString("\t\t\t\tpb = malloc(sizeof(float) * (nc + TICK_NR) * kc);\n")
	sb.WriteString("\t\t\t}\n")
	fmt.Fprintf(sb, "\t\t\ttick_gemm_rows(cp, a, b, fr0, fr1, N, K, %d, %d, %d, %d, pa, pb);\n", g.SAi, g.SAk, g.SBj, g.SBk)
	sb.WriteString("\t\t}\n\t\to = pe;\n\t}\n\tfree(pa);\n\tfree(pb);\n}\n")
}
