package cl

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
)

// testDevice opens CL:0, or skips with the reason OpenCL is unavailable
// (what to install).
func testDevice(t testing.TB) *Device {
	t.Helper()
	if err := (Backend{}).Available(); err != nil {
		t.Skipf("no OpenCL device here: %v", err)
	}
	d, err := Backend{}.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	return d.(*Device)
}

// clRun builds k on d, runs it over inputs in (in[0] unused) and returns
// the output as float64 and the source.
func clRun(t *testing.T, d *Device, k *ir.Kernel, in [][]float64) ([]float64, string) {
	t.Helper()
	p, err := d.Compile(k)
	if err != nil {
		t.Fatalf("%s: %v", k.Name, err)
	}
	return runProgram(t, d, p, k, in), p.Source()
}

// ulps is the distance between a and b in units in the last place of dt
// (0 for equal values, NaNs of either sign, and ±0 for integers).
func ulps(a, b float64, dt ir.DType) float64 {
	if math.IsNaN(a) && math.IsNaN(b) || a == b {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) || dt == ir.Int32 || dt == ir.Bool {
		return math.Inf(1)
	}
	if dt == ir.Float32 {
		ord := func(x float64) int64 {
			u := int64(math.Float32bits(float32(x)))
			if u < 0 || math.Signbit(x) {
				return -(u & 0x7fffffff)
			}
			return u
		}
		return math.Abs(float64(ord(a) - ord(b)))
	}
	ord := func(x float64) float64 {
		u := math.Float64bits(x)
		if math.Signbit(x) {
			return -float64(u &^ (1 << 63))
		}
		return float64(u)
	}
	return math.Abs(ord(a) - ord(b))
}

// opCase is one kernel of the op table with the largest difference from
// the reference it may show, in ulps of its output (0: bit-identical).
type opCase struct {
	name string
	k    *ir.Kernel
	ulps float64
}

// Bounds of the OpenCL C built-ins (OpenCL 1.2 full profile, §7.4,
// single and double precision): the device's exp, log, sin, cos, tanh
// and pow are allowed these errors; +, −, ×, comparisons, selects and
// casts are exact, and ÷ and √ are exact with
// -cl-fp32-correctly-rounded-divide-sqrt (which the backend passes where
// the device supports it). sigmoid is 1/(1+exp(−x)): exp's bound and two
// correctly rounded operations.
var opULPs = map[ir.Op]float64{ir.OpExp: 3, ir.OpLog: 3, ir.OpSin: 4, ir.OpCos: 4, ir.OpTanh: 5, ir.OpSigmoid: 5, ir.OpPow: 16}

