package cpu

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
	"github.com/tick-kernel/tick/runtime/native"
)

// These tests run hand-built kernels through the CPU backend and compare with
// irtest.Eval, a direct float64 interpretation of the IR, at tolerances per op
// (exact for +,-,*,/, comparisons and folds in IR order; 2 ulp-ish for libm).

func TestCPURenderMatchesReference(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	f32, f64, i32 := ir.Float32, ir.Float64, ir.Int32
	a := irtest.Ld(1, f32, []int{1}, 0, nil)
	matmul := &ir.Kernel{Name: "R_matmul", Shape: []int{33, 70, 19}, ReduceAxes: []int{2}, Reduce: ir.ReduceSum,
		Expr: irtest.Bin(ir.OpMul, f32, irtest.Ld(1, f32, []int{19, 0, 1}, 0, nil), irtest.Ld(2, f32, []int{0, 1, 70}, 0, nil)),
		Bufs: []ir.BufferSpec{{DType: f32, Size: 33 * 70}, {DType: f32, Size: 33 * 19}, {DType: f32, Size: 19 * 70}}}
	tests := []struct {
		name string
		k    *ir.Kernel
		tol  float64
	}{
		{"affine", &ir.Kernel{Name: "E_1000", Shape: []int{1000}, Expr: irtest.Bin(ir.OpAdd, f32, irtest.Bin(ir.OpMul, f32, a, irtest.Cst(f32, 2)), irtest.Cst(f32, 1)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 1000}, {DType: f32, Size: 1000}}}, 0},
		{"streamed", &ir.Kernel{Name: "E_big", Shape: []int{3 << 20}, Expr: irtest.Bin(ir.OpMul, f32, irtest.Ld(1, f32, []int{1}, 5, nil), irtest.Cst(f32, 3)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 3 << 20}, {DType: f32, Size: 3<<20 + 5}}}, 0},
		// Streamed rows whose chunks start off a 64-byte line and end inside
		// a block (heads and tails), for 8- and 1-byte outputs too.
		{"streamed relu odd", &ir.Kernel{Name: "E_big_odd", Shape: []int{3<<20 + 37}, Expr: irtest.Un(ir.OpRelu, f32, irtest.Bin(ir.OpAdd, f32, irtest.Ld(1, f32, []int{1}, 3, nil), irtest.Cst(f32, -0.5))),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 3<<20 + 37}, {DType: f32, Size: 3<<20 + 40}}}, 0},
		{"streamed f64 rows", &ir.Kernel{Name: "E_big_rows", Shape: []int{2, 1<<20 + 300}, Expr: irtest.Bin(ir.OpMax, f64, irtest.Ld(1, f64, []int{1<<20 + 300, 1}, 0, nil), irtest.Ld(2, f64, []int{0, 1}, 0, nil)),
			Bufs: []ir.BufferSpec{{DType: f64, Size: 2 * (1<<20 + 300)}, {DType: f64, Size: 2 * (1<<20 + 300)}, {DType: f64, Size: 1<<20 + 300}}}, 0},
		{"streamed bool", &ir.Kernel{Name: "E_big_lt", Shape: []int{3<<20 + 1}, Expr: irtest.Bin(ir.OpLt, ir.Bool, irtest.Ld(1, f32, []int{1}, 0, nil), irtest.Cst(f32, 0.25)),
			Bufs: []ir.BufferSpec{{DType: ir.Bool, Size: 3<<20 + 1}, {DType: f32, Size: 3<<20 + 1}}}, 0},
		{"broadcast row", &ir.Kernel{Name: "E_3_4", Shape: []int{3, 4},
			Expr: irtest.Bin(ir.OpSub, f32, irtest.Ld(1, f32, []int{4, 1}, 0, nil), irtest.Ld(2, f32, []int{0, 1}, 0, nil)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 12}, {DType: f32, Size: 12}, {DType: f32, Size: 4}}}, 0},
		{"flip", &ir.Kernel{Name: "E_flip", Shape: []int{37}, Expr: irtest.Un(ir.OpNeg, f32, irtest.Ld(1, f32, []int{-1}, 36, nil)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 37}, {DType: f32, Size: 37}}}, 0},
		{"pad mask", &ir.Kernel{Name: "E_pad", Shape: []int{4, 6}, Expr: irtest.Bin(ir.OpAdd, f32, irtest.Ld(1, f32, []int{4, 1}, -1, [][2]int{{0, 4}, {1, 5}}), irtest.Cst(f32, 0.5)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 24}, {DType: f32, Size: 16}}}, 0},
		{"transpose", &ir.Kernel{Name: "E_T", Shape: []int{4, 3}, Expr: irtest.Un(ir.OpSqrt, f32, irtest.Ld(1, f32, []int{1, 4}, 0, nil)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 12}, {DType: f32, Size: 12}}}, 0},
		{"sum last axis", &ir.Kernel{Name: "R_5_7", Shape: []int{5, 7}, ReduceAxes: []int{1}, Reduce: ir.ReduceSum,
			Expr: irtest.Ld(1, f32, []int{7, 1}, 0, nil), Bufs: []ir.BufferSpec{{DType: f32, Size: 5}, {DType: f32, Size: 35}}}, 0},
		{"max first axis", &ir.Kernel{Name: "R_7_130", Shape: []int{7, 130}, ReduceAxes: []int{0}, Reduce: ir.ReduceMax,
			Expr: irtest.Ld(1, f32, []int{130, 1}, 0, nil), Bufs: []ir.BufferSpec{{DType: f32, Size: 130}, {DType: f32, Size: 910}}}, 0},
		{"min all", &ir.Kernel{Name: "R_all", Shape: []int{10, 10}, ReduceAxes: []int{0, 1}, Reduce: ir.ReduceMin,
			Expr: irtest.Bin(ir.OpMul, f64, irtest.Ld(1, f64, []int{10, 1}, 0, nil), irtest.Cst(f64, -3)), Bufs: []ir.BufferSpec{{DType: f64, Size: 1}, {DType: f64, Size: 100}}}, 0},
		{"matmul", matmul, 0},
		{"max vector tiles", &ir.Kernel{Name: "R_9_192", Shape: []int{9, 192}, ReduceAxes: []int{0}, Reduce: ir.ReduceMax,
			Expr: irtest.Bin(ir.OpMin, f32, irtest.Un(ir.OpRelu, f32, irtest.Bin(ir.OpSub, f32, irtest.Ld(1, f32, []int{192, 1}, 0, nil), irtest.Cst(f32, 0.5))), irtest.Ld(2, f32, []int{0, 1}, 0, nil)),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 192}, {DType: f32, Size: 9 * 192}, {DType: f32, Size: 192}}}, 0},
		{"min f64 vector tiles", &ir.Kernel{Name: "R_5_3_128", Shape: []int{5, 3, 128}, ReduceAxes: []int{1}, Reduce: ir.ReduceMin,
			Expr: irtest.Bin(ir.OpMax, f64, irtest.Ld(1, f64, []int{384, 128, 1}, 0, nil), irtest.Cst(f64, -1)),
			Bufs: []ir.BufferSpec{{DType: f64, Size: 5 * 128}, {DType: f64, Size: 5 * 384}}}, 0},
		{"sum f64 axis 0 padded", &ir.Kernel{Name: "R_pad", Shape: []int{5, 130}, ReduceAxes: []int{0}, Reduce: ir.ReduceSum,
			Expr: irtest.Bin(ir.OpSub, f64, irtest.Ld(1, f64, []int{130, 1}, -130, [][2]int{{1, 5}, {0, 130}}), irtest.Un(ir.OpNeg, f64, irtest.Ld(2, f64, []int{0, 1}, 0, nil))),
			Bufs: []ir.BufferSpec{{DType: f64, Size: 130}, {DType: f64, Size: 520}, {DType: f64, Size: 130}}}, 0},
		{"compare where", &ir.Kernel{Name: "E_where", Shape: []int{50},
			Expr: &ir.Node{Op: ir.OpWhere, DType: f32, Src: []*ir.Node{irtest.Bin(ir.OpGt, ir.Bool, a, irtest.Cst(f32, 0)), a, irtest.Un(ir.OpExp, f32, a)}},
			Bufs: []ir.BufferSpec{{DType: f32, Size: 50}, {DType: f32, Size: 50}}}, 2e-7},
		{"bool out", &ir.Kernel{Name: "E_lt", Shape: []int{50}, Expr: irtest.Bin(ir.OpLt, ir.Bool, a, irtest.Cst(f32, 0.25)),
			Bufs: []ir.BufferSpec{{DType: ir.Bool, Size: 50}, {DType: f32, Size: 50}}}, 0},
		{"int32 div", &ir.Kernel{Name: "E_idiv", Shape: []int{40},
			Expr: irtest.Bin(ir.OpDiv, i32, irtest.Un(ir.OpCast, i32, irtest.Ld(1, f32, []int{1}, 0, nil)), irtest.Cst(i32, 0)),
			Bufs: []ir.BufferSpec{{DType: i32, Size: 40}, {DType: f32, Size: 40}}}, 0},
		{"libm", &ir.Kernel{Name: "E_libm", Shape: []int{64}, Expr: irtest.Bin(ir.OpMax, f32, irtest.Un(ir.OpTanh, f32, a), irtest.Un(ir.OpSigmoid, f32, irtest.Un(ir.OpLog, f32, irtest.Un(ir.OpAbs, f32, a)))),
			Bufs: []ir.BufferSpec{{DType: f32, Size: 64}, {DType: f32, Size: 64}}}, 4e-7},
		{"scalar", &ir.Kernel{Name: "E_scalar", Shape: []int{}, Expr: irtest.Bin(ir.OpPow, f64, irtest.Ld(1, f64, []int{}, 0, nil), irtest.Cst(f64, 2)),
			Bufs: []ir.BufferSpec{{DType: f64, Size: 1}, {DType: f64, Size: 1}}}, 1e-15},
		{"empty", &ir.Kernel{Name: "E_0", Shape: []int{0}, Expr: a, Bufs: []ir.BufferSpec{{DType: f32, Size: 0}, {DType: f32, Size: 0}}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := make([][]float64, len(tt.k.Bufs))
			for i, b := range tt.k.Bufs[1:] {
				in[i+1] = irtest.Data(b, i)
			}
			want := irtest.Eval(tt.k, in)
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
	k := &ir.Kernel{Name: "E_bad", Shape: []int{4}, Expr: &ir.Node{Op: ir.Op(255), DType: ir.Float32}, Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: 4}}}
	_, err := Device{}.Compile(k)
	if err == nil || !strings.Contains(err.Error(), "unsupported op") || !strings.Contains(err.Error(), "E_bad") {
		t.Errorf("Compile of an unsupported op: error %v, want one naming the kernel and the op", err)
	}
}

