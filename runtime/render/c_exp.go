package render

// The CPU device's float32 exp. glibc's expf is a call per element, and a
// loop that calls it is not vectorized: softmax's exp pass ran at the speed
// of the scalar call (issue 30). tick_expf is the GO device's algorithm
// (runtime/backend/gobackend/go_exp.go) in plain C, always inlined, with no
// call and no table, so gcc vectorizes the loops that use it; tick_vf_exp
// is the same lane for lane on the vector type the explicit vector paths
// use (the reduce tiles, the transposed row folds, the streaming
// elementwise loop). Both compute in float64: x clamped to [-104, 104]
// (beyond, e^x rounds to +Inf or 0 in float32, and so does the clamped
// value), k = round(x/ln2) (round half to even, by adding and subtracting
// 1.5·2^52), r = x - k·ln2 in two fused steps (ln2's high part has trailing
// zeros, so r is exact to float64), e^r by its Taylor polynomial of degree
// 12 in fused Horner steps (truncation below 1.7e-16 of e^r), 2^k added to
// the exponent bits, one rounding to float32; a NaN input is returned as it
// is. The float64 value is within a few 1e-16 of e^x, so the result is
// e^x correctly rounded except within that distance of a float32 midpoint:
// it equals float32(math.Exp(float64(x))) and the GO device's exp bit for
// bit on every input TestExpfMatchesMathExp tries. Where the target has no
// fused multiply-add (TICK_EXP_FMA 0) the steps round twice: the error
// stays within a unit in the last place of float32.
//
// Float64 exp keeps libm's exp (a float64 result needs more than a float64
// evaluation).

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// cExpDegree is the degree of e^r's Taylor polynomial on |r| ≤ ln2/2: the
// first term left out, r^13/13!, is below 1.7e-16 of e^r (the GO device's
// gen_exp.go uses the same).
const cExpDegree = 12

// hexf is x as an exact C hexadecimal floating constant.
func hexf(x float64) string { return strconv.FormatFloat(x, 'x', -1, 64) }

// cExpPrelude is the C of tick_expf and tick_vf_exp (see the file comment).
var cExpPrelude = func() string {
	const ln2hi = 0x1.62e42fefa0000p-1
	ln2, _ := new(big.Float).SetPrec(200).SetString("0.693147180559945309417232121458176568075500134360255254120680")
	lo, _ := new(big.Float).Sub(ln2, big.NewFloat(ln2hi)).Float64()
	var poly strings.Builder // Horner steps over p and r, from the highest coefficient down
	fact := big.NewInt(1)
	coef := make([]float64, cExpDegree+1)
	for n := 0; n <= cExpDegree; n++ {
		if n > 0 {
			fact.Mul(fact, big.NewInt(int64(n)))
		}
		coef[n], _ = new(big.Rat).SetFrac(big.NewInt(1), fact).Float64()
	}
	for n := cExpDegree - 1; n >= 0; n-- {
		fmt.Fprintf(&poly, " p = F(p, r, D(%s));", hexf(coef[n]))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, `// tick_expf(x) is e^x in float32 without a libm call (render/c_exp.go).
#if defined(__FMA__) || defined(__AVX512F__) || defined(__ARM_FEATURE_FMA)
#define TICK_EXP_FMA(a, b, c) __builtin_fma((a), (b), (c))
#else
#define TICK_EXP_FMA(a, b, c) ((a) * (b) + (c))
#endif
// TICK_EXP_BODY computes p = e^r and t = 1.5·2^52 + k from x of type T, with D(c)
// the constant c, S(m, a, b) a select and F(a, b, c) a*b + c, for scalars
// or vectors.
#define TICK_EXP_BODY(T, D, S, F) \
	x = S(x < D(-104.0), D(-104.0), x); \
	x = S(x > D(104.0), D(104.0), x); \
	const T t = x * D(%[1]s) + D(0x1.8p52); \
	const T k = t - D(0x1.8p52); \
	T r = F(-k, D(%[2]s), x); \
	r = F(-k, D(%[3]s), r); \
	T p = D(%[4]s);%[5]s
#define TICK_EXP_D(v) ((double)(v))
#define TICK_EXP_S(m, a, b) ((m) ? (a) : (b))
static inline __attribute__((always_inline)) float tick_expf(float xf) {
	double x = xf;
	TICK_EXP_BODY(double, TICK_EXP_D, TICK_EXP_S, TICK_EXP_FMA)
	uint64_t tb, pb;
	__builtin_memcpy(&tb, &t, sizeof tb);
	__builtin_memcpy(&pb, &p, sizeof pb);
	pb += tb << 52;
	__builtin_memcpy(&p, &pb, sizeof p);
	const float y = (float)p;
	return xf != xf ? xf : y;
}
typedef float tick_vfh __attribute__((vector_size(TICK_VB / 2)));
#define TICK_EXP_VD(v) (TICK_VBCAST(tick_vd, (double)(v)))
#define TICK_EXP_VS(m, a, b) TICK_VSEL(tick_vd, tick_vdi, m, a, b)
// tick_vd_fma is a*b + c lane for lane as TICK_EXP_FMA computes it: the
// target's vector FMA (GCC's builtins for the intrinsics; __builtin_fma
// takes no vectors), else lane by lane.
static inline __attribute__((always_inline)) tick_vd tick_vd_fma(tick_vd a, tick_vd b, tick_vd c) {
#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_fma) && (defined(__FMA__) || defined(__AVX512F__) || defined(__ARM_FEATURE_FMA))
#define TICK_VD_FMA_DONE
	return __builtin_elementwise_fma(a, b, c);
#endif
#endif
#ifndef TICK_VD_FMA_DONE
#if TICK_VB == 64 && defined(__AVX512F__) && !defined(__clang__)
	return __builtin_ia32_vfmaddpd512_mask(a, b, c, (unsigned char)-1, 4);
#elif TICK_VB == 32 && defined(__FMA__) && !defined(__clang__)
	return __builtin_ia32_vfmaddpd256(a, b, c);
#elif TICK_VB == 16 && defined(__FMA__) && !defined(__clang__)
	return __builtin_ia32_vfmaddpd(a, b, c);
#else
	tick_vd r;
	for (int l = 0; l < (int)(sizeof r / sizeof r[0]); l++) r[l] = TICK_EXP_FMA(a[l], b[l], c[l]);
	return r;
#endif
#endif
}
// tick_vd_expf is tick_expf's float64 part on a vector of float64 lanes.
static inline __attribute__((always_inline)) tick_vd tick_vd_expf(tick_vd x) {
	TICK_EXP_BODY(tick_vd, TICK_EXP_VD, TICK_EXP_VS, tick_vd_fma)
	return (tick_vd)((tick_vdi)p + ((tick_vdi)t << 52));
}
// tick_vf_exp is tick_expf lane for lane: each half of the lanes in float64.
static inline __attribute__((always_inline)) tick_vf tick_vf_exp(tick_vf x) {
	tick_vfh h[2];
	__builtin_memcpy(h, &x, sizeof x);
	for (int i = 0; i < 2; i++) h[i] = __builtin_convertvector(tick_vd_expf(__builtin_convertvector(h[i], tick_vd)), tick_vfh);
	tick_vf y;
	__builtin_memcpy(&y, h, sizeof y);
	return TICK_VSEL(tick_vf, tick_vfi, x != x, x, y);
}
`, hexf(1/math.Ln2), hexf(ln2hi), hexf(lo), hexf(coef[cExpDegree]), poly.String())
	return sb.String()
}()
