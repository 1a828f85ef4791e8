//go:build linux

package gobackend

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkGoGemm times the GO device's GEMM on the calling thread (no
// queue, no split across threads) over the outputs one of two threads
// computes when the runtime splits the suite's shapes (bench/cpubench's
// matmul cases): the first half of the rows (of the batches, when
// batched). Besides wall time per call it reports the median of the
// calls' thread CPU times (cpu-us/op: what a shared machine's other load
// changes least) and the GFLOP/s of that median. docs/benchmarks.md, "The
// GO device's matmul (issue 30, 2026-12-03)".
//
//	go test -run '^$' -bench GoGemm -count 5 ./runtime/backend/gobackend/
func BenchmarkGoGemm(b *testing.B) {
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
		{"batched 32x64x64", 32, 64, 64, 64, false, false},
		{"x.w 128x784.784x256", 1, 128, 256, 784, false, false},
		{"xT.dy 784x128.128x256", 1, 784, 256, 128, true, false},
		{"dy.wT 128x256.256x784", 1, 128, 784, 256, false, true},
		{"tall 16384x64.64x64", 1, 16384, 64, 64, false, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			k := goGemmKernel(c.batch, c.M, c.N, c.K, c.aT, c.bT)
			p, err := goDevice{}.Compile(k)
			if err != nil {
				b.Fatal(err)
			}
			_, mems := goGemmData(k)
			half := k.OutSize() / 2
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu []time.Duration
			for b.Loop() {
				t0 := threadTime()
				p.(*goProgram).Run(mems, 0, half)
				cpu = append(cpu, threadTime()-t0)
			}
			slices.Sort(cpu)
			med := cpu[len(cpu)/2]
			b.ReportMetric(float64(med.Nanoseconds())/1e3, "cpu-us/op")
			b.ReportMetric(float64(c.batch*c.M*c.N*c.K)/float64(med.Nanoseconds()), "GFLOP/s")
		})
	}
}

// threadTime is the calling thread's CPU time.
func threadTime() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}
