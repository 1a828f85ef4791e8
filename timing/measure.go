package timing

import (
	"context"
	"runtime"
	"runtime/debug"
	"slices"
	"time"
)

// Measure times t through the phases described in the package doc and
// returns the result. Errors from the target are wrapped with the phase in
// which they happened; a false check is a *CheckError, a re-capture during
// sampling a *RecaptureError; cancelling ctx stops between calls.
func Measure(ctx context.Context, t Target, o Options) (*Result, error) {
	r, err := newRunner(t, o)
	if err != nil {
		return nil, err
	}
	if err := r.prepare(ctx); err != nil {
		return nil, err
	}
	restore := r.o.gcOff()
	defer restore()
	for r.wantMore() {
		if err := r.sample(ctx); err != nil {
			return nil, err
		}
	}
	return r.finish(), nil
}

// runner carries one target through the phases.
type runner struct {
	t     Target
	o     Options
	c     Clock
	start time.Duration
	res   *Result
	warm  []float64
	// measured-phase accumulators. counted sums the probe differences
	// across each measured sample only: when two runners share one runtime
	// (Interleave), the other statement's calls between samples are not
	// this statement's work.
	counted    Probe
	allocBytes uint64
	mallocs    uint64
	loops      int
	measured   []float64
}

func newRunner(t Target, o Options) (*runner, error) {
	if t.Call == nil {
		return nil, ErrNoCall
	}
	o = o.withDefaults()
	r := &runner{t: t, o: o, c: o.Clock}
	r.res = &Result{Sync: o.Sync, GC: o.GC, Provenance: o.Provenance}
	return r, nil
}

func (r *runner) now() time.Duration { return r.c.Now() }

func (r *runner) progress(p CallPhase, done, total int) {
	if r.o.Progress == nil {
		return
	}
	pr := Progress{Phase: p, Done: done, Total: total, Elapsed: r.now() - r.start}
	if len(r.measured) > 0 {
		s := slices.Clone(r.measured)
		slices.Sort(s)
		pr.Median = Quantile(s, 0.5) - r.res.Floor
	}
	r.o.Progress(pr)
}

func (r *runner) sync(t *Target) error {
	if t.Sync == nil {
		return nil
	}
	if err := t.Sync(); err != nil {
		return wrapf(err, "sync")
	}
	return nil
}

// timed runs one interval of n calls of t under the sync mode:
// sync; t0; n calls; t_enqueued; sync; t1.
func (r *runner) timed(t *Target, n int, mode SyncMode) (Sample, error) {
	if mode != SyncNone {
		if err := r.sync(t); err != nil {
			return Sample{}, err
		}
	}
	t0 := r.now()
	if mode == SyncIter {
		for range n {
			if err := t.Call(1); err != nil {
				return Sample{}, err
			}
			if err := r.sync(t); err != nil {
				return Sample{}, err
			}
		}
	} else if err := t.Call(n); err != nil {
		return Sample{}, err
	}
	tq := r.now()
	if mode == SyncSample {
		if err := r.sync(t); err != nil {
			return Sample{}, err
		}
	}
	t1 := r.now()
	return Sample{N: n, Elapsed: t1 - t0, Enqueued: tq - t0}, nil
}

func (r *runner) record(s Sample, p CallPhase) Sample {
	s.Phase = p
	r.res.Samples = append(r.res.Samples, s)
	return s
}

func (r *runner) probe() Probe {
	if r.t.Probe == nil {
		return Probe{}
	}
	return r.t.Probe()
}

// prepare runs the cold, capture, warm-up and calibration phases and
// measures the floor.
func (r *runner) prepare(ctx context.Context) error {
	r.start = r.now()
	r.res.Resolution = TimerResolution(r.c)
	sc, err := r.emptySync()
	if err != nil {
		return err
	}
	r.res.SyncCost = sc
	if err := r.cold(); err != nil {
		return err
	}
	if err := r.capture(ctx); err != nil {
		return err
	}
	if err := r.warmup(ctx); err != nil {
		return err
	}
	if err := r.calibrate(ctx); err != nil {
		return err
	}
	return r.floor(ctx)
}

