package tensor

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/native"
	"github.com/tick-kernel/tick/runtime/native/nativetest"
)

// ieeeSpecials are float32 inputs where a select, min/max or abs rendered
// with a different comparison, or compiled with value-changing flags, would
// give different bits: NaN, infinities, signed zeros, subnormals.
func ieeeSpecials(n int) (x, y []float32) {
	sp := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0,
		1, -1, 1e-45, -1e-45, math.MaxFloat32, -math.MaxFloat32, 2.5, -3.75, float32(-math.NaN())}
	x, y = make([]float32, n), make([]float32, n)
	for i := range x {
		x[i] = sp[i%len(sp)]
		y[i] = sp[(i/len(sp)+i*3)%len(sp)]
	}
	return x, y
}

// Selects, min/max, relu, abs, where and folds over IEEE special values give
// the same bits on the CPU device (branch-free C, -fno-trapping-math) as on
// the GO device, whose loops follow Go's comparisons and math.Abs.
func TestCPUSelectsMatchGoBitForBit(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	const n = 32 * 64
	xs, ys := ieeeSpecials(n)
	ops := map[string]func(x, y *Tensor) *Tensor{
		"relu":      func(x, _ *Tensor) *Tensor { return x.Relu() },
		"abs":       func(x, _ *Tensor) *Tensor { return x.Abs() },
		"neg":       func(x, _ *Tensor) *Tensor { return x.Neg() },
		"maximum":   func(x, y *Tensor) *Tensor { return x.Maximum(y) },
		"minimum":   func(x, y *Tensor) *Tensor { return x.Minimum(y) },
		"where":     func(x, y *Tensor) *Tensor { return x.Gt(y).Where(x, y) },
		"where le":  func(x, y *Tensor) *Tensor { return x.Le(y).Where(x.Mul(2), y.Relu()) },
		"relu-mul":  func(x, y *Tensor) *Tensor { return x.Mul(y).Relu().Add(1) },
		"max ax0":   func(x, _ *Tensor) *Tensor { return x.Reshape(32, 64).Max(0) },
		"max ax1":   func(x, _ *Tensor) *Tensor { return x.Reshape(32, 64).Max(1) },
		"min all":   func(x, _ *Tensor) *Tensor { return x.Min() },
		"sum ax0":   func(x, _ *Tensor) *Tensor { return x.Reshape(32, 64).Sum(0) },
		"relu max":  func(x, _ *Tensor) *Tensor { return x.Relu().Reshape(64, 32).Max(0) },
		"eq select": func(x, y *Tensor) *Tensor { return x.Eq(y).Cast(Float32).Add(x.Ne(x).Cast(Float32)) },
	}
	for name, f := range ops {
		t.Run(name, func(t *testing.T) {
			run := func(dev string) []float32 {
				x := FromFloat32s(xs, n).To(dev)
				y := FromFloat32s(ys, n).To(dev)
				return f(x, y).Float32s()
			}
			cpu, gov := run("CPU"), run("GO")
			if len(cpu) != len(gov) {
				t.Fatalf("lengths %d and %d", len(cpu), len(gov))
			}
			for i := range cpu {
				if math.Float32bits(cpu[i]) != math.Float32bits(gov[i]) {
					t.Fatalf("[%d] (x=%v y=%v): CPU %v (%#08x), GO %v (%#08x)", i, xs[i], ys[i], cpu[i], math.Float32bits(cpu[i]), gov[i], math.Float32bits(gov[i]))
				}
			}
		})
	}
}