// LaunchBatch computes what one Launch per launch computes.
func TestCPURunBatchMatchesRun(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	dev := Device{}
	a := irtest.Ld(1, ir.Float32, []int{1}, 0, nil)
	k := &ir.Kernel{Name: "E_batch", Shape: []int{100}, Expr: irtest.Bin(ir.OpAdd, ir.Float32, irtest.Bin(ir.OpMul, ir.Float32, a, irtest.Cst(ir.Float32, 2)), irtest.Cst(ir.Float32, 1)),
		Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: 100}, {DType: ir.Float32, Size: 100}}}
	p, err := dev.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	bufs := make([]device.Memory, 4)
	for i := range bufs {
		if bufs[i], err = dev.Alloc(ir.Float32, 100); err != nil {
			t.Fatal(err)
		}
		defer dev.Free(bufs[i])
	}
	bytes := func(m device.Memory) []byte { return m.(*Memory).Bytes() }
	irtest.Put(bytes(bufs[0]), ir.Float32, irtest.Data(ir.BufferSpec{DType: ir.Float32, Size: 100}, 3))
	mems := [][]device.Memory{{bufs[1], bufs[0]}, {bufs[2], bufs[1]}, {bufs[3], bufs[2]}}
	q := dev.Queue().(device.BatchLauncher)
	if !q.LaunchBatch([]device.Program{p, p, p}, mems, []device.Dims{p.Dims(), p.Dims(), p.Dims()}, nil) {
		t.Fatal("LaunchBatch refused CPU programs")
	}
	in := irtest.Get(bytes(bufs[0]), ir.Float32, 100)
	got := irtest.Get(bytes(bufs[3]), ir.Float32, 100)
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
	err := Backend{}.Available()
	if err != nil && !errors.Is(err, native.ErrUnavailable) {
		t.Errorf("Available() = %v, want nil or native.ErrUnavailable", err)
	}
}

// cpuRun compiles k on the CPU backend and runs it in three uneven ranges.
func cpuRun(t *testing.T, k *ir.Kernel, in [][]float64) ([]float64, string) {
	t.Helper()
	dev := Device{}
	mems := make([]device.Memory, len(k.Bufs))
	for i, b := range k.Bufs {
		m, err := dev.Alloc(b.DType, b.Size)
		if err != nil {
			t.Fatal(err)
		}
		defer dev.Free(m)
		mems[i] = m
		if i > 0 {
			irtest.Put(m.(*Memory).Bytes(), b.DType, in[i])
		}
	}
	p, err := dev.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	n := k.OutSize()
	cuts := []int{0, n / 3, n/3 + n/5, n}
	for c := 0; c+1 < len(cuts); c++ {
		p.(*Program).Run(mems, cuts[c], cuts[c+1])
	}
	return irtest.Get(mems[0].(*Memory).Bytes(), k.Bufs[0].DType, k.Bufs[0].Size), p.Source()
}
