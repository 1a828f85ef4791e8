package tensor

import (
	"testing"
	"time"
)

// BenchmarkProfileOverhead: the cost of recording, per kernel launch. The
// ten-kernel step on 256 elements is JIT-replayed 100 times then
// synchronized, alternately without and with a profile being taken, in one
// loop (side by side on a noisy machine). Metrics: ns per launch off and
// on, and their difference ("recording_ns/launch"). On the CPU device a
// replay's launches normally run as one batched call; while recording they
// run one by one, each timed, so the difference includes that.
//
//	go test ./runtime/tensor/ -run '^$' -bench ProfileOverhead -benchtime 200x -count 5
//
// "Off" against no hooks at all is measured by running
// BenchmarkJITReplayVsEager on this commit and on the one before the
// hooks (docs/benchmarks.md, "Profiling").
func BenchmarkProfileOverhead(b *testing.B) {
	const calls = 100
	for _, dev := range benchDevices(b) {
		b.Run(dev, func(b *testing.B) {
			setDev(b, dev)
			x := RandSeed(2, 256).Realize()
			step := JIT(tenKernelStep)
			for range 3 {
				step.Call(x)
			}
			_ = SynchronizeAll()
			var tOff, tOn time.Duration
			var events int64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				for c := 0; c < calls; c++ {
					step.Call(x)
				}
				_ = SynchronizeAll()
				tOff += time.Since(t0)

				b.StopTimer()
				if err := StartProfile(calls * 16); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				t0 = time.Now()
				for c := 0; c < calls; c++ {
					step.Call(x)
				}
				_ = SynchronizeAll()
				tOn += time.Since(t0)
				b.StopTimer()
				rec := StopProfile()
				events += int64(len(rec.Events))
				if rec.Dropped > 0 {
					b.Fatalf("dropped %d events", rec.Dropped)
				}
				b.StartTimer()
			}
			launches := float64(b.N * calls * 10)
			b.ReportMetric(float64(tOff.Nanoseconds())/launches, "off_ns/launch")
			b.ReportMetric(float64(tOn.Nanoseconds())/launches, "on_ns/launch")
			b.ReportMetric(float64((tOn-tOff).Nanoseconds())/launches, "recording_ns/launch")
			b.ReportMetric(float64(events)/launches, "events/launch")
		})
	}
}

// BenchmarkProfileHookOff: what a hook costs with no profile being taken —
// the check every hook does first (one atomic load of a flag). A JIT
// replay of ten launches runs five of them (call, launch phase, enqueue,
// device run, sync phase). Metric: ns per check.
func BenchmarkProfileHookOff(b *testing.B) {
	if Profiling() {
		b.Fatal("a profile is being taken")
	}
	n := 0
	for b.Loop() {
		if prof.on.Load() {
			n++
		}
	}
	if n != 0 {
		b.Fatal("recorded while off")
	}
}
