package cpu

import (
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
	"github.com/tick-kernel/tick/runtime/native"
	"github.com/tick-kernel/tick/runtime/render"
)

// cpuBench compiles k on the CPU backend with buffers from its allocator
// and returns a function launching it through the device's queue.
func cpuBench(b *testing.B, k *ir.Kernel) func() { return cpuBenchWith(b, k, renderer()) }

// cpuBenchWith is cpuBench with the C rendered by rc.
func cpuBenchWith(b *testing.B, k *ir.Kernel, rc render.C) func() {
	p, mems := cpuSetup(b, k, rc)
	q := Device{}.Queue()
	return func() {
		if err := q.Launch(p, mems, p.Dims()); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuSetup compiles k with rc and allocates its buffers, the inputs
// written.
func cpuSetup(b *testing.B, k *ir.Kernel, rc render.C) (device.Program, []device.Memory) {
	if err := native.Available(); err != nil {
		b.Skip(err)
	}
	dev := Device{}
	mems := make([]device.Memory, len(k.Bufs))
	for i, s := range k.Bufs {
		m, err := dev.Alloc(s.DType, s.Size)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { dev.Free(m) })
		mems[i] = m
		if i > 0 { // inputs written, so reads reach memory (untouched pages all map the one zero page)
			bs := m.(*Memory).Bytes()
			for j := range bs {
				bs[j] = 0x3f // float32 0.747…
			}
		}
	}
	p, err := compile(k, rc)
	if err != nil {
		b.Fatal(err)
	}
	return p, mems
}

const benchN = 16 << 20

// BenchmarkCPUAffine16M is fused a*2+1 over 16M float32 (SetBytes: read+write).
func BenchmarkCPUAffine16M(b *testing.B) {
	a := irtest.Ld(1, ir.Float32, []int{1}, 0, nil)
	run := cpuBench(b, &ir.Kernel{Name: "E_affine", Shape: []int{benchN},
		Expr: irtest.Bin(ir.OpAdd, ir.Float32, irtest.Bin(ir.OpMul, ir.Float32, a, irtest.Cst(ir.Float32, 2)), irtest.Cst(ir.Float32, 1)),
		Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: benchN}, {DType: ir.Float32, Size: benchN}}})
	b.SetBytes(2 * 4 * benchN)
	for b.Loop() {
		run()
	}
}

// BenchmarkGoCopy16M is Go's copy of the same bytes, the bandwidth reference.
func BenchmarkGoCopy16M(b *testing.B) {
	src, dst := make([]float32, benchN), make([]float32, benchN)
	b.SetBytes(2 * 4 * benchN)
	for b.Loop() {
		copy(dst, src)
	}
}

const mmN = 1024

// BenchmarkCPUMatmul1024 is float32 C = A·B as one reduce kernel (FLOPs = 2n³).
func BenchmarkCPUMatmul1024(b *testing.B) {
	run := cpuBench(b, &ir.Kernel{Name: "R_matmul", Shape: []int{mmN, mmN, mmN}, ReduceAxes: []int{2}, Reduce: ir.ReduceSum,
		Expr: irtest.Bin(ir.OpMul, ir.Float32, irtest.Ld(1, ir.Float32, []int{mmN, 0, 1}, 0, nil), irtest.Ld(2, ir.Float32, []int{0, 1, mmN}, 0, nil)),
		Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: mmN * mmN}, {DType: ir.Float32, Size: mmN * mmN}, {DType: ir.Float32, Size: mmN * mmN}}})
	b.ReportMetric(0, "ns/op")
	for b.Loop() {
		run()
	}
	b.ReportMetric(2*mmN*mmN*mmN*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkGonumSgemm1024 is gonum's pure-Go float32 GEMM on the same sizes.
func BenchmarkGonumSgemm1024(b *testing.B) {
	mk := func() blas32.General {
		return blas32.General{Rows: mmN, Cols: mmN, Stride: mmN, Data: make([]float32, mmN*mmN)}
	}
	x, y, z := mk(), mk(), mk()
	for i := range x.Data {
		x.Data[i], y.Data[i] = float32(i%7), float32(i%5)
	}
	for b.Loop() {
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, x, y, 0, z)
	}
	b.ReportMetric(2*mmN*mmN*mmN*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkCPULaunchTiny is one launch of a 256-element kernel through
// the queue's Launch: the per-kernel cost a JIT replay pays on this backend.
func BenchmarkCPULaunchTiny(b *testing.B) {
	a := irtest.Ld(1, ir.Float32, []int{1}, 0, nil)
	run := cpuBench(b, &ir.Kernel{Name: "E_256", Shape: []int{256},
		Expr: irtest.Bin(ir.OpAdd, ir.Float32, irtest.Bin(ir.OpMul, ir.Float32, a, irtest.Cst(ir.Float32, 2)), irtest.Cst(ir.Float32, 1)),
		Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: 256}, {DType: ir.Float32, Size: 256}}})
	for b.Loop() {
		run()
	}
}

