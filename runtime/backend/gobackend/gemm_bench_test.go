//go:build linux

package gobackend

import (
	"math"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/tick-kernel/tick/runtime/backend/cpu"
	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
	"github.com/tick-kernel/tick/runtime/native"
)

// BenchmarkGoGemm times the GO device's GEMM and the CPU device's (when
// it is available: a C compiler), alternately, each on the calling
// thread (no queue, no split across threads) over the outputs one of two
// threads computes when the runtime splits the suite's shapes
// (bench/cpubench's matmul cases): the first half of the rows (of the
// batches, when batched). It reports the median of each device's calls'
// thread CPU times as GFLOP/s (what a shared machine's other load changes
// least: preemption is not counted) and GO÷CPU (above 1: GO is faster).
// docs/benchmarks.md, "The GO device's matmul (issue 30, 2026-12-03)".
//
//	go test -run '^$' -bench GoGemm -count 5 ./runtime/backend/gobackend/
func BenchmarkGoGemm(b *testing.B) {
	withCPU := native.Available() == nil
	for _, c := range []struct {
		name           string
		batch, M, N, K int
		aT, bT         bool
	}{
		{"64", 1, 64, 64, 64, false, false},
		{"128", 1, 128, 128, 128, false, false},
		{"256", 1, 256, 256, 256, false, false},
		{"512", 1, 512, 512, 512, false, false},
		{"1024", 1, 1024, 1024, 1024, false, false},
		{"2048", 1, 2048, 2048, 2048, false, false},
		{"batched 32x64x64", 32, 64, 64, 64, false, false},
		{"x.w 128x784.784x256", 1, 128, 256, 784, false, false},
		{"xT.dy 784x128.128x256", 1, 784, 256, 128, true, false},
		{"dy.wT 128x256.256x784", 1, 128, 784, 256, false, true},
		{"tall 16384x64.64x64", 1, 16384, 64, 64, false, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			k := goGemmKernel(c.batch, c.M, c.N, c.K, c.aT, c.bT)
			gp, err := goDevice{}.Compile(k)
			if err != nil {
				b.Fatal(err)
			}
			_, gmems := goGemmData(k)
			var cp host.Program
			var cmems []device.Memory
			if withCPU {
				p, err := cpu.Device{}.Compile(k)
				if err != nil {
					b.Fatal(err)
				}
				cp = p.(host.Program)
				for i, s := range k.Bufs { // the GO device's inputs
					m, err := cpu.Device{}.Alloc(s.DType, s.Size)
					if err != nil {
						b.Fatal(err)
					}
					if i > 0 {
						v := gmems[i].(*goMemory).typed.([]float32)
						if err := (cpu.Device{}).CopyIn(m, 0, unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))); err != nil {
							b.Fatal(err)
						}
					}
					cmems = append(cmems, m)
				}
			}
			half := k.OutSize() / 2
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var gt, ct []time.Duration
			for b.Loop() {
				t0 := threadTime()
				gp.(*goProgram).Run(gmems, 0, half)
				t1 := threadTime()
				gt = append(gt, t1-t0)
				if cp != nil {
					cp.Run(cmems, 0, half)
					ct = append(ct, threadTime()-t1)
				}
			}
			flops := float64(c.batch * c.M * c.N * c.K) // half of 2·M·N·K
			g := flops / float64(median(gt).Nanoseconds())
			b.ReportMetric(g, "GO-GFLOP/s")
			if cp != nil {
				cg := flops / float64(median(ct).Nanoseconds())
				b.ReportMetric(cg, "CPU-GFLOP/s")
				b.ReportMetric(math.Round(100*g/cg)/100, "GO/CPU")
			}
		})
	}
}

func median(ts []time.Duration) time.Duration {
	slices.Sort(ts)
	return ts[len(ts)/2]
}

// threadTime is the calling thread's CPU time.
func threadTime() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}
