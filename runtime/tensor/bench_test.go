package tensor

// Benchmarks for docs/benchmarks.md ("Runtime"). Each comparison is measured
// side by side inside one benchmark and reported as a ratio metric:
//
//	go test ./runtime/tensor/ -run '^$' -bench . -benchtime 3x

import (
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

func benchDevices(b *testing.B) []string {
	var out []string
	for _, n := range AvailableBackends() {
		if n == "GO" || n == "CPU" {
			out = append(out, n)
		}
	}
	return out
}

func setDev(b *testing.B, dev string) {
	prev := DefaultDevice()
	if err := SetDefaultDevice(dev); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = SetDefaultDevice(prev) })
}

// BenchmarkFusedVsCopy: a*2+1 on 16M float32 (one fused kernel, replayed by
// a JIT so no allocation is timed) against Go's copy of the same bytes.
// Metric "ratio" is copy time / kernel time (≥ 0.5 is the target).
func BenchmarkFusedVsCopy(b *testing.B) {
	const n = 16 << 20
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x := RandSeed(1, n).Realize()
			step := JIT(func(in ...*Tensor) *Tensor { return in[0].Mul(2).Add(1).Realize() })
			step.Call(x)
			step.Call(x)
			_ = SynchronizeAll()
			src, dst := make([]float32, n), make([]float32, n)
			copy(dst, src)
			var tCopy, tKern time.Duration
			b.SetBytes(n * 4 * 2)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				copy(dst, src)
				tCopy += time.Since(t0)
				t0 = time.Now()
				step.Call(x)
				_ = SynchronizeAll()
				tKern += time.Since(t0)
			}
			b.ReportMetric(float64(2*n*4*b.N)/tKern.Seconds()/1e9, "kernel_GB/s")
			b.ReportMetric(float64(2*n*4*b.N)/tCopy.Seconds()/1e9, "copy_GB/s")
			b.ReportMetric(tCopy.Seconds()/tKern.Seconds(), "ratio")
		})
	}
}

// tenKernelStep realizes after each op so one call launches 10 kernels.
func tenKernelStep(in ...*Tensor) *Tensor {
	x := in[0]
	for k := 0; k < 10; k++ {
		x = x.Mul(1.0001).Add(0.5).Realize()
	}
	return x
}

// BenchmarkJITReplayVsEager: a 10-kernel step on 256-element tensors, 100
// calls then one synchronize; metrics are per call and per kernel.
func BenchmarkJITReplayVsEager(b *testing.B) {
	const calls = 100
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x := RandSeed(2, 256).Realize()
			step := JIT(tenKernelStep)
			step.Call(x)
			step.Call(x)
			tenKernelStep(x)
			_ = SynchronizeAll()
			var tEager, tReplay time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				for c := 0; c < calls; c++ {
					tenKernelStep(x)
				}
				_ = SynchronizeAll()
				tEager += time.Since(t0)
				t0 = time.Now()
				for c := 0; c < calls; c++ {
					step.Call(x)
				}
				_ = SynchronizeAll()
				tReplay += time.Since(t0)
			}
			per := float64(b.N * calls)
			b.ReportMetric(float64(tEager.Nanoseconds())/per, "eager_ns/call")
			b.ReportMetric(float64(tReplay.Nanoseconds())/per, "replay_ns/call")
			b.ReportMetric(float64(tReplay.Nanoseconds())/per/10, "replay_ns/kernel")
			b.ReportMetric(tEager.Seconds()/tReplay.Seconds(), "speedup")
		})
	}
}

// BenchmarkMatmul: float32 square matmul against gonum's pure-Go BLAS
// (blas32.Gemm), alternating in one loop. "ratio" is gonum time / tick time
// (≥ 1.0 is the target).
func BenchmarkMatmul(b *testing.B) {
	for _, n := range []int{512, 1024} {
		for _, dev := range benchDevices(b) {
			b.Run(fmt.Sprintf("%d/%s", n, dev), func(b *testing.B) {
				setDev(b, dev)
				av, bv := randF32ForBench(n*n, 1), randF32ForBench(n*n, 2)
				A, B := FromFloat32s(av, n, n).Realize(), FromFloat32s(bv, n, n).Realize()
				mm := JIT(func(in ...*Tensor) *Tensor { return in[0].Matmul(in[1]).Realize() })
				mm.Call(A, B)
				mm.Call(A, B)
				_ = SynchronizeAll()
				c := make([]float32, n*n)
				ga := blas32.General{Rows: n, Cols: n, Stride: n, Data: av}
				gb := blas32.General{Rows: n, Cols: n, Stride: n, Data: bv}
				gc := blas32.General{Rows: n, Cols: n, Stride: n, Data: c}
				var tTick, tGonum time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, ga, gb, 0, gc)
					tGonum += time.Since(t0)
					t0 = time.Now()
					mm.Call(A, B)
					_ = SynchronizeAll()
					tTick += time.Since(t0)
				}
				flop := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
				b.ReportMetric(flop/tTick.Seconds()/1e9, "tick_GFLOP/s")
				b.ReportMetric(flop/tGonum.Seconds()/1e9, "gonum_GFLOP/s")
				b.ReportMetric(tGonum.Seconds()/tTick.Seconds(), "ratio")
			})
		}
	}
}

func randF32ForBench(n int, seed int64) []float32 {
	return RandSeed(seed, n).Float32s()
}

func nowNS() float64 { return float64(time.Now().UnixNano()) }

// BenchmarkJITReplayTutorial: the tutorial's step (a*2+1 on 256 float32)
// replayed and synchronized per op, with allocations reported (0 allocs/op
// is the target: the timing magic warns when the GC runs while timing).
func BenchmarkJITReplayTutorial(b *testing.B) {
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x := Arange(256).Realize()
			d := Device(dev)
			step := JIT(func(a ...*Tensor) *Tensor { return a[0].Mul(2).Add(1).Realize() })
			step.Call(x)
			step.Call(x)
			_ = d.Synchronize()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				step.Call(x)
				_ = d.Synchronize()
			}
		})
	}
}