func opCases() []opCase {
	var cs []opCase
	add := func(name string, k *ir.Kernel, u float64) { cs = append(cs, opCase{name, k, u}) }
	elem := func(name string, out ir.DType, n int, e *ir.Node, ins ...ir.DType) *ir.Kernel {
		bufs := []ir.BufferSpec{{DType: out, Size: n}}
		for _, dt := range ins {
			bufs = append(bufs, ir.BufferSpec{DType: dt, Size: n})
		}
		return &ir.Kernel{Name: name, Shape: []int{n}, Expr: e, Bufs: bufs}
	}
	ld := func(buf int, dt ir.DType) *ir.Node { return irtest.Ld(buf, dt, []int{1}, 0, nil) }
	unary := []ir.Op{ir.OpNeg, ir.OpExp, ir.OpLog, ir.OpSqrt, ir.OpSin, ir.OpCos, ir.OpTanh, ir.OpSigmoid, ir.OpRelu, ir.OpAbs}
	for _, dt := range []ir.DType{ir.Float32, ir.Float64} {
		for _, op := range unary {
			add(fmt.Sprintf("%s %s", op, dt), elem("E_"+op.String(), dt, 300, irtest.Un(op, dt, ld(1, dt)), dt), opULPs[op])
		}
	}
	binary := []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpPow, ir.OpMax, ir.OpMin}
	for _, dt := range []ir.DType{ir.Float32, ir.Float64, ir.Int32} {
		for _, op := range binary {
			add(fmt.Sprintf("%s %s", op, dt), elem("E_"+op.String(), dt, 300, irtest.Bin(op, dt, ld(1, dt), ld(2, dt)), dt, dt), opULPs[op])
		}
		for op := ir.OpLt; op <= ir.OpNe; op++ {
			add(fmt.Sprintf("%s %s", op, dt), elem("E_"+op.String(), ir.Bool, 300, irtest.Bin(op, ir.Bool, ld(1, dt), ld(2, dt)), dt, dt), 0)
		}
	}
	casts := [][2]ir.DType{{ir.Float32, ir.Int32}, {ir.Float32, ir.Float64}, {ir.Float64, ir.Float32}, {ir.Int32, ir.Float32},
		{ir.Bool, ir.Float32}, {ir.Float32, ir.Bool}, {ir.Int32, ir.Float64}, {ir.Float64, ir.Int32}}
	for _, c := range casts {
		add(fmt.Sprintf("cast %s→%s", c[0], c[1]), elem("E_cast", c[1], 300, irtest.Un(ir.OpCast, c[1], ld(1, c[0])), c[0]), 0)
	}
	b := ld(1, ir.Bool)
	add("not", elem("E_not", ir.Bool, 300, irtest.Un(ir.OpNot, ir.Bool, b), ir.Bool), 0)
	add("where", elem("E_where", ir.Float32, 300, &ir.Node{Op: ir.OpWhere, DType: ir.Float32,
		Src: []*ir.Node{irtest.Bin(ir.OpGt, ir.Bool, ld(1, ir.Float32), ld(2, ir.Float32)), ld(1, ir.Float32), ld(2, ir.Float32)}},
		ir.Float32, ir.Float32), 0)
	// Reduces: every fold over every kind of axis, for each dtype.
	for _, dt := range []ir.DType{ir.Float32, ir.Float64, ir.Int32} {
		for _, rop := range []ir.ReduceOp{ir.ReduceSum, ir.ReduceMax, ir.ReduceMin} {
			for _, ax := range [][]int{{0}, {1}, {0, 1}} {
				out := 37 * 29
				for _, a := range ax {
					out /= []int{37, 29}[a]
				}
				k := &ir.Kernel{Name: "R_" + rop.String(), Shape: []int{37, 29}, ReduceAxes: ax, Reduce: rop,
					Expr: irtest.Ld(1, dt, []int{29, 1}, 0, nil), Bufs: []ir.BufferSpec{{DType: dt, Size: out}, {DType: dt, Size: 37 * 29}}}
				add(fmt.Sprintf("%s %s axes %v", rop, dt, ax), k, 0)
			}
		}
	}
	// Movement views: broadcast, flip, padding (masks), a transposed read,
	// an offset window, a 0-d tensor.
	f := ir.Float32
	add("broadcast", &ir.Kernel{Name: "E_bc", Shape: []int{3, 40}, Expr: irtest.Bin(ir.OpSub, f, irtest.Ld(1, f, []int{40, 1}, 0, nil), irtest.Ld(2, f, []int{0, 1}, 0, nil)),
		Bufs: []ir.BufferSpec{{DType: f, Size: 120}, {DType: f, Size: 120}, {DType: f, Size: 40}}}, 0)
	add("flip", &ir.Kernel{Name: "E_flip", Shape: []int{37}, Expr: irtest.Un(ir.OpNeg, f, irtest.Ld(1, f, []int{-1}, 36, nil)),
		Bufs: []ir.BufferSpec{{DType: f, Size: 37}, {DType: f, Size: 37}}}, 0)
	add("pad", &ir.Kernel{Name: "E_pad", Shape: []int{4, 6}, Expr: irtest.Bin(ir.OpAdd, f, irtest.Ld(1, f, []int{4, 1}, -1, [][2]int{{0, 4}, {1, 5}}), irtest.Cst(f, 0.5)),
		Bufs: []ir.BufferSpec{{DType: f, Size: 24}, {DType: f, Size: 16}}}, 0)
	add("transpose", &ir.Kernel{Name: "E_T", Shape: []int{40, 30}, Expr: irtest.Un(ir.OpRelu, f, irtest.Ld(1, f, []int{1, 40}, 0, nil)),
		Bufs: []ir.BufferSpec{{DType: f, Size: 1200}, {DType: f, Size: 1200}}}, 0)
	add("shrink", &ir.Kernel{Name: "E_shrink", Shape: []int{5, 5}, Expr: irtest.Ld(1, f, []int{10, 1}, 23, nil),
		Bufs: []ir.BufferSpec{{DType: f, Size: 25}, {DType: f, Size: 100}}}, 0)
	add("scalar", &ir.Kernel{Name: "E_scalar", Shape: []int{}, Expr: irtest.Bin(ir.OpMul, f, irtest.Ld(1, f, []int{}, 0, nil), irtest.Cst(f, 3)),
		Bufs: []ir.BufferSpec{{DType: f, Size: 1}, {DType: f, Size: 1}}}, 0)
	add("fused chain", &ir.Kernel{Name: "E_chain", Shape: []int{1000}, Expr: irtest.Un(ir.OpRelu, f, irtest.Bin(ir.OpAdd, f, irtest.Bin(ir.OpMul, f, ld(1, f), irtest.Cst(f, 2)), irtest.Cst(f, 1))),
		Bufs: []ir.BufferSpec{{DType: f, Size: 1000}, {DType: f, Size: 1000}}}, 0)
	// Matmul (the device's own kernel; gemm_test.go runs both kernels on
	// irregular data): edges of every block, batches, a transposed B, a K
	// of several tiles.
	for _, g := range gemmShapes {
		add(fmt.Sprintf("matmul %v", g), gemmKernel(g[0], g[1], g[2], g[3], g[4] == 1), 0)
	}
	return cs
}

