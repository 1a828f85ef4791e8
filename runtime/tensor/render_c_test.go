package tensor

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/native"
)

// These tests run hand-built kernels through the CPU backend and compare with
// cpuRefEval, a direct float64 interpretation of the IR, at tolerances per op
// (exact for +,-,*,/, comparisons and folds in IR order; 2 ulp-ish for libm).

func cpuLd(buf int, dt DType, strides []int, off int, mask [][2]int) *Node {
	return &Node{Op: OpLoad, DType: dt, Buf: buf, View: View{Strides: strides, Offset: off, Mask: mask}}
}
func cpuCst(dt DType, v float64) *Node         { return &Node{Op: OpConst, DType: dt, Value: v} }
func cpuUn(op Op, dt DType, a *Node) *Node     { return &Node{Op: op, DType: dt, Src: []*Node{a}} }
func cpuBin(op Op, dt DType, a, b *Node) *Node { return &Node{Op: op, DType: dt, Src: []*Node{a, b}} }

func TestCPURenderMatchesReference(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	f32, f64, i32 := Float32, Float64, Int32
	a := cpuLd(1, f32, []int{1}, 0, nil)
	matmul := &Kernel{Name: "R_matmul", Shape: []int{33, 70, 19}, ReduceAxes: []int{2}, Reduce: ReduceSum,
		Expr: cpuBin(OpMul, f32, cpuLd(1, f32, []int{19, 0, 1}, 0, nil), cpuLd(2, f32, []int{0, 1, 70}, 0, nil)),
		Bufs: []BufferSpec{{f32, 33 * 70}, {f32, 33 * 19}, {f32, 19 * 70}}}
	tests := []struct {
		name string
		k    *Kernel
		tol  float64
	}{
		{"affine", &Kernel{Name: "E_1000", Shape: []int{1000}, Expr: cpuBin(OpAdd, f32, cpuBin(OpMul, f32, a, cpuCst(f32, 2)), cpuCst(f32, 1)),
			Bufs: []BufferSpec{{f32, 1000}, {f32, 1000}}}, 0},
		{"streamed", &Kernel{Name: "E_big", Shape: []int{3 << 20}, Expr: cpuBin(OpMul, f32, cpuLd(1, f32, []int{1}, 5, nil), cpuCst(f32, 3)),
			Bufs: []BufferSpec{{f32, 3 << 20}, {f32, 3<<20 + 5}}}, 0},
		// Streamed rows whose chunks start off a 64-byte line and end inside
		// a block (heads and tails), for 8- and 1-byte outputs too.
		{"streamed relu odd", &Kernel{Name: "E_big_odd", Shape: []int{3<<20 + 37}, Expr: cpuUn(OpRelu, f32, cpuBin(OpAdd, f32, cpuLd(1, f32, []int{1}, 3, nil), cpuCst(f32, -0.5))),
			Bufs: []BufferSpec{{f32, 3<<20 + 37}, {f32, 3<<20 + 40}}}, 0},
		{"streamed f64 rows", &Kernel{Name: "E_big_rows", Shape: []int{2, 1<<20 + 300}, Expr: cpuBin(OpMax, f64, cpuLd(1, f64, []int{1<<20 + 300, 1}, 0, nil), cpuLd(2, f64, []int{0, 1}, 0, nil)),
			Bufs: []BufferSpec{{f64, 2 * (1<<20 + 300)}, {f64, 2 * (1<<20 + 300)}, {f64, 1<<20 + 300}}}, 0},
		{"streamed bool", &Kernel{Name: "E_big_lt", Shape: []int{3<<20 + 1}, Expr: cpuBin(OpLt, Bool, cpuLd(1, f32, []int{1}, 0, nil), cpuCst(f32, 0.25)),
			Bufs: []BufferSpec{{Bool, 3<<20 + 1}, {f32, 3<<20 + 1}}}, 0},
		{"broadcast row", &Kernel{Name: "E_3_4", Shape: []int{3, 4},
			Expr: cpuBin(OpSub, f32, cpuLd(1, f32, []int{4, 1}, 0, nil), cpuLd(2, f32, []int{0, 1}, 0, nil)),
			Bufs: []BufferSpec{{f32, 12}, {f32, 12}, {f32, 4}}}, 0},
		{"flip", &Kernel{Name: "E_flip", Shape: []int{37}, Expr: cpuUn(OpNeg, f32, cpuLd(1, f32, []int{-1}, 36, nil)),
			Bufs: []BufferSpec{{f32, 37}, {f32, 37}}}, 0},
		{"pad mask", &Kernel{Name: "E_pad", Shape: []int{4, 6}, Expr: cpuBin(OpAdd, f32, cpuLd(1, f32, []int{4, 1}, -1, [][2]int{{0, 4}, {1, 5}}), cpuCst(f32, 0.5)),
			Bufs: []BufferSpec{{f32, 24}, {f32, 16}}}, 0},
		{"transpose", &Kernel{Name: "E_T", Shape: []int{4, 3}, Expr: cpuUn(OpSqrt, f32, cpuLd(1, f32, []int{1, 4}, 0, nil)),
			Bufs: []BufferSpec{{f32, 12}, {f32, 12}}}, 0},
		{"sum last axis", &Kernel{Name: "R_5_7", Shape: []int{5, 7}, ReduceAxes: []int{1}, Reduce: ReduceSum,
			Expr: cpuLd(1, f32, []int{7, 1}, 0, nil), Bufs: []BufferSpec{{f32, 5}, {f32, 35}}}, 0},
		{"max first axis", &Kernel{Name: "R_7_130", Shape: []int{7, 130}, ReduceAxes: []int{0}, Reduce: ReduceMax,
			Expr: cpuLd(1, f32, []int{130, 1}, 0, nil), Bufs: []BufferSpec{{f32, 130}, {f32, 910}}}, 0},
		{"min all", &Kernel{Name: "R_all", Shape: []int{10, 10}, ReduceAxes: []int{0, 1}, Reduce: ReduceMin,
			Expr: cpuBin(OpMul, f64, cpuLd(1, f64, []int{10, 1}, 0, nil), cpuCst(f64, -3)), Bufs: []BufferSpec{{f64, 1}, {f64, 100}}}, 0},
		{"matmul", matmul, 0},
		{"max vector tiles", &Kernel{Name: "R_9_192", Shape: []int{9, 192}, ReduceAxes: []int{0}, Reduce: ReduceMax,
			Expr: cpuBin(OpMin, f32, cpuUn(OpRelu, f32, cpuBin(OpSub, f32, cpuLd(1, f32, []int{192, 1}, 0, nil), cpuCst(f32, 0.5))), cpuLd(2, f32, []int{0, 1}, 0, nil)),
			Bufs: []BufferSpec{{f32, 192}, {f32, 9 * 192}, {f32, 192}}}, 0},
		{"min f64 vector tiles", &Kernel{Name: "R_5_3_128", Shape: []int{5, 3, 128}, ReduceAxes: []int{1}, Reduce: ReduceMin,
			Expr: cpuBin(OpMax, f64, cpuLd(1, f64, []int{384, 128, 1}, 0, nil), cpuCst(f64, -1)),
			Bufs: []BufferSpec{{f64, 5 * 128}, {f64, 5 * 384}}}, 0},
		{"sum f64 axis 0 padded", &Kernel{Name: "R_pad", Shape: []int{5, 130}, ReduceAxes: []int{0}, Reduce: ReduceSum,
			Expr: cpuBin(OpSub, f64, cpuLd(1, f64, []int{130, 1}, -130, [][2]int{{1, 5}, {0, 130}}), cpuUn(OpNeg, f64, cpuLd(2, f64, []int{0, 1}, 0, nil))),
			Bufs: []BufferSpec{{f64, 130}, {f64, 520}, {f64, 130}}}, 0},
		{"compare where", &Kernel{Name: "E_where", Shape: []int{50},
			Expr: &Node{Op: OpWhere, DType: f32, Src: []*Node{cpuBin(OpGt, Bool, a, cpuCst(f32, 0)), a, cpuUn(OpExp, f32, a)}},
			Bufs: []BufferSpec{{f32, 50}, {f32, 50}}}, 2e-7},
		{"bool out", &Kernel{Name: "E_lt", Shape: []int{50}, Expr: cpuBin(OpLt, Bool, a, cpuCst(f32, 0.25)),
			Bufs: []BufferSpec{{Bool, 50}, {f32, 50}}}, 0},
		{"int32 div", &Kernel{Name: "E_idiv", Shape: []int{40},
			Expr: cpuBin(OpDiv, i32, cpuUn(OpCast, i32, cpuLd(1, f32, []int{1}, 0, nil)), cpuCst(i32, 0)),
			Bufs: []BufferSpec{{i32, 40}, {f32, 40}}}, 0},
		{"libm", &Kernel{Name: "E_libm", Shape: []int{64}, Expr: cpuBin(OpMax, f32, cpuUn(OpTanh, f32, a), cpuUn(OpSigmoid, f32, cpuUn(OpLog, f32, cpuUn(OpAbs, f32, a)))),
			Bufs: []BufferSpec{{f32, 64}, {f32, 64}}}, 4e-7},
		{"scalar", &Kernel{Name: "E_scalar", Shape: []int{}, Expr: cpuBin(OpPow, f64, cpuLd(1, f64, []int{}, 0, nil), cpuCst(f64, 2)),
			Bufs: []BufferSpec{{f64, 1}, {f64, 1}}}, 1e-15},
		{"empty", &Kernel{Name: "E_0", Shape: []int{0}, Expr: a, Bufs: []BufferSpec{{f32, 0}, {f32, 0}}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := make([][]float64, len(tt.k.Bufs))
			for i, b := range tt.k.Bufs[1:] {
				in[i+1] = cpuTestData(b, i)
			}
			want := cpuRefEval(tt.k, in)
			got, src := cpuRun(t, tt.k, in)
			for i := range want {
				if d := math.Abs(got[i] - want[i]); !(d <= tt.tol*math.Max(1, math.Abs(want[i]))) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Fatalf("out[%d] = %v, want %v (tolerance %g)\n%s", i, got[i], want[i], tt.tol, src)
				}
			}
		})
	}
}

