package render

// This file renders a Kernel as C for the CPU backend (runtime/backend/cpu). The C
// follows the kernel IR exactly: the scheduler's fusion is one loop nest,
// every Load uses its View's strides, offset and mask, and a reduce folds in
// the IR's axis order. Loops are kept simple so the C compiler vectorizes
// them: the innermost loop walks one axis with constant strides, and a reduce
// keeps a tile of accumulators along the last kept axis (so matmul's inner
// loop is a vector multiply-add over a row of B, summing each output in the
// same k order as a scalar loop would).

import (
	"fmt"
	"github.com/tick-kernel/tick/runtime/ir"
	"strconv"
	"strings"
)

// Tile is the number of accumulators a reduce kernel keeps per row segment
// (the CPU device's device.LaneFolder width).
const Tile = 64

// Symbol is the C function name of k: its name reduced to C identifier characters.
func Symbol(k *ir.Kernel) string {
	var sb strings.Builder
	sb.WriteString("tick_")
	for _, r := range k.Name {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('_')
		}
	}
	return sb.String()
}

// cLang is C's spelling of the scalar operations.
var cLang = Lang{Types: [...]string{ir.Float32: "float", ir.Float64: "double", ir.Int32: "int32_t", ir.Bool: "uint8_t"}, SuffixF: true,
	IntMin: "INT32_MIN", IntMax: "INT32_MAX", ExpF: "tick_expf"}

var cTypes = cLang.Types

var cPrelude = `#include <stdint.h>
#include <stdlib.h>
#include <math.h>
` + cLang.ScalarHelpers() + cVectorPrelude

const cVectorPrelude = `// TICK_VB is the vector width in bytes, chosen from the compiler's target:
// the widest registers it may use (see native.VectorISA, which reports the
// same choice for provenance).
#if defined(__AVX512F__)
#define TICK_VB 64
#elif defined(__AVX__)
#define TICK_VB 32
#elif defined(__SSE2__) || defined(__ARM_NEON) || defined(__ALTIVEC__) || defined(__riscv_vector)
#define TICK_VB 16
#else
#define TICK_VB 8
#endif
typedef float tick_vf __attribute__((vector_size(TICK_VB)));
typedef double tick_vd __attribute__((vector_size(TICK_VB)));
typedef int32_t tick_vfi __attribute__((vector_size(TICK_VB)));
typedef int64_t tick_vdi __attribute__((vector_size(TICK_VB)));
static inline tick_vf tick_vf_ld(const float *p) { tick_vf v; __builtin_memcpy(&v, p, sizeof v); return v; }
static inline tick_vd tick_vd_ld(const double *p) { tick_vd v; __builtin_memcpy(&v, p, sizeof v); return v; }
// TICK_VBCAST(V, x) is x in every lane: -0 + x is x exactly, signed zeros
// included (0 + x would turn -0 into +0).
#define TICK_VBCAST(V, x) (-(V){} + (x))
// Branch-free vector selects with the scalar helpers' IEEE results: m picks a.
#define TICK_VSEL(V, I, m, a, b) ((V)(((I)(m) & (I)(a)) | (~(I)(m) & (I)(b))))
static inline tick_vf tick_vf_max(tick_vf a, tick_vf b) { return TICK_VSEL(tick_vf, tick_vfi, (a > b) | (a != a), a, b); }
static inline tick_vf tick_vf_min(tick_vf a, tick_vf b) { return TICK_VSEL(tick_vf, tick_vfi, (a < b) | (a != a), a, b); }
static inline tick_vd tick_vd_max(tick_vd a, tick_vd b) { return TICK_VSEL(tick_vd, tick_vdi, (a > b) | (a != a), a, b); }
static inline tick_vd tick_vd_min(tick_vd a, tick_vd b) { return TICK_VSEL(tick_vd, tick_vdi, (a < b) | (a != a), a, b); }
static inline tick_vf tick_vf_relu(tick_vf a) { return TICK_VSEL(tick_vf, tick_vfi, a > 0, a, (tick_vf){}); }
static inline tick_vd tick_vd_relu(tick_vd a) { return TICK_VSEL(tick_vd, tick_vdi, a > 0, a, (tick_vd){}); }
`

// cStreamPrelude defines the non-temporal copy some reduce kernels use. It
// is included only by kernels that call it: parsing immintrin.h with
// -march=native is about half of a small kernel's compile time.
const cStreamPrelude = `#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#endif
// tick_stream copies n bytes to dst with non-temporal stores (plain memcpy
// where the target has none); tick_stream_fence orders them.
static inline void tick_stream(void *dst, const void *src, size_t n) {
	char *d = dst;
	const char *s = src;
#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
	size_t head = (64 - ((uintptr_t)d & 63)) & 63;
	if (head > n) head = n;
	__builtin_memcpy(d, s, head);
	d += head; s += head; n -= head;
	for (; n >= 64; n -= 64, d += 64, s += 64) {
#if defined(__AVX512F__)
		_mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
#elif defined(__AVX__)
		_mm256_stream_si256((__m256i *)d, _mm256_loadu_si256((const __m256i *)s));
		_mm256_stream_si256((__m256i *)(d + 32), _mm256_loadu_si256((const __m256i *)(s + 32)));
#else
		for (int q = 0; q < 64; q += 16) _mm_stream_si128((__m128i *)(d + q), _mm_loadu_si128((const __m128i *)(s + q)));
#endif
	}
#endif
	__builtin_memcpy(d, s, n);
}
// tick_stream_lines is tick_stream for a dst aligned to 64 bytes, a src
// aligned to the vector width and n a multiple of 64.
static inline void tick_stream_lines(void *dst, const void *src, size_t n) {
#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
	char *d = dst;
	const char *s = src;
	for (size_t q = 0; q < n; q += 64) {
#if defined(__AVX512F__)
		_mm512_stream_si512((void *)(d + q), _mm512_load_si512((const void *)(s + q)));
#elif defined(__AVX__)
		_mm256_stream_si256((__m256i *)(d + q), _mm256_load_si256((const __m256i *)(s + q)));
		_mm256_stream_si256((__m256i *)(d + q + 32), _mm256_load_si256((const __m256i *)(s + q + 32)));
#else
		for (int k = 0; k < 64; k += 16) _mm_stream_si128((__m128i *)(d + q + k), _mm_load_si128((const __m128i *)(s + q + k)));
#endif
	}
#else
	__builtin_memcpy(dst, src, n);
#endif
}
// tick_v{f,d}_stream stores a vector at a 64-byte aligned p with a
// non-temporal store (a plain store where the target has none).
static inline void tick_vf_stream(float *p, tick_vf v) {
#if defined(__AVX512F__)
	_mm512_stream_ps(p, (__m512)v);
#elif defined(__AVX__)
	_mm256_stream_ps(p, (__m256)v);
#elif defined(__SSE2__)
	_mm_stream_ps(p, (__m128)v);
#else
	__builtin_memcpy(p, &v, sizeof v);
#endif
}
static inline void tick_vd_stream(double *p, tick_vd v) {
#if defined(__AVX512F__)
	_mm512_stream_pd(p, (__m512d)v);
#elif defined(__AVX__)
	_mm256_stream_pd(p, (__m256d)v);
#elif defined(__SSE2__)
	_mm_stream_pd(p, (__m128d)v);
#else
	__builtin_memcpy(p, &v, sizeof v);
#endif
}
static inline void tick_stream_fence(void) {
#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
	_mm_sfence();
#endif
}
`