// gemmKernel is the contraction Matmul schedules for batch × [M,K]·[K,N],
// B read transposed when bT.
func gemmKernel(batch, M, N, K int, bT bool) *ir.Kernel {
	f := ir.Float32
	aS, bS := []int{M * K, K, 0, 1}, []int{K * N, 0, 1, N}
	if bT {
		bS = []int{K * N, 0, K, 1}
	}
	return &ir.Kernel{Name: fmt.Sprintf("R_gemm_%d_%d_%d_%d", batch, M, N, K), Shape: []int{batch, M, N, K}, ReduceAxes: []int{3}, Reduce: ir.ReduceSum,
		Expr: irtest.Bin(ir.OpMul, f, irtest.Ld(1, f, aS, 0, nil), irtest.Ld(2, f, bS, 0, nil)),
		Bufs: []ir.BufferSpec{{DType: f, Size: batch * M * N}, {DType: f, Size: batch * M * K}, {DType: f, Size: batch * K * N}}}
}

// TestEveryOpMatchesReference runs every op of the IR on the OpenCL device
// against the reference interpreter: bit-identical where the arithmetic is
// exact, else within the op's ulp bound (opULPs).
//
// Matmul is rendered with TICK_FMA=0 here (products and sums rounded
// separately, the reference's bits); the fused kernels are
// TestMatmulKernelsMatchReference's.
func TestEveryOpMatchesReference(t *testing.T) {
	d := testDevice(t)
	t.Setenv(envFMA, "0")
	worst := map[string]float64{}
	for _, c := range opCases() {
		t.Run(c.name, func(t *testing.T) {
			in := make([][]float64, len(c.k.Bufs))
			for i, b := range c.k.Bufs[1:] {
				in[i+1] = irtest.Data(b, i+1)
				for j, v := range in[i+1] {
					switch {
					case b.DType == ir.Bool:
						v = float64(j % 2)
					case c.k.Name == "E_pow" && i == 0: // positive bases (a negative one's pow is NaN in both: no test)
						v = math.Abs(v) + 1.25
					case c.k.Name == "E_pow" && b.DType == ir.Int32: // int powers: exponents 0..2
						v = float64(j % 3)
					case c.k.Name == "E_log" || c.k.Name == "E_sqrt":
						v = math.Abs(v) + 0.25
					}
					in[i+1][j] = irtest.Round(b.DType, v) // what the buffer holds
				}
			}
			want := irtest.Eval(c.k, in)
			got, src := clRun(t, d, c.k, in)
			dt := c.k.Bufs[0].DType
			for i := range want {
				u := ulps(got[i], want[i], dt)
				worst[c.name] = max(worst[c.name], u)
				if u > c.ulps {
					t.Fatalf("out[%d] = %v, reference %v: %v ulps, bound %v\nsource:\n%s", i, got[i], want[i], u, c.ulps, src)
				}
			}
		})
	}
	var seen []string
	for name, u := range worst {
		if u > 0 {
			seen = append(seen, fmt.Sprintf("%s %.0f", name, u))
		}
	}
	t.Logf("largest differences from the reference (ulps), where not 0: %s", strings.Join(seen, ", "))
}