func TestCPURendererBugIsAnError(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	k := &Kernel{Name: "E_bad", Shape: []int{4}, Expr: &Node{Op: numOps, DType: Float32}, Bufs: []BufferSpec{{Float32, 4}}}
	_, err := cpuBackend{}.Compile(k)
	if err == nil || !strings.Contains(err.Error(), "unsupported op") || !strings.Contains(err.Error(), "E_bad") {
		t.Errorf("Compile of an unsupported op: error %v, want one naming the kernel and the op", err)
	}
}

// Through the public API: DEBUG=4 shows the generated C, DEBUG=2 lines name
// the CPU backend, and the result is right.
func TestCPUDebugShowsSourceAndBackend(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	prev := DefaultDevice()
	if err := SetDefaultDevice("CPU"); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	SetDebugWriter(&out)
	SetDebug(4)
	t.Cleanup(func() {
		SetDebug(0)
		SetDebugWriter(nil)
		_ = SetDefaultDevice(prev)
	})
	c := float32(time.Now().UnixNano()%1000) + 0.5 // a constant no other test compiled
	got := FromFloat32s([]float32{1, 2, 3}, 3).Mul(c).Add(1).Float32s()
	for i, v := range got {
		if want := float32(i+1)*c + 1; v != want {
			t.Errorf("got[%d] = %v, want %v", i, v, want)
		}
	}
	text := out.String()
	if !strings.Contains(text, "void tick_") || !strings.Contains(text, "restrict") {
		t.Errorf("DEBUG=4 output has no C source:\n%s", text)
	}
	if !strings.Contains(text, "\nCPU ") && !strings.HasPrefix(text, "CPU ") {
		t.Errorf("DEBUG output has no line naming the CPU backend:\n%s", text)
	}
	if s := CPUStatus(); !strings.Contains(s, "CPU device:") {
		t.Errorf("CPUStatus() = %q", s)
	}
}

