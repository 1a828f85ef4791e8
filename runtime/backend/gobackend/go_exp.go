package gobackend

// exp of float32 blocks over vector lanes. The GO device computed a float32
// exp as float32(math.Exp(float64(x))): a call per element into a routine
// that must be right to the last bit of a float64, 10–13 ns each here, most
// of a softmax's time (issue 30). Where the CPU has AVX2 and FMA,
// expLanes32 (exp_amd64.s, written by gen_exp.go) computes four lanes at a
// time in float64: k = round(x/ln2), r = x - k·ln2 (|r| ≤ ln2/2, exact with
// ln2 in two parts and fused multiply-adds), e^r by its Taylor polynomial of
// degree 12 (truncation below 1.7e-16), 2^k added to the exponent, then one
// rounding to float32. No table: nothing to gather per lane. The float64
// value is within a few 1e-16 of e^x, so its rounding to float32 is the
// correctly rounded e^x except when e^x lies that close to a midpoint of
// two float32, and it equals float32(math.Exp(float64(x))) bit for bit on
// every input TestExp32MatchesMathExp tries (every 997th bit pattern and
// the edges) and on all 2^32 inputs (TestExp32Exhaustive, with TICK_EXP_EXHAUSTIVE=1).
// The CPU device's float32 exp is the same algorithm in C (render/c_exp.go,
// tick_expf), so the devices agree bit for bit on those inputs.

import "math"

// exp32s sets o[i] to e^x[i] in float32 (len(x) ≥ len(o)).
func exp32s(o, x []float32) {
	x = x[:len(o)]
	n := 0
	if haveExp {
		n = len(o) &^ 3
		if n > 0 {
			expLanes32(&o[0], &x[0], n)
		}
	}
	for i := n; i < len(o); i++ {
		o[i] = float32(math.Exp(float64(x[i])))
	}
}