// emptySync returns the median cost of Sync with nothing queued.
func (r *runner) emptySync() (time.Duration, error) {
	if r.t.Sync == nil {
		return 0, nil
	}
	if err := r.sync(&r.t); err != nil {
		return 0, err
	}
	ds := make([]float64, 11)
	for i := range ds {
		t0 := r.now()
		if err := r.sync(&r.t); err != nil {
			return 0, err
		}
		ds[i] = float64(r.now() - t0)
	}
	slices.Sort(ds)
	return time.Duration(ds[len(ds)/2]), nil
}

func (r *runner) cold() error {
	p0 := r.probe()
	mode := r.o.Sync
	if mode == SyncIter {
		mode = SyncSample
	}
	s, err := r.timed(&r.t, 1, mode)
	if err != nil {
		return wrapf(err, "cold call")
	}
	r.record(s, PhaseCold)
	d := r.probe().sub(p0)
	r.res.Cold = Cold{Time: s.Elapsed, Compiles: d.Compiles, CacheHits: d.CacheHits, Kernels: d.Kernels}
	r.progress(PhaseCold, 1, 1)
	if r.t.Check != nil {
		ok, err := r.t.Check()
		if err != nil {
			return wrapf(err, "check after the cold call")
		}
		if !ok {
			return &CheckError{}
		}
	}
	return nil
}

// capture calls the target until the probe shows the JIT replaying: replays
// grew and nothing was captured or compiled. A target whose first capture
// call shows no JIT activity at all is not jitted: that call counts as
// warm-up.
func (r *runner) capture(ctx context.Context) error {
	if r.t.Probe == nil {
		return nil
	}
	for i := range r.o.MaxCapture {
		if err := ctx.Err(); err != nil {
			return wrapf(err, "capture")
		}
		p0 := r.probe()
		s, err := r.timed(&r.t, 1, r.o.Sync)
		if err != nil {
			return wrapf(err, "capture call %d", i+1)
		}
		d := r.probe().sub(p0)
		if i == 0 && d.JITCaptures == 0 && d.JITReplays == 0 {
			r.record(s, PhaseWarmup)
			r.warm = append(r.warm, float64(s.Elapsed))
			r.res.Warmups++
			r.res.Replaying = true // nothing to capture
			return nil
		}
		r.record(s, PhaseCapture)
		r.res.Captures++
		r.progress(PhaseCapture, i+1, 0)
		if d.JITReplays > 0 && d.JITCaptures == 0 && d.Compiles == 0 {
			r.res.Replaying = true
			return nil
		}
	}
	return nil
}

// warmup calls the target Options.Warmup times, or until the last
// stableWindow call times agree within stableTolerance (at most maxWarmup
// calls and a tenth of the budget).
func (r *runner) warmup(ctx context.Context) error {
	if r.o.Warmup == NoWarmup {
		return nil
	}
	limit := r.o.Warmup
	if limit == 0 {
		limit = maxWarmup
	}
	deadline := r.now() + r.o.Budget/10
	for i := 0; i < limit; i++ {
		if err := ctx.Err(); err != nil {
			return wrapf(err, "warm-up")
		}
		s, err := r.timed(&r.t, 1, r.o.Sync)
		if err != nil {
			return wrapf(err, "warm-up call %d", i+1)
		}
		r.record(s, PhaseWarmup)
		r.warm = append(r.warm, float64(s.Elapsed))
		r.res.Warmups++
		r.progress(PhaseWarmup, i+1, r.o.Warmup)
		if r.o.Warmup == 0 && (stable(r.warm) || r.now() > deadline) {
			break
		}
	}
	return nil
}

// stable reports whether the last stableWindow values are within
// stableTolerance of each other.
func stable(xs []float64) bool {
	if len(xs) < stableWindow {
		return false
	}
	w := xs[len(xs)-stableWindow:]
	lo, hi := slices.Min(w), slices.Max(w)
	return hi <= lo*(1+stableTolerance)
}