// BenchmarkCPUAffineVsCopy interleaves the fused a*2+1 kernel and Go's copy
// of the same bytes in one loop, so both see the same machine load, and
// reports both bandwidths and their ratio (target ≥ 0.8).
func BenchmarkCPUAffineVsCopy(b *testing.B) {
	a := irtest.Ld(1, ir.Float32, []int{1}, 0, nil)
	run := cpuBench(b, &ir.Kernel{Name: "E_affine", Shape: []int{benchN},
		Expr: irtest.Bin(ir.OpAdd, ir.Float32, irtest.Bin(ir.OpMul, ir.Float32, a, irtest.Cst(ir.Float32, 2)), irtest.Cst(ir.Float32, 1)),
		Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: benchN}, {DType: ir.Float32, Size: benchN}}})
	src, dst := make([]float32, benchN), make([]float32, benchN)
	copy(dst, src)
	var tk, tc time.Duration
	for b.Loop() {
		t0 := time.Now()
		run()
		t1 := time.Now()
		copy(dst, src)
		tk, tc = tk+t1.Sub(t0), tc+time.Since(t1)
	}
	bytes := float64(2*4*benchN) * float64(b.N)
	b.ReportMetric(bytes/tk.Seconds()/1e9, "kernel_GB/s")
	b.ReportMetric(bytes/tc.Seconds()/1e9, "copy_GB/s")
	b.ReportMetric(tc.Seconds()/tk.Seconds(), "x_copy")
}

// BenchmarkCPUMatmulVsGonum interleaves the CPU matmul kernel and gonum's
// Sgemm on 1024×1024 float32 and reports the speedup (target ≥ 3).
func BenchmarkCPUMatmulVsGonum(b *testing.B) {
	run := cpuBench(b, &ir.Kernel{Name: "R_matmul", Shape: []int{mmN, mmN, mmN}, ReduceAxes: []int{2}, Reduce: ir.ReduceSum,
		Expr: irtest.Bin(ir.OpMul, ir.Float32, irtest.Ld(1, ir.Float32, []int{mmN, 0, 1}, 0, nil), irtest.Ld(2, ir.Float32, []int{0, 1, mmN}, 0, nil)),
		Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: mmN * mmN}, {DType: ir.Float32, Size: mmN * mmN}, {DType: ir.Float32, Size: mmN * mmN}}})
	mk := func() blas32.General {
		return blas32.General{Rows: mmN, Cols: mmN, Stride: mmN, Data: make([]float32, mmN*mmN)}
	}
	x, y, z := mk(), mk(), mk()
	for i := range x.Data { // nonzero: gonum skips zero elements of A
		x.Data[i], y.Data[i] = float32(i%7)+1, float32(i%5)+1
	}
	var tk, tg time.Duration
	for b.Loop() {
		t0 := time.Now()
		run()
		t1 := time.Now()
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, x, y, 0, z)
		tk, tg = tk+t1.Sub(t0), tg+time.Since(t1)
	}
	flops := 2 * float64(mmN*mmN*mmN) * float64(b.N)
	b.ReportMetric(flops/tk.Seconds()/1e9, "kernel_GFLOP/s")
	b.ReportMetric(flops/tg.Seconds()/1e9, "gonum_GFLOP/s")
	b.ReportMetric(tg.Seconds()/tk.Seconds(), "x_gonum")
}

