package tensor

import (
	"testing"
	"time"
)

// fakeTicks is a counter running at ticksPerNS of a fake monotonic clock
// (from tick base at ns0), whose reading advances by step ns per read of
// either.
type fakeTicks struct {
	ns, ns0    int64
	base       float64
	ticksPerNS float64
	step       int64
}

func (f *fakeTicks) read() (uint64, bool) {
	f.ns += f.step
	return uint64(f.base + float64(f.ns-f.ns0)*f.ticksPerNS), true
}

// setRate changes the counter's rate from now on, continuously.
func (f *fakeTicks) setRate(perNS float64) {
	f.base += float64(f.ns-f.ns0) * f.ticksPerNS
	f.ns0, f.ticksPerNS = f.ns, perNS
}
func (f *fakeTicks) mono() int64 { f.ns += f.step; return f.ns }

// fakeStamp takes stamp i on k as monoNow does (the anchor, then the
// counter) and returns it with the fake time of the reading, failing t if
// it is before *prev (which it then becomes).
func fakeStamp(t *testing.T, k *tscClock, f *fakeTicks, mono func() int64, prev *stamp, i int) (s stamp, at int64) {
	t.Helper()
	a := k.cur.Load()
	c, _ := f.read()
	at = f.ns // a renewal reads on
	s = k.now(a, c, mono)
	if s < *prev {
		t.Fatalf("read %d: stamp %d after %d", i, s, *prev)
	}
	*prev = s
	return s, at
}

// calibrate runs k's calibration to its end on read and mono, as the first
// stamps after tscCalibrate do.
func calibrate(k *tscClock, read func() (uint64, bool), mono func() int64) {
	k.begin(read, mono)
	for k.pending.Load() {
		k.finish(mono(), mono)
	}
}

// TestTSCClockTracksMono: stamps from a counter never go back and stay
// close to the monotonic clock, also when the calibration's scale is off
// (the counter's rate, seen over the calibration, differs from its rate
// after it) and across many renewals.
func TestTSCClockTracksMono(t *testing.T) {
	for _, tt := range []struct {
		name     string
		perNS    float64 // counter ticks per ns
		drift    float64 // the rate after calibration, relative
		maxError time.Duration
	}{
		{"3.3 GHz", 3.3, 0, 2 * time.Microsecond},
		{"2.1 GHz, calibration 0.05% off", 2.1, 5e-4, 60 * time.Microsecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTicks{ns: 1e9, ns0: 1e9, base: 5e9, ticksPerNS: tt.perNS, step: 7}
			var k tscClock
			calibrate(&k, f.read, f.mono)
			a := k.cur.Load()
			if a == nil {
				t.Fatal("calibration refused a plausible counter")
			}
			// Skip the cost comparison's reads: from here the counter runs
			// at its rate after calibration.
			f.setRate(f.ticksPerNS * (1 + tt.drift))
			f.step = 1000
			prev := stamp(0)
			var worst time.Duration
			for i := 0; i < 2_000_000; i++ { // 2 s of fake time, 40 renewals
				s, at := fakeStamp(t, &k, f, f.mono, &prev, i)
				if i > 200_000 { // after the first renewals absorbed the calibration's error
					worst = max(worst, (time.Duration(int64(s) - at)).Abs())
				}
			}
			if worst > tt.maxError {
				t.Errorf("stamps were up to %v from the monotonic clock, want at most %v", worst, tt.maxError)
			}
		})
	}
}

// TestTSCClockRefusesImplausible: a counter that does not advance, or
// that is unusable, leaves the clock on the monotonic clock.
func TestTSCClockRefusesImplausible(t *testing.T) {
	var k tscClock
	calibrate(&k, func() (uint64, bool) { return 5, true }, monoNS)
	if k.cur.Load() != nil {
		t.Error("a counter that never advances was accepted")
	}
	var k2 tscClock
	calibrate(&k2, func() (uint64, bool) { return 0, false }, func() int64 { return 0 })
	if k2.cur.Load() != nil {
		t.Error("an unusable counter was accepted")
	}
}

