package cpu

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
	"github.com/tick-kernel/tick/runtime/native"
)

// expSweep is every 997th float32 bit pattern (4.3 million inputs of every
// sign and exponent: NaNs, infinities, subnormals) and the edges: the
// largest finite result, the first +Inf, the least subnormal result and
// the first 0, ±0, ±Inf, and both neighbours of each.
func expSweep() []float64 {
	const step = 997
	x := make([]float64, 0, 1<<32/step+64)
	for b := uint64(0); b < 1<<32; b += step {
		x = append(x, float64(math.Float32frombits(uint32(b))))
	}
	for _, v := range []float32{88.72283, 88.72284, -103.27893, -103.97208, -103.972084, -87.33655, 0, float32(math.Copysign(0, -1)),
		float32(math.Inf(1)), float32(math.Inf(-1)), 1e-8, -1e-8, 1, -1, 0.34657359, -0.34657359} {
		x = append(x, float64(v), float64(math.Nextafter32(v, 200)), float64(math.Nextafter32(v, -200)))
	}
	return x
}

// ulps is the distance between float32 values a and b in units in the last
// place (0 for two NaNs; a huge value for a NaN against a number).
func ulps(a, b float32) int64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.MaxInt64
	}
	key := func(f float32) int64 { // monotonic in f, -0 and +0 adjacent... and equal
		u := int64(math.Float32bits(f))
		if u&(1<<31) != 0 {
			return -(u &^ (1 << 31))
		}
		return u
	}
	d := key(a) - key(b)
	if d < 0 {
		d = -d
	}
	return d
}

// expWant is float32(math.Exp(float64(x))): e^x rounded once to float32
// (the GO device's exp gives the same bits).
func expWant(x float64) float32 { return float32(math.Exp(x)) }