// calibrate chooses loops per sample (see the calibration rule).
func (r *runner) calibrate(ctx context.Context) error {
	r.res.SampleTarget = SampleTarget(r.o.Budget, r.res.Resolution, r.res.SyncCost)
	if r.o.Loops > 0 {
		r.res.Loops = r.o.Loops
		return nil
	}
	n := 1
	for {
		if err := ctx.Err(); err != nil {
			return wrapf(err, "calibration")
		}
		s, err := r.timed(&r.t, n, r.o.Sync)
		if err != nil {
			return wrapf(err, "calibration with %d loops", n)
		}
		r.record(s, PhaseCalibrate)
		r.progress(PhaseCalibrate, n, 0)
		if s.Elapsed >= r.res.SampleTarget || n >= MaxLoops {
			break
		}
		n = PredictN(n, s.Elapsed, r.res.SampleTarget)
	}
	r.res.Loops = n
	return nil
}

// floor measures the harness cost per loop: the Floor target under the
// same protocol and loops, or an empty sample spread over the loops.
func (r *runner) floor(ctx context.Context) error {
	n := r.res.Loops
	var ds []float64
	if f := r.o.Floor; f != nil {
		if f.Call == nil {
			return wrapf(ErrNoCall, "floor")
		}
		r.res.FloorSource = "empty statement"
		if _, err := r.timed(f, 1, r.o.Sync); err != nil {
			return wrapf(err, "floor")
		}
		for range 5 {
			if err := ctx.Err(); err != nil {
				return wrapf(err, "floor")
			}
			s, err := r.timed(f, n, r.o.Sync)
			if err != nil {
				return wrapf(err, "floor")
			}
			ds = append(ds, s.PerLoop())
		}
	} else {
		r.res.FloorSource = "empty sample"
		empty := Target{Call: func(int) error { return nil }, Sync: r.t.Sync}
		for range 11 {
			s, err := r.timed(&empty, 0, r.o.Sync)
			if err != nil {
				return wrapf(err, "floor")
			}
			d := float64(s.Elapsed) / float64(n)
			if r.o.Sync == SyncIter {
				d += float64(r.res.SyncCost) // one empty sync per call
			}
			ds = append(ds, d)
		}
	}
	slices.Sort(ds)
	r.res.Floor = Quantile(ds, 0.5)
	return nil
}

// wantMore reports whether another measured sample should be taken.
func (r *runner) wantMore() bool {
	k := len(r.measured)
	if r.o.Repeats > 0 {
		return k < r.o.Repeats
	}
	if k < MinRepeats {
		return true
	}
	return k < MaxRepeats && r.now()-r.start < r.o.Budget
}

// gcOff disables the collector for GCOff and returns the restore function.
func (o Options) gcOff() func() {
	if o.GC != GCOff {
		return func() {}
	}
	old := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(old) }
}

// sample takes one measured sample.
func (r *runner) sample(ctx context.Context) error {
	k := len(r.measured)
	if err := ctx.Err(); err != nil {
		return wrapf(err, "after %d samples", k)
	}
	if r.o.GC == GCCollect {
		runtime.GC()
	}
	var m0, m1 runtime.MemStats
	p0 := r.probe()
	runtime.ReadMemStats(&m0)
	s, err := r.timed(&r.t, r.res.Loops, r.o.Sync)
	if err != nil {
		return wrapf(err, "sample %d", k+1)
	}
	runtime.ReadMemStats(&m1)
	if r.t.Probe != nil {
		d := r.probe().sub(p0)
		if d.JITCaptures > 0 || (r.res.Replaying && d.Compiles > 0) {
			return &RecaptureError{Sample: k + 1, Captures: d.JITCaptures, Compiles: d.Compiles}
		}
		r.counted = r.counted.add(d)
	}
	s.GCs = m1.NumGC - m0.NumGC
	r.allocBytes += m1.TotalAlloc - m0.TotalAlloc
	r.mallocs += m1.Mallocs - m0.Mallocs
	r.loops += s.N
	r.record(s, PhaseMeasured)
	r.measured = append(r.measured, s.PerLoop())
	r.progress(PhaseMeasured, k+1, r.o.Repeats)
	return nil
}