// cMinMaxPrelude defines tick_v{f,d}_{max,min}q where the target's vector
// max/min instructions have the scalar folds' semantics for every input but
// NaN: x86's MAXPS(a, b) is a > b ? a : b and MINPS(a, b) a < b ? a : b,
// the second operand on ties (signed zeros) and on NaN. (Arm's FMAX
// propagates NaN and orders zeros, so NEON keeps the exact select.) Included
// only by kernels that use them: parsing immintrin.h is slow.
const cMinMaxPrelude = `#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#define TICK_IEEE_MINMAX 1
#if TICK_VB == 64
#define TICK_MM(op, t) _mm512_##op##_##t
#define TICK_MT(t) __m512##t
#elif TICK_VB == 32
#define TICK_MM(op, t) _mm256_##op##_##t
#define TICK_MT(t) __m256##t
#else
#define TICK_MM(op, t) _mm_##op##_##t
#define TICK_MT(t) __m128##t
#endif
static inline tick_vf tick_vf_maxq(tick_vf a, tick_vf b) { return (tick_vf)TICK_MM(max, ps)((TICK_MT()) a, (TICK_MT()) b); }
static inline tick_vf tick_vf_minq(tick_vf a, tick_vf b) { return (tick_vf)TICK_MM(min, ps)((TICK_MT()) a, (TICK_MT()) b); }
static inline tick_vd tick_vd_maxq(tick_vd a, tick_vd b) { return (tick_vd)TICK_MM(max, pd)((TICK_MT(d)) a, (TICK_MT(d)) b); }
static inline tick_vd tick_vd_minq(tick_vd a, tick_vd b) { return (tick_vd)TICK_MM(min, pd)((TICK_MT(d)) a, (TICK_MT(d)) b); }
// tick_v{f,d}_unord(m, a, b) notes in m whether a lane of a or of b is NaN,
// with one unordered compare for the two (on AVX-512 into a mask register);
// tick_v{f,d}_unany(m) tests whether one was.
#if TICK_VB == 64
typedef __mmask16 tick_vf_un;
typedef __mmask8 tick_vd_un;
static inline tick_vf_un tick_vf_unord(tick_vf_un m, tick_vf a, tick_vf b) { return m | _mm512_cmp_ps_mask((__m512)a, (__m512)b, _CMP_UNORD_Q); }
static inline tick_vd_un tick_vd_unord(tick_vd_un m, tick_vd a, tick_vd b) { return m | _mm512_cmp_pd_mask((__m512d)a, (__m512d)b, _CMP_UNORD_Q); }
static inline int tick_vf_unany(tick_vf_un m) { return m != 0; }
static inline int tick_vd_unany(tick_vd_un m) { return m != 0; }
#elif TICK_VB == 32
typedef __m256 tick_vf_un;
typedef __m256d tick_vd_un;
static inline tick_vf_un tick_vf_unord(tick_vf_un m, tick_vf a, tick_vf b) { return _mm256_or_ps(m, _mm256_cmp_ps((__m256)a, (__m256)b, _CMP_UNORD_Q)); }
static inline tick_vd_un tick_vd_unord(tick_vd_un m, tick_vd a, tick_vd b) { return _mm256_or_pd(m, _mm256_cmp_pd((__m256d)a, (__m256d)b, _CMP_UNORD_Q)); }
static inline int tick_vf_unany(tick_vf_un m) { return _mm256_movemask_ps(m) != 0; }
static inline int tick_vd_unany(tick_vd_un m) { return _mm256_movemask_pd(m) != 0; }
#else
typedef __m128 tick_vf_un;
typedef __m128d tick_vd_un;
static inline tick_vf_un tick_vf_unord(tick_vf_un m, tick_vf a, tick_vf b) { return _mm_or_ps(m, _mm_cmpunord_ps((__m128)a, (__m128)b)); }
static inline tick_vd_un tick_vd_unord(tick_vd_un m, tick_vd a, tick_vd b) { return _mm_or_pd(m, _mm_cmpunord_pd((__m128d)a, (__m128d)b)); }
static inline int tick_vf_unany(tick_vf_un m) { return _mm_movemask_ps(m) != 0; }
static inline int tick_vd_unany(tick_vd_un m) { return _mm_movemask_pd(m) != 0; }
#endif
#endif
`

// loadInfo is one Load's addressing after axis collapsing.
type loadInfo struct {
	n       *ir.Node
	strides []int
	mask    [][2]int // nil: no mask
	panel   string   // name of the packed panel (reduce kernels), "" if not packed
}

// C renders kernels as C for the CPU backend: one function per kernel,
//
//	void SYMBOL(void **bufs, int64_t start, int64_t end);
//
// computing output elements [start, end) (package native calls it).
type C struct {
	// FMA lets the GEMM micro-kernel contract multiply-adds into fused
	// multiply-adds where the target has them (see c_gemm.go).
	FMA bool
	// NoGemm renders contractions as the generic reduce (benchmarks
	// compare the two in one run).
	NoGemm bool
}