// The CPU device's float32 exp (render/c_exp.go: no libm call, so loops
// vectorize) against math.Exp over expSweep, through each path the C takes:
// the plain loop gcc vectorizes (rows shorter than the streaming
// threshold), the vector expression streamed to long rows (tick_vf_exp),
// and a fold along rows through the in-register transpose. Every result is
// within 1 ulp of float32(math.Exp(float64(x))) with NaN for NaN, the
// infinities, zeros and subnormals at the edges exactly; with fused
// multiply-adds (every target but baseline x86-64) all are bit for bit
// equal on these inputs.
func TestCPUExpMatchesMathExp(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	f32 := ir.Float32
	x := expSweep()
	const cols = 4096
	rows := (len(x) + cols - 1) / cols
	n := rows * cols
	in := make([]float64, n)
	copy(in, x)
	zeros := make([]float64, cols)
	cc, err := native.Default()
	if err != nil {
		t.Fatal(err)
	}
	isa := cc.VectorISA() // what the kernels are built for
	exact := isa.FMA
	check := func(t *testing.T, name string, got []float64, want func(i int) float32, src string) {
		t.Helper()
		bad, worst := 0, int64(0)
		for i, w := range x {
			g := float32(got[i])
			wv := want(i)
			d := ulps(g, wv)
			worst = max(worst, d)
			edge := math.IsInf(w, 0) || w == 0 || float32(w) > 88.7 || float32(w) < -87.3
			if d > 1 || (edge && d != 0) || (exact && d != 0) {
				if bad++; bad <= 5 {
					t.Errorf("%s: exp(%v [%#08x]) = %v [%#08x], want %v [%#08x] (%d ulp)", name, float32(w), math.Float32bits(float32(w)),
						g, math.Float32bits(g), wv, math.Float32bits(wv), d)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d inputs off (worst %d ulp, %s)\n%.3000s", name, bad, len(x), worst, isa, src)
		}
	}
	t.Run("streamed", func(t *testing.T) {
		k := &ir.Kernel{Name: "E_exp_flat", Shape: []int{n}, Expr: irtest.Un(ir.OpExp, f32, irtest.Ld(1, f32, []int{1}, 0, nil)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: n}, {DType: f32, Size: n}}}
		got, src := cpuRun(t, k, [][]float64{nil, in})
		if !strings.Contains(src, "tick_vf_exp(") {
			t.Errorf("the streamed vector path was not rendered:\n%s", src)
		}
		check(t, "streamed", got, func(i int) float32 { return expWant(x[i]) }, src)
	})
	t.Run("rows", func(t *testing.T) { // softmax's exp(x - max): short rows, a broadcast operand
		k := &ir.Kernel{Name: "E_exp_rows", Shape: []int{rows, cols},
			Expr: irtest.Un(ir.OpExp, f32, irtest.Bin(ir.OpSub, f32, irtest.Ld(1, f32, []int{cols, 1}, 0, nil), irtest.Ld(2, f32, []int{0, 1}, 0, nil))),
			Bufs: []ir.BufferSpec{{DType: f32, Size: n}, {DType: f32, Size: n}, {DType: f32, Size: cols}}}
		got, src := cpuRun(t, k, [][]float64{nil, in, zeros})
		if regexp.MustCompile(`\bexpf\(`).MatchString(src) {
			t.Errorf("libm's expf is called:\n%s", src)
		}
		check(t, "rows", got, func(i int) float32 { return expWant(x[i]) }, src)
	})
	t.Run("sigmoid", func(t *testing.T) {
		k := &ir.Kernel{Name: "E_sigmoid_rows", Shape: []int{rows, cols},
			Expr: irtest.Un(ir.OpSigmoid, f32, irtest.Bin(ir.OpSub, f32, irtest.Ld(1, f32, []int{cols, 1}, 0, nil), irtest.Ld(2, f32, []int{0, 1}, 0, nil))),
			Bufs: []ir.BufferSpec{{DType: f32, Size: n}, {DType: f32, Size: n}, {DType: f32, Size: cols}}}
		got, src := cpuRun(t, k, [][]float64{nil, in, zeros})
		// 1 / (1 + e^-x) in float32, e^-x as math.Exp rounds it: the
		// same operations, so the same bits when the exps agree.
		check(t, "sigmoid", got, func(i int) float32 { return 1 / (1 + expWant(-x[i])) }, src)
	})
	t.Run("max of exp over rows", func(t *testing.T) {
		// A fold of exp along rows (softmax's sum of exp below 4,096
		// elements): one row per input, so each output is one exp,
		// computed in the transposed vector fold.
		const w = 1
		k := &ir.Kernel{Name: "R_exp_rows", Shape: []int{n, w}, ReduceAxes: []int{1}, Reduce: ir.ReduceMax,
			Expr: irtest.Un(ir.OpExp, f32, irtest.Ld(1, f32, []int{w, 1}, 0, nil)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: n}, {DType: f32, Size: n}}}
		got, src := cpuRun(t, k, [][]float64{nil, in})
		check(t, "max of exp", got, func(i int) float32 { return expWant(x[i]) }, src)
	})
	t.Run("sum of exp over rows", func(t *testing.T) {
		// Rows of 37 (vector blocks and a scalar remainder): each sum is
		// the in-order float32 sum of the row's exps.
		const w = 37
		m := 4099
		data := make([]float64, m*w)
		for i := range data {
			data[i] = float64(float32(math.Sin(float64(i))*30 - 5))
		}
		k := &ir.Kernel{Name: "R_sumexp_rows", Shape: []int{m, w}, ReduceAxes: []int{1}, Reduce: ir.ReduceSum,
			Expr: irtest.Un(ir.OpExp, f32, irtest.Ld(1, f32, []int{w, 1}, 0, nil)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: m}, {DType: f32, Size: m * w}}}
		got, src := cpuRun(t, k, [][]float64{nil, data})
		if !strings.Contains(src, "_tr(") {
			t.Errorf("the transposed row fold was not rendered:\n%s", src)
		}
		for r := 0; r < m; r++ {
			var s float32
			for j := 0; j < w; j++ {
				s += expWant(data[r*w+j])
			}
			// Each exp within 1 ulp: the sum within w ulps of its magnitude.
			if d := math.Abs(got[r] - float64(s)); d > w*float64(s)*0x1p-23 || (exact && d != 0) {
				t.Fatalf("row %d: sum of exp = %v, want %v (%s)\n%.3000s", r, got[r], s, isa, src)
			}
		}
	})
}