// RunBatch computes what one Run per launch computes.
func TestCPURunBatchMatchesRun(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	be := cpuBackend{}
	a := cpuLd(1, Float32, []int{1}, 0, nil)
	k := &Kernel{Name: "E_batch", Shape: []int{100}, Expr: cpuBin(OpAdd, Float32, cpuBin(OpMul, Float32, a, cpuCst(Float32, 2)), cpuCst(Float32, 1)),
		Bufs: []BufferSpec{{Float32, 100}, {Float32, 100}}}
	p, err := be.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	bufs := make([]Memory, 4)
	for i := range bufs {
		if bufs[i], err = be.Alloc(Float32, 100); err != nil {
			t.Fatal(err)
		}
		defer bufs[i].Free()
	}
	cpuPutFloats(bufs[0].Bytes(), Float32, cpuTestData(BufferSpec{Float32, 100}, 3))
	mems := [][]Memory{{bufs[1], bufs[0]}, {bufs[2], bufs[1]}, {bufs[3], bufs[2]}}
	if !be.RunBatch([]Program{p, p, p}, mems, []int{100, 100, 100}) {
		t.Fatal("RunBatch refused CPU programs")
	}
	in := cpuGetFloats(bufs[0].Bytes(), Float32, 100)
	got := cpuGetFloats(bufs[3].Bytes(), Float32, 100)
	for i := range in {
		want := float64(in[i])
		for range 3 {
			want = float64(float32(want)*2 + 1)
		}
		if got[i] != want {
			t.Fatalf("batched out[%d] = %v, want %v", i, got[i], want)
		}
	}
}