// Render returns the C translation unit for k defining symbol.
func (c C) Render(k *ir.Kernel, symbol string) string {
	r := &cRender{k: k, temps: map[*ir.Node]string{}, opt: c, lang: &cLang, idx: "int64_t"}
	var sb strings.Builder
	if g := ir.MatchGemm(k); g != nil && g.K > 0 && g.M*g.N > 0 && !c.NoGemm {
		r.gemmC(&sb, symbol, g)
	} else if k.Reduce != ir.ReduceNone {
		r.reduce(&sb, symbol)
	} else {
		fmt.Fprintf(&sb, "void %s(void **bufs, int64_t start, int64_t end) {\n", symbol)
		r.bufDecls(&sb)
		r.elementwise(&sb)
		sb.WriteString("}\n")
	}
	body := sb.String()
	var out strings.Builder
	out.Grow(len(cPrelude) + len(cStreamPrelude) + len(cMinMaxPrelude) + len(body) + 256)
	out.WriteString("// " + strings.ReplaceAll(k.Key(), "\n", "\n// ") + "\n")
	out.WriteString(cPrelude)
	if strings.Contains(body, "tick_stream") {
		out.WriteString(cStreamPrelude)
	}
	if strings.Contains(body, "TICK_IEEE_MINMAX") {
		out.WriteString(cMinMaxPrelude)
	}
	if strings.Contains(body, "tick_expf") || strings.Contains(body, "tick_vf_exp") {
		out.WriteString(cExpPrelude)
	}
	if strings.Contains(body, "_tr(") {
		out.WriteString(transposePrelude())
	}
	if strings.Contains(body, "i_hor(") {
		out.WriteString(hfoldPrelude())
	}
	out.WriteString(body)
	return out.String()
}

// bufDecls declares the typed buffer pointers b0 (output), b1, ... from bufs.
func (r *cRender) bufDecls(sb *strings.Builder) {
	for i, b := range r.k.Bufs {
		cons := "const "
		if i == 0 {
			cons = ""
		}
		fmt.Fprintf(sb, "\t%s%s *restrict b%d = (%s%s *)bufs[%d];\n", cons, cTypes[b.DType], i, cons, cTypes[b.DType], i)
	}
}

// bufParams returns the parameter list and argument list passing the typed
// buffer pointers to a helper function.
func (r *cRender) bufParams() (params, args string) {
	var ps, as []string
	for i, b := range r.k.Bufs {
		cons := "const "
		if i == 0 {
			cons = ""
		}
		ps = append(ps, fmt.Sprintf("%s%s *restrict b%d", cons, cTypes[b.DType], i))
		as = append(as, fmt.Sprintf("b%d", i))
	}
	return strings.Join(ps, ", "), strings.Join(as, ", ")
}

type cRender struct {
	k     *ir.Kernel
	opt   C
	lang  *Lang  // the dialect's scalar spelling (cLang, clLang)
	idx   string // the index type ("int64_t"; OpenCL: "int" or "long")
	shape []int
	loads map[*ir.Node]*loadInfo
	list  []*loadInfo // loads in first-appearance order
	vec   string      // vector type of the expression being emitted, "" for scalar
	band  int         // >0: a reduce folds its one reduced axis in bands of this many steps (rowBand)
	temps map[*ir.Node]string
	body  strings.Builder
}

// collectLoads gathers each Load's strides and mask over shape.
func (r *cRender) collectLoads() []*loadInfo {
	r.loads = map[*ir.Node]*loadInfo{}
	var out []*loadInfo
	ir.Walk(r.k.Expr, func(n *ir.Node) {
		if n.Op != ir.OpLoad || r.loads[n] != nil {
			return
		}
		li := &loadInfo{n: n, strides: append([]int(nil), n.View.Strides...)}
		if n.View.Mask != nil {
			li.mask = append([][2]int(nil), n.View.Mask...)
		}
		r.loads[n] = li
		out = append(out, li)
	})
	r.list = out
	return out
}

// fullMask reports whether li's mask on axis d admits every index.
func (li *loadInfo) fullMask(d, size int) bool {
	return li.mask == nil || (li.mask[d][0] <= 0 && li.mask[d][1] >= size)
}

