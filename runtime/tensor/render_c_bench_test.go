package tensor

import (
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/tick-kernel/tick/runtime/native"
)

// cpuBench compiles k on the CPU backend with zero-filled buffers and
// returns a function launching it through the runtime's splitter.
func cpuBench(b *testing.B, k *Kernel) func() {
	if err := native.Available(); err != nil {
		b.Skip(err)
	}
	be := cpuBackend{}
	mems := make([]Memory, len(k.Bufs))
	for i, s := range k.Bufs {
		m, err := be.Alloc(s.DType, s.Size)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(m.Free)
		mems[i] = m
	}
	p, err := be.Compile(k)
	if err != nil {
		b.Fatal(err)
	}
	n, per := k.OutSize(), k.ReduceSize()
	return func() { runSplit(p, mems, n, per) }
}

const benchN = 16 << 20

// BenchmarkCPUAffine16M is fused a*2+1 over 16M float32 (SetBytes: read+write).
func BenchmarkCPUAffine16M(b *testing.B) {
	a := cpuLd(1, Float32, []int{1}, 0, nil)
	run := cpuBench(b, &Kernel{Name: "E_affine", Shape: []int{benchN},
		Expr: cpuBin(OpAdd, Float32, cpuBin(OpMul, Float32, a, cpuCst(Float32, 2)), cpuCst(Float32, 1)),
		Bufs: []BufferSpec{{Float32, benchN}, {Float32, benchN}}})
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
	run := cpuBench(b, &Kernel{Name: "R_matmul", Shape: []int{mmN, mmN, mmN}, ReduceAxes: []int{2}, Reduce: ReduceSum,
		Expr: cpuBin(OpMul, Float32, cpuLd(1, Float32, []int{mmN, 0, 1}, 0, nil), cpuLd(2, Float32, []int{0, 1, mmN}, 0, nil)),
		Bufs: []BufferSpec{{Float32, mmN * mmN}, {Float32, mmN * mmN}, {Float32, mmN * mmN}}})
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
// Program.Run: the per-kernel cost a JIT replay pays on this backend.
func BenchmarkCPULaunchTiny(b *testing.B) {
	a := cpuLd(1, Float32, []int{1}, 0, nil)
	run := cpuBench(b, &Kernel{Name: "E_256", Shape: []int{256},
		Expr: cpuBin(OpAdd, Float32, cpuBin(OpMul, Float32, a, cpuCst(Float32, 2)), cpuCst(Float32, 1)),
		Bufs: []BufferSpec{{Float32, 256}, {Float32, 256}}})
	for b.Loop() {
		run()
	}
}

// BenchmarkCPUAffineVsCopy interleaves the fused a*2+1 kernel and Go's copy
// of the same bytes in one loop, so both see the same machine load, and
// reports both bandwidths and their ratio (target ≥ 0.8).
func BenchmarkCPUAffineVsCopy(b *testing.B) {
	a := cpuLd(1, Float32, []int{1}, 0, nil)
	run := cpuBench(b, &Kernel{Name: "E_affine", Shape: []int{benchN},
		Expr: cpuBin(OpAdd, Float32, cpuBin(OpMul, Float32, a, cpuCst(Float32, 2)), cpuCst(Float32, 1)),
		Bufs: []BufferSpec{{Float32, benchN}, {Float32, benchN}}})
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
	run := cpuBench(b, &Kernel{Name: "R_matmul", Shape: []int{mmN, mmN, mmN}, ReduceAxes: []int{2}, Reduce: ReduceSum,
		Expr: cpuBin(OpMul, Float32, cpuLd(1, Float32, []int{mmN, 0, 1}, 0, nil), cpuLd(2, Float32, []int{0, 1, mmN}, 0, nil)),
		Bufs: []BufferSpec{{Float32, mmN * mmN}, {Float32, mmN * mmN}, {Float32, mmN * mmN}}})
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
// does: one Program.Run per launch ("per_launch"), or one RunBatch for all
// ten ("batched"); ns/op is per kernel.
func BenchmarkCPUReplay10(b *testing.B) {
	if err := native.Available(); err != nil {
		b.Skip(err)
	}
	be := cpuBackend{}
	a := cpuLd(1, Float32, []int{1}, 0, nil)
	k := &Kernel{Name: "E_256", Shape: []int{256},
		Expr: cpuBin(OpAdd, Float32, cpuBin(OpMul, Float32, a, cpuCst(Float32, 1.0001)), cpuCst(Float32, 0.5)),
		Bufs: []BufferSpec{{Float32, 256}, {Float32, 256}}}
	p, err := be.Compile(k)
	if err != nil {
		b.Fatal(err)
	}
	progs, mems, sizes := make([]Program, 10), make([][]Memory, 10), make([]int, 10)
	bufs := make([]Memory, 11)
	for i := range bufs {
		if bufs[i], err = be.Alloc(Float32, 256); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(bufs[i].Free)
	}
	for i := range progs {
		progs[i], mems[i], sizes[i] = p, []Memory{bufs[i+1], bufs[i]}, 256
	}
	b.Run("per_launch", func(b *testing.B) {
		for i := 0; i < b.N; i += 10 {
			for j, pr := range progs {
				pr.Run(mems[j], 0, sizes[j])
			}
		}
	})
	b.Run("batched", func(b *testing.B) {
		for i := 0; i < b.N; i += 10 {
			if !be.RunBatch(progs, mems, sizes) {
				b.Fatal("RunBatch refused CPU programs")
			}
		}
	})
}

// BenchmarkCPUCompileCold compiles a typical elementwise kernel (a*c+1 on
// 256 float32, c new each time so neither cache hits) with gcc, alternating
// the source as rendered ("rendered_ms") with the same source plus the
// immintrin.h stream prelude every kernel used to include ("immintrin_ms";
// the streaming loop kernels of short rows also carried is not added back).
func BenchmarkCPUCompileCold(b *testing.B) {
	c, err := native.Default()
	if err != nil {
		b.Skip(err)
	}
	cc, err := native.NewCompiler(native.Options{CacheDir: b.TempDir(), Flags: c.Flags()})
	if err != nil {
		b.Fatal(err)
	}
	base := float64(time.Now().UnixNano() % 1e6)
	var plain, withIntrin time.Duration
	for i := 0; i < b.N; i++ {
		a := cpuLd(1, Float32, []int{1}, 0, nil)
		k := &Kernel{Name: "E_256", Shape: []int{256},
			Expr: cpuBin(OpAdd, Float32, cpuBin(OpMul, Float32, a, cpuCst(Float32, base+float64(i))), cpuCst(Float32, 1)),
			Bufs: []BufferSpec{{Float32, 256}, {Float32, 256}}}
		sym := cSymbol(k)
		src := renderC(k, sym)
		t0 := time.Now()
		if _, err := cc.Compile(src, sym); err != nil {
			b.Fatal(err)
		}
		plain += time.Since(t0)
		t0 = time.Now()
		if _, err := cc.Compile(strings.Replace(src, cPrelude, cPrelude+cStreamPrelude, 1), sym); err != nil {
			b.Fatal(err)
		}
		withIntrin += time.Since(t0)
	}
	b.ReportMetric(plain.Seconds()*1e3/float64(b.N), "rendered_ms")
	b.ReportMetric(withIntrin.Seconds()*1e3/float64(b.N), "immintrin_ms")
	b.ReportMetric(withIntrin.Seconds()/plain.Seconds(), "ratio")
}

// BenchmarkCPUGemmVsReduce: the packed GEMM against the generic reduce
// rendering of the same 1024³ contraction, alternating in one loop.
func BenchmarkCPUGemmVsReduce(b *testing.B) {
	k := gemmKernel(1, mmN, mmN, mmN, false)
	gemm := cpuBench(b, k)
	cGemmOff = true
	k2 := gemmKernel(1, mmN, mmN, mmN, false)
	k2.Name += "_reduce"
	reduce := cpuBench(b, k2)
	cGemmOff = false
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