// TestCompiledKernelsAreCached: a second device opened on the same driver
// finds the first one's binaries on disk.
func TestCompiledKernelsAreCached(t *testing.T) {
	d := testDevice(t)
	t.Setenv("TICK_CACHE_DIR", t.TempDir())
	k := gemmKernel(1, 9, 9, 9, false)
	k.Name = "R_cache_probe"
	first := newProgramCache(d.f)
	if first.problem != nil {
		t.Skipf("no trusted cache directory here: %v", first.problem)
	}
	d.progs = first
	p, err := d.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	if o := p.(*Program).CacheOrigin(); o != device.Compiled {
		t.Fatalf("first build: origin %q, want compiled", o)
	}
	entries, _ := os.ReadDir(first.dir)
	if len(entries) == 0 {
		t.Skip("the driver gives no program binaries: nothing is cached on disk")
	}
	d.progs = newProgramCache(d.f) // a new process's cache: memory empty, disk shared
	p2, err := d.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	if o := p2.(*Program).CacheOrigin(); o != device.DiskCache {
		t.Errorf("second build: origin %q, want disk cache", o)
	}
	in := [][]float64{nil, irtest.Data(k.Bufs[1], 1), irtest.Data(k.Bufs[2], 2)}
	if got, want := runProgram(t, d, p2, k, in), irtest.Eval(k, in); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the cached binary computes %v, want %v", got, want)
	}
}

// runProgram runs a built program over inputs in and returns its output.
func runProgram(t *testing.T, d *Device, p device.Program, k *ir.Kernel, in [][]float64) []float64 {
	t.Helper()
	mems := allocBufs(t, d, k, in)
	defer freeBufs(d, mems)
	out := launchRead(t, d, p, mems, k.Bufs[0].Size*k.Bufs[0].DType.Size())
	return irtest.Get(out, k.Bufs[0].DType, k.Bufs[0].Size)
}

// allocBufs allocates k's buffers on d and copies in[i] into buffer i > 0
// (zeros when in is nil); freeBufs frees them.
func allocBufs(t *testing.T, d *Device, k *ir.Kernel, in [][]float64) []device.Memory {
	t.Helper()
	mems := make([]device.Memory, 0, len(k.Bufs))
	for i, b := range k.Bufs {
		m, err := d.Alloc(b.DType, b.Size)
		if err != nil {
			freeBufs(d, mems)
			t.Fatal(err)
		}
		mems = append(mems, m)
		if i > 0 {
			raw := make([]byte, b.Size*b.DType.Size())
			if in != nil {
				irtest.Put(raw, b.DType, in[i])
			}
			if err := d.CopyIn(m, 0, raw); err != nil {
				freeBufs(d, mems)
				t.Fatal(err)
			}
		}
	}
	return mems
}

func freeBufs(d *Device, mems []device.Memory) {
	for _, m := range mems {
		d.Free(m)
	}
}

// launchRead launches p over mems and returns the first n bytes of
// mems[0] after it ran.
func launchRead(t *testing.T, d *Device, p device.Program, mems []device.Memory, n int) []byte {
	t.Helper()
	if err := d.Launch(p, mems, p.Dims()); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, n)
	if err := d.CopyOut(out, mems[0], 0); err != nil {
		t.Fatal(err)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Stamps(nil); err != nil {
		t.Fatal(err)
	}
	return out
}