// collapse merges adjacent axes that every load walks contiguously, so a
// contiguous elementwise kernel becomes one flat loop.
func collapse(shape []int, loads []*loadInfo) []int {
	shape = append([]int(nil), shape...)
	for d := len(shape) - 2; d >= 0; d-- {
		ok := true
		for _, li := range loads {
			if !li.fullMask(d, shape[d]) || !li.fullMask(d+1, shape[d+1]) || li.strides[d] != li.strides[d+1]*shape[d+1] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		shape[d] *= shape[d+1]
		shape = append(shape[:d+1], shape[d+2:]...)
		for _, li := range loads {
			li.strides[d] = li.strides[d+1]
			li.strides = append(li.strides[:d+1], li.strides[d+2:]...)
			if li.mask != nil {
				li.mask[d] = [2]int{0, shape[d]}
				li.mask = append(li.mask[:d+1], li.mask[d+2:]...)
			}
		}
	}
	return shape
}

// outerIndex emits the decomposition of row into idx variables i<d> for the
// given axes (innermost last), dividing by the sizes in shape.
func (r *cRender) outerIndex(sb *strings.Builder, row string, axes []int, shape []int) {
	if len(axes) == 0 {
		return
	}
	fmt.Fprintf(sb, "\t\t%s rem = %s;\n", r.idx, row)
	for i := len(axes) - 1; i >= 0; i-- {
		d := axes[i]
		if i == 0 {
			fmt.Fprintf(sb, "\t\t%s i%d = rem;\n", r.idx, d)
		} else {
			fmt.Fprintf(sb, "\t\t%s i%d = rem %% %d; rem /= %d;\n", r.idx, d, shape[d], shape[d])
		}
	}
}

// bases emits per-load base offsets and validity over the fixed axes, then
// records the expression used in the inner loop.
//
// In vector mode (r.vec set) every load's stride along inner is 0 or 1 and
// unmasked: stride 1 loads a vector at the element address, stride 0
// broadcasts the scalar.
func (r *cRender) bases(sb *strings.Builder, fixed []int, inner int, innerVar string) {
	for i, li := range r.list {
		n := li.n
		base := strconv.Itoa(n.View.Offset)
		ok := "1"
		for _, d := range fixed {
			if li.strides[d] != 0 {
				base += fmt.Sprintf(" + i%d*%d", d, li.strides[d])
			}
			if li.mask != nil && !li.fullMask(d, r.shape[d]) {
				ok += fmt.Sprintf(" && i%d >= %d && i%d < %d", d, li.mask[d][0], d, li.mask[d][1])
			}
		}
		fmt.Fprintf(sb, "\t\tconst %s base%d = %s;\n", r.idx, i, base)
		addr := fmt.Sprintf("base%d", i)
		cond := ""
		if ok != "1" {
			fmt.Fprintf(sb, "\t\tconst int ok%d = %s;\n", i, ok)
			cond = fmt.Sprintf("ok%d", i)
		}
		if inner >= 0 {
			if s := li.strides[inner]; s != 0 {
				addr += fmt.Sprintf(" + %s*%d", innerVar, s)
			}
			if li.mask != nil && !li.fullMask(inner, r.shape[inner]) {
				c := fmt.Sprintf("%s >= %d && %s < %d", innerVar, li.mask[inner][0], innerVar, li.mask[inner][1])
				cond = strings.TrimPrefix(cond+" && "+c, " && ")
			}
		}
		if r.vec != "" {
			val := fmt.Sprintf("TICK_VBCAST(%s, b%d[base%d])", r.vec, n.Buf, i)
			if li.strides[inner] == 1 {
				val = fmt.Sprintf("%s_ld(&b%d[%s])", r.vec, n.Buf, addr)
			}
			if li.panel != "" {
				val = fmt.Sprintf("(%s ? %s_ld(&%s[rr * %d + (j - j0)]) : %s)", li.panel, r.vec, li.panel, Tile, val)
			}
			if cond != "" {
				val = fmt.Sprintf("((%s) ? %s : (%s){})", cond, val, r.vec)
			}
			r.temps[n] = val
			continue
		}
		val := fmt.Sprintf("b%d[%s]", n.Buf, addr)
		if cond != "" {
			val = fmt.Sprintf("((%s) ? b%d[%s] : (%s)0)", cond, n.Buf, addr, r.lang.Type(n.DType))
		}
		r.temps[n] = val
	}
}

// elementwise renders out[i] = Expr over [start, end): rows of the
// innermost (collapsed) axis, with per-row bases for the outer axes.
func (r *cRender) elementwise(sb *strings.Builder) {
	loads := r.collectLoads()
	shape := r.k.Shape
	if len(shape) == 0 {
		shape = []int{1}
		for _, li := range loads {
			li.strides = []int{0}
			li.mask = nil
		}
	}
	r.shape = collapse(shape, loads)
	last := len(r.shape) - 1
	inner := r.shape[last]
	outer := make([]int, last)
	for d := range outer {
		outer[d] = d
	}
	fmt.Fprintf(sb, "\tint64_t i = start;\n\twhile (i < end) {\n")
	fmt.Fprintf(sb, "\t\tconst int64_t row = i / %d, j0 = i - row * %d;\n", inner, inner)
	fmt.Fprintf(sb, "\t\tconst int64_t j1 = (%d - j0 > end - i) ? j0 + (end - i) : %d;\n", inner, inner)
	r.outerIndex(sb, "row", outer, r.shape)
	r.bases(sb, outer, last, "j")
	fmt.Fprintf(sb, "\t\t%s *restrict o = b0 + row * %d;\n", cTypes[r.k.Bufs[0].DType], inner)
	v := r.expr(r.k.Expr)
	body := r.body.String()
	out := cTypes[r.k.Bufs[0].DType]
	if inner < cStreamMin { // rows too short to stream: one plain loop
		fmt.Fprintf(sb, "\t\tfor (int64_t j = j0; j < j1; j++) {\n%s", body)
		fmt.Fprintf(sb, "\t\t\to[j] = %s;\n\t\t}\n\t\ti += j1 - j0;\n\t}\n", r.store(v))
		return
	}
	// Long rows stream their output past the cache: a scalar head up to
	// the first 64-byte line of o, then blocks of cStreamBlock elements
	// (a constant trip count, which gcc vectorizes without epilogues)
	// computed into an aligned buffer in L1 and written with non-temporal
	// stores a line at a time, then a scalar tail. (The result of a large
	// kernel is not read back before it would be evicted anyway.)
	scalar := func(cond string) {
		fmt.Fprintf(sb, "\t\tfor (; %s; jb++) {\n\t\t\tconst int64_t j = jb;\n%s", cond, body)
		fmt.Fprintf(sb, "\t\t\to[j] = %s;\n\t\t}\n", r.store(v))
	}
	fmt.Fprintf(sb, "\t\tif (j1 - j0 >= %d) {\n\t\tint64_t jb = j0;\n", cStreamMin)
	scalar("jb < j1 && ((uintptr_t)&o[jb] & 63)")
	if vec := r.elementwiseVector(); vec != "" {
		// The expression in vector registers, each vector streamed
		// straight to o: no round trip through L1.
		r.vec, r.temps = vec, map[*ir.Node]string{}
		r.body.Reset()
		r.bases(&strings.Builder{}, outer, last, "j") // the bases are declared above
		vv := r.expr(r.k.Expr)
		lanes := fmt.Sprintf("(int64_t)(TICK_VB / %d)", r.k.Bufs[0].DType.Size())
		fmt.Fprintf(sb, "\t\tfor (; jb + %s <= j1; jb += %s) {\n\t\t\tconst int64_t j = jb;\n%s", lanes, lanes, r.body.String())
		fmt.Fprintf(sb, "\t\t\t%s_stream(&o[jb], %s);\n\t\t}\n", vec, vv)
		r.vec = ""
	}
	fmt.Fprintf(sb, "\t\tfor (; jb + %d <= j1; jb += %d) {\n", cStreamBlock, cStreamBlock)
	fmt.Fprintf(sb, "\t\t%s tmp[%d] __attribute__((aligned(64)));\n", out, cStreamBlock)
	fmt.Fprintf(sb, "\t\tfor (int64_t q = 0; q < %d; q++) {\n\t\t\tconst int64_t j = jb + q;\n%s", cStreamBlock, body)
	fmt.Fprintf(sb, "\t\t\ttmp[q] = %s;\n\t\t}\n", r.store(v))
	sb.WriteString("\t\ttick_stream_lines(&o[jb], tmp, sizeof tmp);\n\t\t}\n")
	scalar("jb < j1")
	sb.WriteString("\t\ttick_stream_fence();\n\t\t} else {\n")
	fmt.Fprintf(sb, "\t\tfor (int64_t j = j0; j < j1; j++) {\n%s", body)
	fmt.Fprintf(sb, "\t\t\to[j] = %s;\n\t\t}\n\t\t}\n\t\ti += j1 - j0;\n\t}\n", r.store(v))
}

// elementwiseVector returns the vector type ("tick_vf" or "tick_vd") an
// elementwise kernel's expression can be computed in, or "": a float
// output of the expression's own type, the ops the vector helpers have
// (+, -, *, /, negation, max, min, relu), and loads that walk the inner
// axis contiguously or broadcast along it, unmasked. Lane for lane the
// vector ops are the scalar ones (no contraction, the same selects), so the
// results are identical.
func (r *cRender) elementwiseVector() string {
	k := r.k
	dt := k.Expr.DType
	if k.Reduce != ir.ReduceNone || !dt.IsFloat() || k.Bufs[0].DType != dt {
		return ""
	}
	last := len(r.shape) - 1
	ok := true
	ir.Walk(k.Expr, func(n *ir.Node) {
		switch n.Op {
		case ir.OpLoad:
			li := r.loads[n]
			ok = ok && (li.strides[last] == 0 || li.strides[last] == 1) && li.fullMask(last, r.shape[last])
		default:
			ok = ok && vectorOp(n.Op, dt)
		}
		ok = ok && n.DType == dt
	})
	switch {
	case !ok:
		return ""
	case dt == ir.Float32:
		return "tick_vf"
	}
	return "tick_vd"
}

// Elementwise rows of at least cStreamMin elements are computed in blocks of
// cStreamBlock into an L1-resident buffer and written with non-temporal
// stores where the target has them. The block is a multiple of 64 bytes for
// every element size (tick_stream_lines writes whole lines). Measured on the
// relu chain at 16M (docs/benchmarks.md): blocks of a variable length
// (1024, each with gcc's vector and scalar epilogues) streamed with an
// alignment check per block reached about 60% of a plain non-temporal
// copy; constant blocks of 256 on aligned lines reach it.
const (
	cStreamMin   = 1 << 20
	cStreamBlock = 256
)

// store converts the expression value to the output buffer's type.
func (r *cRender) store(v string) string { return r.lang.Store(r.k.Bufs[0].DType, v) }

// reduce renders a fold over ReduceAxes as three C functions. tick_seg
// folds one row segment of up to Tile outputs along the last kept axis of
// size > 1 (axis L) into a tile of accumulators, innermost loop along L.
// tick_part walks a range of outputs segment by segment. The kernel runs
// partial rows at the ends of its range through tick_part and the full rows
// in blocks of cRowBlock rows, tile column by tile column, so the operands a
// tile column reads (a panel of B in a matmul) stay in cache across rows.
func (r *cRender) reduce(sb *strings.Builder, symbol string) {
	r.collectLoads()
	k := r.k
	r.shape = k.Shape
	if r.fullFold(sb, symbol) { // c_reduce.go
		return
	}
	reduced := map[int]bool{}
	for _, a := range k.ReduceAxes {
		reduced[a] = true
	}
	L := -1
	var kept []int
	for d, n := range k.Shape {
		if !reduced[d] {
			kept = append(kept, d)
			if n > 1 {
				L = d
			}
		}
	}
	var rowAxes []int // kept axes other than L: they index the row
	for _, d := range kept {
		if d != L {
			rowAxes = append(rowAxes, d)
		}
	}
	fixed := append(append([]int(nil), rowAxes...), k.ReduceAxes...)
	sl := 1
	if L >= 0 {
		sl = k.Shape[L]
	}
	vec := r.vectorType(L)
	packed := r.markPanels(vec, L, rowAxes)
	r.band = r.rowBand(vec, packed, L)
	params, args := r.bufParams()
	segParams, segArgs, nullArgs := params, args, args
	for _, li := range packed {
		segParams += fmt.Sprintf(", const %s *restrict %s", cTypes[li.n.DType], li.panel)
		segArgs += ", " + li.panel
		nullArgs += ", 0"
	}
	kr, kArgs := "", ""
	if r.band > 0 {
		K := k.Shape[k.ReduceAxes[0]]
		kr, kArgs = ", int64_t k0, int64_t k1", fmt.Sprintf(", kb, kb + %d < %d ? kb + %d : %d", r.band, K, r.band, K)
	}
	// A banded fold's segment is short (a band of rows × one tile: 2 KB of
	// a 4096-column float32 matrix) and called per band and tile column:
	// called, its accumulators go through the stack at every call and the
	// fold of 4096×4096 over axis 0 read 15–17 GB/s; inlined into its
	// callers, 20–26 GB/s (1.25–1.4× in one process, alternating; issue 30).
	inline := "inline"
	if r.band > 0 {
		inline = "inline __attribute__((always_inline))"
	}
	fmt.Fprintf(sb, "static %s void tick_seg(%s, int64_t row, int64_t j0, int64_t j1%s) {\n", inline, segParams, kr)
	fmt.Fprintf(sb, "\t\tint64_t i = row * %d + j0;\n", sl)
	r.outerIndex(sb, "row", rowAxes, k.Shape)
	if vec != "" {
		fmt.Fprintf(sb, "\t\tif (j1 - j0 == %d) {\n", Tile)
		r.reduceVector(sb, vec, fixed, L)
		sb.WriteString("\t\t\treturn;\n\t\t}\n")
	} else if tv := r.transposable(L); r.rowFoldable(tv) { // c_reduce.go
		r.reduceRows(sb, tv, rowAxes, L)
	} else if tv != "" {
		r.reduceTransposed(sb, tv, rowAxes, L)
	}
	r.reduceScalar(sb, fixed, L)
	sb.WriteString("}\n")

	fmt.Fprintf(sb, "static void tick_part(%s, int64_t start, int64_t end) {\n", params)
	r.bandLoop(sb, "\t")
	fmt.Fprintf(sb, "\tfor (int64_t i = start; i < end;) {\n")
	fmt.Fprintf(sb, "\t\tconst int64_t row = i / %d, j0 = i - row * %d;\n", sl, sl)
	fmt.Fprintf(sb, "\t\tint64_t j1 = (%d - j0 > end - i) ? j0 + (end - i) : %d;\n", sl, sl)
	fmt.Fprintf(sb, "\t\tif (j1 - j0 > %d) j1 = j0 + %d;\n", Tile, Tile)
	fmt.Fprintf(sb, "\t\ttick_seg(%s, row, j0, j1%s);\n\t\ti += j1 - j0;\n\t}\n", nullArgs, kArgs)
	if r.band > 0 {
		sb.WriteString("\t}\n")
	}
	sb.WriteString("}\n")

	fmt.Fprintf(sb, "void %s(void **bufs, int64_t start, int64_t end) {\n", symbol)
	r.bufDecls(sb)
	fmt.Fprintf(sb, "\tconst int64_t r0 = (start + %d) / %d, r1 = end / %d;\n", sl-1, sl, sl)
	fmt.Fprintf(sb, "\tif (r0 >= r1) {\n\t\ttick_part(%s, start, end);\n\t\treturn;\n\t}\n", args)
	fmt.Fprintf(sb, "\ttick_part(%s, start, r0 * %d);\n", args, sl)
	for _, li := range packed {
		fmt.Fprintf(sb, "\t%s *%s_buf = r1 - r0 > 1 ? malloc(sizeof(%s) * %d) : 0;\n", cTypes[li.n.DType], li.panel, cTypes[li.n.DType], k.ReduceSize()*Tile)
	}
	fmt.Fprintf(sb, "\tfor (int64_t rb = r0; rb < r1; rb += %d) {\n", cRowBlock)
	r.bandLoop(sb, "\t")
	fmt.Fprintf(sb, "\t\tfor (int64_t j0 = 0; j0 < %d; j0 += %d) {\n", sl, Tile)
	fmt.Fprintf(sb, "\t\t\tconst int64_t j1 = j0 + %d < %d ? j0 + %d : %d;\n", Tile, sl, Tile, sl)
	for _, li := range packed {
		r.packPanel(sb, li)
	}
	fmt.Fprintf(sb, "\t\t\tfor (int64_t row = rb; row < rb + %d && row < r1; row++) tick_seg(%s, row, j0, j1%s);\n", cRowBlock, segArgs, kArgs)
	fmt.Fprintf(sb, "\t\t}\n\t}\n")
	if r.band > 0 {
		sb.WriteString("\t}\n")
	}
	for _, li := range packed {
		fmt.Fprintf(sb, "\tfree(%s_buf);\n", li.panel)
	}
	fmt.Fprintf(sb, "\ttick_part(%s, r1 * %d, end);\n}\n", args, sl)
}

// markPanels chooses the loads a vector reduce packs: read contiguously
// along L, the same for every row (stride 0 on the row axes), unmasked. For
// each tile column the kernel copies such a load's K×Tile panel into a
// contiguous buffer, so rows at a power-of-two stride (matmul's B) do not
// evict each other from cache.
func (r *cRender) markPanels(vec string, L int, rowAxes []int) []*loadInfo {
	rows := 1
	for _, d := range rowAxes {
		rows *= r.k.Shape[d]
	}
	if vec == "" || r.k.ReduceSize()*Tile > 1<<22 || rows == 1 { // one row: nothing to share a panel with
		return nil
	}
	var out []*loadInfo
	for i, li := range r.list {
		ok := li.strides[L] == 1 && li.mask == nil
		for _, d := range rowAxes {
			ok = ok && li.strides[d] == 0
		}
		if ok {
			li.panel = fmt.Sprintf("p%d", i)
			out = append(out, li)
		}
	}
	return out
}

// packPanel emits the copy of li's panel for tile column j0 (a full tile
// only; a partial tile column passes no panel).
func (r *cRender) packPanel(sb *strings.Builder, li *loadInfo) {
	k := r.k
	sz := li.n.DType.Size()
	fmt.Fprintf(sb, "\t\t\tconst %s *%s = (%s_buf && j1 - j0 == %d) ? %s_buf : 0;\n", cTypes[li.n.DType], li.panel, li.panel, Tile, li.panel)
	fmt.Fprintf(sb, "\t\t\tif (%s) {\n\t\t\t\tint64_t rr = 0;\n", li.panel)
	base := strconv.Itoa(li.n.View.Offset)
	for _, d := range k.ReduceAxes {
		fmt.Fprintf(sb, "\t\t\t\tfor (int64_t i%d = 0; i%d < %d; i%d++)\n", d, d, k.Shape[d], d)
		if li.strides[d] != 0 {
			base += fmt.Sprintf(" + i%d*%d", d, li.strides[d])
		}
	}
	fmt.Fprintf(sb, "\t\t\t\t\t__builtin_memcpy(%s_buf + %d * rr++, &b%d[%s + j0], %d);\n\t\t\t}\n", li.panel, Tile, li.n.Buf, base, Tile*sz)
}

// rowBand returns the steps of the reduced axis a reduce folds per pass
// over its outputs, or 0 for one pass: a vector fold (vec set, no packed
// panels) over one axis outside L whose loads step at least cBandStride
// bytes along it. Such a fold (Max(0) of a matrix) walks each tile column
// down the whole reduced axis, one row of the input per step, so every step
// is a new page and no stream the prefetcher follows; in bands of about
// cBandBytes of rows each tile column reads a few rows in order and the
// band stays in cache for the next column. Each output still folds the
// reduced axis in order (a band continues from the partial the previous
// one stored), so the bits are the same.
func (r *cRender) rowBand(vec string, packed []*loadInfo, L int) int {
	k := r.k
	if vec == "" || len(packed) > 0 || len(k.ReduceAxes) != 1 || k.ReduceAxes[0] > L {
		return 0
	}
	d := k.ReduceAxes[0]
	step := 0
	for _, li := range r.list {
		step = max(step, abs(li.strides[d])*li.n.DType.Size())
	}
	band := max(8, cBandBytes/max(step, 1))
	if step < cBandStride || k.Shape[d] <= band {
		return 0
	}
	return band
}

// bandLoop opens the loop over rowBand's bands (closed by the caller).
func (r *cRender) bandLoop(sb *strings.Builder, indent string) {
	if r.band > 0 {
		fmt.Fprintf(sb, "%sfor (int64_t kb = 0; kb < %d; kb += %d) {\n", indent, r.k.Shape[r.k.ReduceAxes[0]], r.band)
	}
}

// reduceLoops opens the loops over the reduced axes (a banded one from k0
// to k1).
func (r *cRender) reduceLoops(sb *strings.Builder) {
	for _, d := range r.k.ReduceAxes {
		if r.band > 0 {
			fmt.Fprintf(sb, "\t\tfor (int64_t i%d = k0; i%d < k1; i%d++) {\n", d, d, d)
			continue
		}
		fmt.Fprintf(sb, "\t\tfor (int64_t i%d = 0; i%d < %d; i%d++) {\n", d, d, r.k.Shape[d], d)
	}
}

const (
	cBandBytes  = 64 << 10 // bytes of input rows per band
	cBandStride = 1 << 10  // bytes between reduced steps from which a fold is banded
)

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// cRowBlock is the number of full output rows a reduce kernel walks together.
const cRowBlock = 32

// reduceScalar renders the general tile: any fold, any ops, masks on L.
func (r *cRender) reduceScalar(sb *strings.Builder, fixed []int, L int) {
	k := r.k
	acc := cTypes[k.Expr.DType]
	if k.Expr.DType == ir.Bool {
		acc = "int32_t"
	}
	init := r.identity()
	if r.band > 0 { // a later band continues from the partial stored (same type: vectorType)
		init = fmt.Sprintf("k0 ? b0[i + t] : %s", init)
	}
	fmt.Fprintf(sb, "\t\t%s acc[%d];\n\t\tfor (int64_t t = 0; t < j1 - j0; t++) acc[t] = %s;\n", acc, Tile, init)
	r.reduceLoops(sb)
	r.bases(sb, fixed, L, "j")
	fmt.Fprintf(sb, "\t\tfor (int64_t j = j0; j < j1; j++) {\n")
	v := r.expr(k.Expr)
	sb.WriteString(r.body.String())
	fmt.Fprintf(sb, "\t\t\tacc[j - j0] = %s;\n\t\t}\n", r.fold("acc[j - j0]", v))
	for range k.ReduceAxes {
		sb.WriteString("\t\t}\n")
	}
	fmt.Fprintf(sb, "\t\tfor (int64_t t = 0; t < j1 - j0; t++) b0[i + t] = %s;\n", r.store("acc[t]"))
}

// vectorType returns the vector type a full tile of this reduce can use
// ("tick_vf" or "tick_vd"), or "" when the scalar loop must be used: a sum,
// max or min of +,-,*,/, negation, max, min and relu over float loads that
// walk axis L contiguously or broadcast along it, unmasked.
func (r *cRender) vectorType(L int) string {
	k := r.k
	dt := k.Expr.DType
	if L < 0 || k.Reduce == ir.ReduceNone || !dt.IsFloat() || k.Bufs[0].DType != dt {
		return ""
	}
	ok := true
	ir.Walk(k.Expr, func(n *ir.Node) {
		switch n.Op {
		case ir.OpLoad:
			li := r.loads[n]
			ok = ok && (li.strides[L] == 0 || li.strides[L] == 1) && li.fullMask(L, k.Shape[L])
		default:
			ok = ok && vectorOp(n.Op, dt)
		}
		ok = ok && n.DType == dt
	})
	if !ok {
		return ""
	}
	if dt == ir.Float32 {
		return "tick_vf"
	}
	return "tick_vd"
}

// reduceVector renders a full tile as vector accumulators kept in registers:
// lane t of accumulator u sums output j0+u*lanes+t in the same order as the
// scalar loop, so results are identical.
//
// A float max or min fold first runs with the CPU's own max/min instruction
// where its semantics are the fold's for every input but NaN (x86's MAXPS(a,
// b) is a > b ? a : b, ties and signed zeros included: tick_vf_maxq), and
// notes whether any value was NaN; only then does it run again with the
// exact NaN-propagating select. One instruction instead of two compares, a
// mask or and a blend on the accumulators' dependency chain. The NaN check
// is one unordered compare for two vectors of a row after its folds
// (tick_vf_unord, into a mask register on AVX-512) and one test per tile.
// (A compare per vector and a tile's 16 lanes or-ed one by one, as before,
// held Max(0) of a 4096×4096 matrix at 23 GB/s where Sum(0) read 26:
// docs/benchmarks.md.)
func (r *cRender) reduceVector(sb *strings.Builder, vec string, fixed []int, L int) {
	sz := r.k.Expr.DType.Size()
	lanes := fmt.Sprintf("(TICK_VB / %d)", sz)
	nv := fmt.Sprintf("(%d / TICK_VB)", Tile*sz)
	fmt.Fprintf(sb, "\t\t%s va[%s];\n", vec, nv)
	init := fmt.Sprintf("(%s){} + %s", vec, r.identity())
	if r.band > 0 { // a later band continues from the partial stored
		init = fmt.Sprintf("k0 ? %s_ld(&b0[i + u * %s]) : %s", vec, lanes, init)
	}
	initAcc := fmt.Sprintf("\t\tfor (int u = 0; u < %s; u++) va[u] = %s;\n\t\tint64_t rr = 0;\n", nv, init)
	r.vec = vec
	var loops strings.Builder
	r.reduceLoops(&loops)
	r.bases(&loops, fixed, L, "j")
	rows := loops.String() // the loops over the reduced axes, opened
	uLoop := fmt.Sprintf("\t\tfor (int u = 0; u < %s; u++) {\n\t\t\tconst int64_t j = j0 + u * %s;\n", nv, lanes)
	v := r.expr(r.k.Expr)
	body := r.body.String()
	head := rows + uLoop + body
	closeU := "\t\t}\n"
	rest := "\t\trr++;\n" + strings.Repeat("\t\t}\n", len(r.k.ReduceAxes)) // the reduced axes' loops closed
	tail := closeU + rest
	q := r.quickFold(vec)
	if q != "" {
		sb.WriteString("\t\tint tick_exact = 1;\n#ifdef TICK_IEEE_MINMAX\n\t\t{\n")
		fmt.Fprintf(sb, "\t\t%s_un tick_nan = {0};\n", vec)
		sb.WriteString(initAcc)
		// unord notes whether one of the values in x was NaN, two per compare
		unord := func(x string) {
			fmt.Fprintf(sb, "\t\tfor (int u = 0; u < %[1]s; u += 2) tick_nan = %[2]s_unord(tick_nan, %[3]s[u], %[3]s[u + 1 < %[1]s ? u + 1 : u]);\n", nv, vec, x)
		}
		if r.band > 0 { // a NaN stored by an earlier band: the quick fold would drop it
			unord("va")
		}
		// The values are kept for the compares after the row: checking them
		// two at a time halves the compares, and the loads stay in order.
		fmt.Fprintf(sb, "%s\t\t%s tick_x[%s];\n%s%s", rows, vec, nv, uLoop, body)
		fmt.Fprintf(sb, "\t\t\ttick_x[u] = %s;\n\t\t\tva[u] = %s(va[u], tick_x[u]);\n%s", v, q, closeU)
		unord("tick_x")
		sb.WriteString(rest)
		fmt.Fprintf(sb, "\t\ttick_exact = %s_unany(tick_nan);\n\t\t}\n#endif\n", vec)
		sb.WriteString("\t\tif (tick_exact) { // a NaN, or no IEEE max/min instruction: the exact select\n")
	}
	sb.WriteString(initAcc + head)
	fmt.Fprintf(sb, "\t\t\tva[u] = %s;\n", r.fold("va[u]", v))
	sb.WriteString(tail)
	if q != "" {
		sb.WriteString("\t\t}\n")
	}
	fmt.Fprintf(sb, "\t\tfor (int u = 0; u < %s; u++) __builtin_memcpy(&b0[i + u * %s], &va[u], sizeof va[u]);\n", nv, lanes)
	r.vec = ""
	r.temps = map[*ir.Node]string{}
	r.body.Reset()
}

// quickFold names the vector max/min with the CPU's semantics (see
// reduceVector and cMinMaxPrelude) for a float max or min fold, or "".
func (r *cRender) quickFold(vec string) string {
	switch r.k.Reduce {
	case ir.ReduceMax:
		return vec + "_maxq"
	case ir.ReduceMin:
		return vec + "_minq"
	}
	return ""
}

func (r *cRender) identity() string { return r.lang.Identity(r.k.Reduce, r.k.Expr.DType) }

func (r *cRender) fold(acc, v string) string {
	if r.vec != "" {
		switch r.k.Reduce {
		case ir.ReduceMax:
			return r.binary(ir.OpMax, acc, v)
		case ir.ReduceMin:
			return r.binary(ir.OpMin, acc, v)
		}
	}
	return r.lang.Fold(r.k.Reduce, r.k.Expr.DType, acc, v)
}

// expr emits statements computing n into r.body and returns the C name of
// its value. Loads were bound by bases; shared nodes are computed once.
func (r *cRender) expr(n *ir.Node) string {
	if v, ok := r.temps[n]; ok {
		return v
	}
	var v string
	switch n.Op {
	case ir.OpConst:
		v = r.lang.Const(n.DType, n.Value)
		if r.vec != "" {
			v = fmt.Sprintf("TICK_VBCAST(%s, %s)", r.vec, v)
		}
	default:
		src := make([]string, len(n.Src))
		for i, s := range n.Src {
			src[i] = r.expr(s)
		}
		name := fmt.Sprintf("v%d", len(r.temps))
		typ := r.lang.Type(n.DType)
		if r.vec != "" {
			typ = r.vec
		}
		fmt.Fprintf(&r.body, "\t\t\tconst %s %s = %s;\n", typ, name, r.op(n, src))
		v = name
	}
	r.temps[n] = v
	return v
}

// op is n's expression: the vector helpers in vector mode, else the
// C-style base's scalar expression.
func (r *cRender) op(n *ir.Node, s []string) string {
	if r.vec != "" {
		switch n.Op {
		case ir.OpRelu:
			return fmt.Sprintf("%s_relu(%s)", r.vec, s[0])
		case ir.OpMax, ir.OpMin:
			return r.binary(n.Op, s[0], s[1])
		case ir.OpExp: // float32 only (vectorOp)
			return fmt.Sprintf("tick_vf_exp(%s)", s[0])
		case ir.OpSigmoid: // 1 / (1 + e^-x) in float32, like the scalar expression
			return fmt.Sprintf("TICK_VBCAST(tick_vf, 1.0f) / (TICK_VBCAST(tick_vf, 1.0f) + tick_vf_exp(-%s))", s[0])
		}
	}
	return r.lang.Op(n, s)
}

// binary is the vector max or min (vector mode: float operands only, see
// vectorType).
func (r *cRender) binary(op ir.Op, a, b string) string {
	if op == ir.OpMax {
		return fmt.Sprintf("%s_max(%s, %s)", r.vec, a, b)
	}
	return fmt.Sprintf("%s_min(%s, %s)", r.vec, a, b)
}

// CPrelude is the C every rendered kernel starts with (types, helpers,
// TICK_VB, the vector width chosen from the compiler's target), for code
// that compiles its own C next to the kernels (tests reading TICK_VB).
func CPrelude() string { return cPrelude }
