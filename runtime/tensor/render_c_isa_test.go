package tensor

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/native"
)

// The vector width the generated C compiles to (TICK_VB, chosen by the
// compiler's target macros) is the one the device description reports.
func TestCPUVectorWidthIsInProvenance(t *testing.T) {
	c, err := native.Default()
	if err != nil {
		t.Skip(err)
	}
	src := cPrelude + "void tick_vb(void **bufs, int64_t start, int64_t end) { ((int32_t *)bufs[0])[0] = TICK_VB; }\n"
	lib, err := c.Compile(src, "tick_vb")
	if err != nil {
		t.Fatal(err)
	}
	k, err := lib.Kernel("tick_vb")
	if err != nil {
		t.Fatal(err)
	}
	m, err := cpuBackend{}.Alloc(Int32, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Free()
	k.Call([]unsafe.Pointer{m.(*cpuMemory).ptr}, 0, 1)
	got := int(*(*int32)(m.(*cpuMemory).ptr))
	isa := c.VectorISA()
	if got != isa.Bytes {
		t.Errorf("kernels use %d-byte vectors, the compiler's ISA says %v", got, isa)
	}
	info, _ := DescribeDevice("CPU")
	if want := fmt.Sprintf("%d-byte vectors", got); !strings.Contains(info.String(), want) || !strings.Contains(Device("CPU").Backend(), want) {
		t.Errorf("the CPU description %q / %q does not say %q", info, Device("CPU").Backend(), want)
	}
}

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

// The renderer's reference tests pass when kernels are built for AVX2 (the
// 32-byte path, as on AMD Zen 3) and for baseline SSE2: the tests re-run
// themselves with TICK_MARCH set, on x86-64 hosts that can execute AVX2.
func TestCPURenderOtherVectorWidths(t *testing.T) {
	if os.Getenv(native.EnvMarch) != "" {
		t.Skip("already running for one target")
	}
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	if runtime.GOARCH != "amd64" || !hostHasAVX2() {
		t.Skip("needs an x86-64 host with AVX2")
	}
	if testing.Short() {
		t.Skip("compiles every reference kernel twice more")
	}
	for _, march := range []string{"x86-64-v3", "x86-64"} {
		t.Run(march, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^(TestCPURenderMatchesReference|TestCPUVectorWidthIsInProvenance|TestCPUSelectsMatchGoBitForBit|TestCPUQuickMaxMinFoldsMatchGoBitForBit|TestCPUGemm.*)$", "-test.count=1")
			cmd.Env = append(os.Environ(), native.EnvMarch+"="+march)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "PASS") {
				t.Fatalf("with %s=%s: %v\n%s", native.EnvMarch, march, err, out)
			}
		})
	}
}

func hostHasAVX2() bool {
	data, err := os.ReadFile("/proc/cpuinfo")
	return err == nil && strings.Contains(string(data), " avx2 ") && strings.Contains(string(data), " fma ")
}

// A vector tile broadcasting a -0 along its lanes keeps the sign: the max of
// -0s is -0 in the vector path as in the scalar one and the reference.
func TestCPUVectorBroadcastKeepsNegativeZero(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	f := Float32
	k := &Kernel{Name: "R_negzero", Shape: []int{9, 512}, ReduceAxes: []int{0}, Reduce: ReduceMax,
		Expr: cpuBin(OpMax, f, cpuLd(1, f, []int{1, 0}, 0, nil), cpuCst(f, math.Copysign(0, -1))),
		Bufs: []BufferSpec{{f, 512}, {f, 9}}}
	in := [][]float64{nil, make([]float64, 9)}
	for i := range in[1] {
		in[1][i] = math.Copysign(0, -1)
	}
	want := cpuRefEval(k, in)
	got, src := cpuRun(t, k, in)
	if !strings.Contains(src, "va[u] = tick_vf_max(va[u]") {
		t.Fatalf("the max did not take the vector path:\n%s", src)
	}
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("out[%d] = %v (sign bit %v), want %v\n%s", i, got[i], math.Signbit(got[i]), want[i], src)
		}
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
	data := map[string][]float32{"no NaN": base, "signed zeros": nonPos, "NaN": withNaN(false), "-NaN": withNaN(true)}
	ops := map[string]func(x *Tensor) *Tensor{
		"max":         func(x *Tensor) *Tensor { return x.Max() },
		"min":         func(x *Tensor) *Tensor { return x.Min() },
		"max ax0":     func(x *Tensor) *Tensor { return x.Reshape(rows, cols).Max(0) },
		"min ax0":     func(x *Tensor) *Tensor { return x.Reshape(rows, cols).Min(0) },
		"max ax1":     func(x *Tensor) *Tensor { return x.Reshape(cols, rows).Max(1) },
		"f64 max ax0": func(x *Tensor) *Tensor { return x.Cast(Float64).Reshape(rows, cols).Max(0) },
		"f64 min ax0": func(x *Tensor) *Tensor { return x.Cast(Float64).Reshape(rows, cols).Min(0) },
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