// Float max/min folds run first with the CPU's max/min instruction and
// fall back to the exact select when a value is NaN: without NaN (signed
// zero ties, infinities, subnormals) and with one NaN of either sign late
// in one lane, the results equal GO's bit for bit, full and per axis.
func TestCPUQuickMaxMinFoldsMatchGoBitForBit(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	const rows, cols = 512, 64
	sp := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0,
		1, -1, 1e-45, -1e-45, math.MaxFloat32, -math.MaxFloat32, 2.5, -3.75}
	base := make([]float32, rows*cols)
	for i := range base {
		base[i] = sp[(i*7+i/cols)%len(sp)]
		if i%5 == 0 { // ties of ±0 at the top: a max of non-positive values
			base[i] = -float32(math.Abs(float64(base[i])))
		}
	}
	nonPos := make([]float32, len(base)) // every value ±0 or negative: max is a signed zero
	for i, v := range base {
		nonPos[i] = -float32(math.Abs(float64(v)))
		if i%3 == 0 {
			nonPos[i] = float32(math.Copysign(0, float64(1-2*(i/7%2))))
		}
	}
	withNaN := func(neg bool) []float32 {
		x := append([]float32(nil), base...)
		nan := float32(math.NaN())
		if neg {
			nan = -nan
		}
		x[(rows-3)*cols+17] = nan
		return x
	}
	early := append([]float32(nil), base...) // a NaN in the first band of rows of a banded fold, none after it
	early[17] = float32(math.NaN())
	data := map[string][]float32{"no NaN": base, "signed zeros": nonPos, "NaN": withNaN(false), "-NaN": withNaN(true), "early NaN": early}
	ops := map[string]func(x *Tensor) *Tensor{
		"max":         func(x *Tensor) *Tensor { return x.Max() },
		"min":         func(x *Tensor) *Tensor { return x.Min() },
		"max ax0":     func(x *Tensor) *Tensor { return x.Reshape(rows, cols).Max(0) },
		"min ax0":     func(x *Tensor) *Tensor { return x.Reshape(rows, cols).Min(0) },
		"max ax1":     func(x *Tensor) *Tensor { return x.Reshape(cols, rows).Max(1) },
		"f64 max ax0": func(x *Tensor) *Tensor { return x.Cast(Float64).Reshape(rows, cols).Max(0) },
		"f64 min ax0": func(x *Tensor) *Tensor { return x.Cast(Float64).Reshape(rows, cols).Min(0) },
		// Rows 2 KB and 4 KB apart: folded in bands of rows (render.rowBand),
		// each band continuing from the partial the previous one stored.
		"max ax0 wide":     func(x *Tensor) *Tensor { return x.Reshape(cols, rows).Max(0) },
		"min ax0 wide":     func(x *Tensor) *Tensor { return x.Reshape(cols, rows).Min(0) },
		"f64 max ax0 wide": func(x *Tensor) *Tensor { return x.Cast(Float64).Reshape(cols, rows).Max(0) },
	}
	quick := false
	for dn, xs := range data {
		for on, f := range ops {
			if dn == "signed zeros" && (on == "max" || on == "min") {
				// A full fold of ties of ±0 depends on how the reduce is split
				// into partials, and GO splits differently: per axis only.
				continue
			}
			t.Run(dn+"/"+on, func(t *testing.T) {
				cpuT := f(FromFloat32s(xs, len(xs)).To("CPU"))
				for _, k := range cpuT.Plan().Kernels {
					quick = quick || strings.Contains(k.Source, "_maxq(") || strings.Contains(k.Source, "_minq(")
				}
				cpu, gov := cpuT.Float64s(), f(FromFloat32s(xs, len(xs)).To("GO")).Float64s()
				for i := range cpu {
					if math.Float64bits(cpu[i]) != math.Float64bits(gov[i]) {
						t.Fatalf("[%d]: CPU %v (%#x), GO %v (%#x)", i, cpu[i], math.Float64bits(cpu[i]), gov[i], math.Float64bits(gov[i]))
					}
				}
			})
		}
	}
	if !quick && (runtime.GOARCH == "amd64" || runtime.GOARCH == "386") {
		t.Error("no kernel used the quick max/min fold on x86")
	}
}

// The CPU device's bit-for-bit agreements with GO hold for kernels built
// for AVX2 and for baseline SSE2 too.
func TestCPUOtherVectorWidthsMatchGo(t *testing.T) {
	nativetest.RerunForTargets(t, "^(TestCPUSelectsMatchGoBitForBit|TestCPUQuickMaxMinFoldsMatchGoBitForBit|TestCPUMatmulNoFMAMatchesGOBitForBit)$")
}

// Float32 sums and means give the same bits on the CPU and GO devices:
// both fold lanes of the same width (the runtime splits a reduction the
// same way for both) with float32 accumulators rounded at every step, in
// the same order, whole or along an axis, short (one sequential fold) or
// long (lane partials), of a buffer or of an expression.
func TestCPUSumsMatchGoBitForBit(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	ops := map[string]func(x *Tensor) *Tensor{
		"sum 4096":        func(x *Tensor) *Tensor { return x.Reshape(-1).Slice(0, 0, 4096).Sum() },
		"sum 100000":      func(x *Tensor) *Tensor { return x.Reshape(-1).Slice(0, 0, 100000).Sum() },
		"sum all":         func(x *Tensor) *Tensor { return x.Sum() },
		"mean expr":       func(x *Tensor) *Tensor { return x.Mul(2).Add(1).Mean() },
		"sum rows":        func(x *Tensor) *Tensor { return x.Sum(1) },
		"mean rows 1000":  func(x *Tensor) *Tensor { return x.Reshape(-1).Slice(0, 0, 37000).Reshape(37, 1000).Mean(1) },
		"sum cols":        func(x *Tensor) *Tensor { return x.Sum(0) },
		"sum rows of 70":  func(x *Tensor) *Tensor { return x.Reshape(-1).Slice(0, 0, 21000).Reshape(300, 70).Sum(1) },
		"sum middle axis": func(x *Tensor) *Tensor { return x.Reshape(8, 64, 512).Sum(1) },
	}
	for name, f := range ops {
		t.Run(name, func(t *testing.T) {
			x := RandnSeed(11, 512, 512)
			cpu, gov := f(x.To("CPU")).Float32s(), f(x.To("GO")).Float32s()
			for i := range cpu {
				if math.Float32bits(cpu[i]) != math.Float32bits(gov[i]) {
					t.Fatalf("[%d]: CPU %v, GO %v", i, cpu[i], gov[i])
				}
			}
		})
	}
}