// TestMonoNowIsTheMonotonicClock: whatever the source, a stamp is ns since
// clockBase, within the stated bound of the monotonic clock read around it,
// also for the first stamp after the clock sat unread for longer than a
// line lasts (the renewal's). A bracket is checked whatever its width (a
// preemption between the reads widens it and cannot break the check), but
// only a tight one tells something, so each pause is retried until a few
// tight ones were seen, for up to 5 s. A machine (or the race detector
// beside other packages' tests) that preempts every try for that long
// leaves only the wide checks, which still held: the test says so in its
// log rather than failing on the machine's load.
func TestMonoNowIsTheMonotonicClock(t *testing.T) {
	const tight, want = 20 * time.Microsecond, 3
	for _, pause := range []time.Duration{0, time.Millisecond, tscSlewEvery + 10*time.Millisecond, 4 * tscSlewEvery} {
		seen, tries, deadline := 0, 0, time.Now().Add(5*time.Second)
		for ; seen < want && (tries < 50 || time.Now().Before(deadline)); tries++ {
			time.Sleep(pause)
			before := time.Since(clockBase)
			s := monoNow()
			after := time.Since(clockBase)
			if d := time.Duration(s); d < before-tscErrorBound || d > after+tscErrorBound {
				t.Fatalf("after a pause of %v: stamp %v outside [%v, %v] widened by the bound %v (counter in use: %v)",
					pause, d, before, after, tscErrorBound, clock.cur.Load() != nil)
			}
			if after-before <= tight {
				seen++
			}
		}
		if seen < want {
			t.Logf("after pauses of %v: only %d of %d brackets were within %v (the machine preempted the others): each stamp was inside its wide bracket, the tight check could not be made",
				pause, seen, tries, tight)
		}
	}
}

func BenchmarkClock(b *testing.B) {
	b.Run("monoNow", func(b *testing.B) {
		var s stamp
		for range b.N {
			s += monoNow()
		}
		_ = s
	})
	b.Run("time.Since", func(b *testing.B) {
		var s time.Duration
		for range b.N {
			s += time.Since(clockBase)
		}
		_ = s
	})
}

// BenchmarkClockEagerOp: the eager op of BenchmarkEagerOp with stamps
// from the counter and from the monotonic clock, alternately in one
// process (docs/benchmarks.md, "Eager op: the clock"). Without a usable
// counter both halves use the monotonic clock.
func BenchmarkClockEagerOp(b *testing.B) {
	// The calibration ends on the first stamp tscCalibrate after start-up;
	// a benchmark run first in its process gets here before that, and
	// taking the nil anchor (then restoring it) left every later benchmark
	// of the process on the monotonic clock.
	time.Sleep(2 * tscCalibrate)
	monoNow()
	anchor := clock.cur.Load()
	defer clock.cur.Store(anchor)
	setDev(b, "CPU")
	x := benchData(6, 256).Realize()
	d := Device("CPU")
	run := func(n int) time.Duration {
		t0 := time.Now()
		for i := range n {
			x.Add(1).Realize()
			if i%eagerBatch == eagerBatch-1 {
				_ = d.Synchronize()
			}
		}
		_ = d.Synchronize()
		return time.Since(t0)
	}
	run(1000)
	var tsc, mono time.Duration
	for range b.N {
		clock.cur.Store(anchor)
		tsc += run(2000)
		clock.cur.Store(nil)
		mono += run(2000)
	}
	b.ReportMetric(float64(tsc.Nanoseconds())/float64(2000*b.N), "ns/op-counter")
	b.ReportMetric(float64(mono.Nanoseconds())/float64(2000*b.N), "ns/op-mono")
	b.ReportMetric(float64(tsc)/float64(mono), "ratio")
}
