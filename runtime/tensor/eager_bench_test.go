package tensor

// Benchmarks of the eager dispatch path (docs/benchmarks.md, "Eager
// dispatch overhead"): the host cost of one small op from the tensor call
// to the enqueued kernel, with allocations reported.
//
//	go test ./runtime/tensor -run '^$' -bench 'Eager' -benchmem -count 5

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// cpuClock reports the process's CPU time (user + system, all threads: the
// caller, the device worker and the garbage collector), which a loaded
// machine inflates less than wall time; ReportMetric it per op.
type cpuClock struct{ t0 time.Duration }

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU(b *testing.B) *cpuClock {
	b.ResetTimer()
	return &cpuClock{t0: processCPU()}
}

func (c *cpuClock) report(b *testing.B, ops int) {
	b.ReportMetric(float64((processCPU()-c.t0).Nanoseconds())/float64(ops), "cpu-ns/op")
}

// eagerBatch ops are enqueued between synchronizations, as bench/cpubench's
// "eager op" row does (200 ops, one sync): the figure is host overhead per
// op, with the device draining the queue concurrently.
const eagerBatch = 100

// BenchmarkEagerOp: x.Add(1).Realize() on 256 float32, the issue's "eager
// op"; one op per iteration, a synchronize every eagerBatch ops.
func BenchmarkEagerOp(b *testing.B) {
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x := benchData(6, 256).Realize()
			d := Device(dev)
			for range 3 {
				x.Add(1).Realize()
			}
			_ = d.Synchronize()
			b.ReportAllocs()
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				x.Add(1).Realize()
				if i%eagerBatch == eagerBatch-1 {
					_ = d.Synchronize()
				}
			}
			_ = d.Synchronize()
			c.report(b, b.N)
		})
	}
}

// BenchmarkEagerAddSync: a.Add(b).Realize() on two 256-element tensors,
// synchronized after every op (numpy's op is synchronous).
func BenchmarkEagerAddSync(b *testing.B) {
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x, y := benchData(6, 256).Realize(), benchData(7, 256).Realize()
			d := Device(dev)
			x.Add(y).Realize()
			_ = d.Synchronize()
			b.ReportAllocs()
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				x.Add(y).Realize()
				_ = d.Synchronize()
			}
			c.report(b, b.N)
		})
	}
}

// BenchmarkEagerChain3: three eager ops, each realized, each reading the
// previous result; metric ns/eager-op is per op.
func BenchmarkEagerChain3(b *testing.B) {
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x := benchData(6, 256).Realize()
			d := Device(dev)
			chain := func() *Tensor { return x.Add(1).Realize().Mul(2).Realize().Sub(3).Realize() }
			chain()
			_ = d.Synchronize()
			b.ReportAllocs()
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				chain()
				if i%eagerBatch == eagerBatch-1 {
					_ = d.Synchronize()
				}
			}
			_ = d.Synchronize()
			c.report(b, 3*b.N)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(3*b.N), "ns/eager-op")
		})
	}
}

// BenchmarkEagerLarge: x.Add(1).Realize() on 16M float32 synchronized per
// op, the loop TestEagerLoopRunsInBoundedMemory bounds; MB-peak is the
// most device memory in use at once.
func BenchmarkEagerLarge(b *testing.B) {
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x := Arange(16 << 20).Realize()
			d := Device(dev)
			_ = d.Synchronize()
			runtime.GC()
			var peak int64
			b.ReportAllocs()
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				x.Add(1).Realize()
				_ = d.Synchronize()
				peak = max(peak, counters.memInUse.Load())
			}
			c.report(b, b.N)
			b.ReportMetric(float64(peak)/(1<<20), "MB-peak")
		})
	}
}

// BenchmarkJITReplayKernel: the 10-kernel step of BenchmarkJITReplayVsEager
// replayed alone (no eager phase between), 100 calls then a synchronize;
// ns/kernel is per replayed kernel.
func BenchmarkJITReplayKernel(b *testing.B) {
	const calls = 100
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x := benchData(2, 256).Realize()
			step := JIT(tenKernelStep)
			step.Call(x)
			step.Call(x)
			_ = SynchronizeAll()
			b.ReportAllocs()
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				for range calls {
					step.Call(x)
				}
				_ = SynchronizeAll()
			}
			c.report(b, b.N*calls*10) // cpu-ns per kernel
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls*10), "ns/kernel")
		})
	}
}

// benchData is n float32 in [0, 1) from seed, built without the random
// API (bench/eager.sh compiles this file against older commits too).
func benchData(seed uint32, n int) *Tensor {
	v := make([]float32, n)
	s := seed*2654435761 + 1
	for i := range v {
		s = s*1664525 + 1013904223
		v[i] = float32(s>>8) / (1 << 24)
	}
	return FromFloat32s(v, n)
}