func TestCPUUnavailableSaysWhy(t *testing.T) {
	err := cpuBackend{}.Available()
	if err != nil && !errors.Is(err, native.ErrUnavailable) {
		t.Errorf("Available() = %v, want nil or native.ErrUnavailable", err)
	}
}

// cpuTestData fills a buffer with varied values: negatives, fractions, zeros.
func cpuTestData(b BufferSpec, seed int) []float64 {
	out := make([]float64, b.Size)
	for i := range out {
		out[i] = float64((i*7+seed*13)%23-11) / 4
	}
	return out
}

// cpuRun compiles k on the CPU backend and runs it in three uneven ranges.
func cpuRun(t *testing.T, k *Kernel, in [][]float64) ([]float64, string) {
	t.Helper()
	be := cpuBackend{}
	mems := make([]Memory, len(k.Bufs))
	for i, b := range k.Bufs {
		m, err := be.Alloc(b.DType, b.Size)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Free()
		mems[i] = m
		if i > 0 {
			cpuPutFloats(m.Bytes(), b.DType, in[i])
		}
	}
	p, err := be.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	n := k.OutSize()
	cuts := []int{0, n / 3, n/3 + n/5, n}
	for c := 0; c+1 < len(cuts); c++ {
		p.Run(mems, cuts[c], cuts[c+1])
	}
	return cpuGetFloats(mems[0].Bytes(), k.Bufs[0].DType, k.Bufs[0].Size), p.Source()
}

func cpuPutFloats(b []byte, dt DType, v []float64) {
	for i, x := range v {
		switch dt {
		case Float32:
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(x)))
		case Float64:
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		case Int32:
			binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(x)))
		case Bool:
			b[i] = 0
			if x != 0 {
				b[i] = 1
			}
		}
	}
}

func cpuGetFloats(b []byte, dt DType, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		switch dt {
		case Float32:
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		case Float64:
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		case Int32:
			out[i] = float64(int32(binary.LittleEndian.Uint32(b[4*i:])))
		case Bool:
			out[i] = float64(b[i])
		}
	}
	return out
}