// BenchmarkCPUReplay10 runs ten 256-element kernels the way a JIT replay
// does: one Launch per kernel ("per_launch"), or one LaunchBatch for all
// ten ("batched"); ns/op is per kernel.
func BenchmarkCPUReplay10(b *testing.B) {
	if err := native.Available(); err != nil {
		b.Skip(err)
	}
	dev := Device{}
	a := irtest.Ld(1, ir.Float32, []int{1}, 0, nil)
	k := &ir.Kernel{Name: "E_256", Shape: []int{256},
		Expr: irtest.Bin(ir.OpAdd, ir.Float32, irtest.Bin(ir.OpMul, ir.Float32, a, irtest.Cst(ir.Float32, 1.0001)), irtest.Cst(ir.Float32, 0.5)),
		Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: 256}, {DType: ir.Float32, Size: 256}}}
	p, err := dev.Compile(k)
	if err != nil {
		b.Fatal(err)
	}
	progs, mems, dims := make([]device.Program, 10), make([][]device.Memory, 10), make([]device.Dims, 10)
	bufs := make([]device.Memory, 11)
	for i := range bufs {
		if bufs[i], err = dev.Alloc(ir.Float32, 256); err != nil {
			b.Fatal(err)
		}
		m := bufs[i]
		b.Cleanup(func() { dev.Free(m) })
	}
	for i := range progs {
		progs[i], mems[i], dims[i] = p, []device.Memory{bufs[i+1], bufs[i]}, p.Dims()
	}
	q := dev.Queue()
	b.Run("per_launch", func(b *testing.B) {
		for i := 0; i < b.N; i += 10 {
			for j, pr := range progs {
				if err := q.Launch(pr, mems[j], dims[j]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("batched", func(b *testing.B) {
		for i := 0; i < b.N; i += 10 {
			if !q.(device.BatchLauncher).LaunchBatch(progs, mems, dims, nil) {
				b.Fatal("LaunchBatch refused CPU programs")
			}
		}
	})
}

// BenchmarkCPUGemmVsReduce: the packed GEMM against the generic reduce
// rendering of the same 1024³ contraction, alternating in one loop.
func BenchmarkCPUGemmVsReduce(b *testing.B) {
	k := gemmKernel(1, mmN, mmN, mmN, false)
	gemm := cpuBench(b, k)
	k2 := gemmKernel(1, mmN, mmN, mmN, false)
	k2.Name += "_reduce"
	reduce := cpuBenchWith(b, k2, render.C{FMA: fma(), NoGemm: true})
	var tg, tr time.Duration
	for b.Loop() {
		t0 := time.Now()
		gemm()
		tg += time.Since(t0)
		t0 = time.Now()
		reduce()
		tr += time.Since(t0)
	}
	flop := 2 * float64(mmN*mmN*mmN) * float64(b.N)
	b.ReportMetric(flop/tg.Seconds()/1e9, "gemm_GFLOP/s")
	b.ReportMetric(flop/tr.Seconds()/1e9, "reduce_GFLOP/s")
}

// BenchmarkCPUAxis0Fold is Sum(0) and Max(0) of a 4096×4096 float32 matrix
// (rows 16 KB apart) and of a 512×512 one (render.rowBand folds them in bands of rows; SetBytes:
// the matrix read).
//
//	go test -run '^$' -bench CPUAxis0Fold -cpu 1 -count 5 ./runtime/backend/cpu/
func BenchmarkCPUAxis0Fold(b *testing.B) {
	for _, c := range []struct {
		n   int
		rop ir.ReduceOp
	}{{4096, ir.ReduceSum}, {4096, ir.ReduceMax}, {512, ir.ReduceSum}, {512, ir.ReduceMax}} {
		n, rop := c.n, c.rop
		b.Run(fmt.Sprintf("%s %dx%d", rop, n, n), func(b *testing.B) {
			run := cpuBench(b, &ir.Kernel{Name: "R_axis0", Shape: []int{n, n}, ReduceAxes: []int{0}, Reduce: rop,
				Expr: irtest.Ld(1, ir.Float32, []int{n, 1}, 0, nil),
				Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: n}, {DType: ir.Float32, Size: n * n}}})
			b.SetBytes(int64(4 * n * n))
			for b.Loop() {
				run()
			}
		})
	}
}

// BenchmarkCPUGemmSmall is the float32 matmul of two n×n matrices through
// the device's queue (a launch: the split decision, the cgo call and the
// kernel), at the sizes issue 30 compares with OpenBLAS (GFLOP/s per call).
//
//	go test -run '^$' -bench CPUGemmSmall -cpu 1,2 -count 5 ./runtime/backend/cpu/
func BenchmarkCPUGemmSmall(b *testing.B) {
	for _, n := range []int{64, 128, 256} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			run := cpuBench(b, gemmKernel(1, n, n, n, false))
			for b.Loop() {
				run()
			}
			b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkCPUSplit is a long launch split across threads two ways, side
// by side: on the C kernels' own threads (pool: the CPU device's way,
// native.Kernel.CallSplit) and on the host's helper goroutines
// (goroutines: the program behind an interface without RunSplit). On
// goroutines every P is in a cgo call while the launch runs, and Go's
// sysmon, taking one back, wakes every 20 µs and preempts one of the
// threads computing. The float32 matmul of two n×n matrices (GFLOP/s per
// call) and Sum(0) of a 4096×4096 matrix (MB/s read). Run with -cpu 2.
//
//	go test -run '^$' -bench CPUSplit -cpu 2 -count 5 ./runtime/backend/cpu/
func BenchmarkCPUSplit(b *testing.B) {
	type launch struct {
		name  string
		k     *ir.Kernel
		flops int
		bytes int64
	}
	var ls []launch
	for _, n := range []int{256, 512, 1024} {
		ls = append(ls, launch{name: fmt.Sprintf("matmul %d", n), k: gemmKernel(1, n, n, n, false), flops: 2 * n * n * n})
	}
	const n = 4096
	ls = append(ls, launch{name: "sum axis 0 4096x4096", bytes: 4 * n * n, k: &ir.Kernel{Name: "R_axis0", Shape: []int{n, n}, ReduceAxes: []int{0}, Reduce: ir.ReduceSum,
		Expr: irtest.Ld(1, ir.Float32, []int{n, 1}, 0, nil),
		Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: n}, {DType: ir.Float32, Size: n * n}}}})
	for _, l := range ls {
		for _, way := range []string{"pool", "goroutines"} {
			b.Run(l.name+"/"+way, func(b *testing.B) {
				p, mems := cpuSetup(b, l.k, renderer())
				hp := p.(host.Program)
				if way == "goroutines" {
					hp = goroutinesOnly{hp}
				}
				d := p.Dims()
				b.SetBytes(l.bytes)
				for b.Loop() {
					host.Split(hp, mems, d.Items(), hp.Work(), d.Local[0])
				}
				if l.flops > 0 {
					b.ReportMetric(float64(l.flops)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				}
			})
		}
	}
}

// goroutinesOnly hides a program's RunSplit from host.Split.
type goroutinesOnly struct{ host.Program }

// BenchmarkCPURowFold is the fold of each row of a float32 n×n matrix
// (Sum(1), Max(1), Min(1): render.reduceTransposed's layouts; SetBytes: the
// matrix read), the cases of issue 30's row max and min.
//
//	go test -run '^$' -bench CPURowFold -cpu 1 -count 5 ./runtime/backend/cpu/
func BenchmarkCPURowFold(b *testing.B) {
	for _, n := range []int{512, 4096} {
		for _, rop := range []ir.ReduceOp{ir.ReduceSum, ir.ReduceMax, ir.ReduceMin} {
			b.Run(fmt.Sprintf("%s %dx%d", rop, n, n), func(b *testing.B) {
				run := cpuBench(b, &ir.Kernel{Name: "R_rows", Shape: []int{n, n}, ReduceAxes: []int{1}, Reduce: rop,
					Expr: irtest.Ld(1, ir.Float32, []int{n, 1}, 0, nil),
					Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: n}, {DType: ir.Float32, Size: n * n}}})
				b.SetBytes(int64(4 * n * n))
				for b.Loop() {
					run()
				}
			})
		}
	}
}
