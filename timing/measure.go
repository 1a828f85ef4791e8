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
// sampling a *RecaptureError; cancelling ctx stops between calls. However
// it ends, Measure leaves the device's queue empty.
func Measure(ctx context.Context, t Target, o Options) (*Result, error) {
	r, err := newRunner(t, o)
	if err != nil {
		return nil, err
	}
	defer r.settle()
	if err := r.prepare(ctx); err != nil {
		return nil, err
	}
	restore := r.o.gcOff()
	r.begin()
	for r.wantMore() {
		if err := r.sample(ctx); err != nil {
			restore()
			return nil, err
		}
	}
	restore()
	if err := r.end(); err != nil {
		return nil, err
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
	heap  *heapMetrics
	// the floor target and its samples' per-loop times
	floor    *Target
	floorPer []float64
	// expected allocation of one sample of the statement and of the floor
	stmtAlloc, floorAlloc float64
	collections           int
	// facts recorded around the calls before sampling
	facts Facts
	// lastKind is what the last measured sample's calls did
	lastKind CallKind
	// measured-phase accumulators. counted sums the probe differences
	// across each measured sample only: when two runners share one runtime
	// (Interleave), the other statement's calls between samples are not
	// this statement's work.
	counted Probe
	loops   int
	// per measured sample, its copies' host and device time per loop
	xferHost, xferDev []float64
	measured          []float64
	// the running median shown by Progress, refreshed every progressEvery
	median   float64
	medianAt time.Duration
	sched0   schedSnapshot
	// round numbers the next measured sample for Interleave (0: not
	// interleaved)
	round int
}

func newRunner(t Target, o Options) (*runner, error) {
	if t.Call == nil {
		return nil, ErrNoCall
	}
	o = o.withDefaults()
	r := &runner{t: t, o: o, c: o.Clock, heap: newHeapMetrics(), medianAt: -progressEvery}
	r.res = &Result{Sync: o.Sync, GC: o.GC, TimeBy: o.TimeBy, Provenance: o.Provenance}
	var err error
	if r.floor, r.res.FloorSource, err = r.floorTarget(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *runner) now() time.Duration { return r.c.Now() }

func (r *runner) progress(p CallPhase, done, total int) {
	if r.o.Progress == nil {
		return
	}
	now := r.now()
	pr := Progress{Phase: p, Done: done, Total: total, Elapsed: now - r.start}
	if len(r.measured) > 0 {
		if now-r.medianAt >= progressEvery {
			s := slices.Clone(r.measured)
			slices.Sort(s)
			r.median, r.medianAt = Quantile(s, 0.5), now
		}
		pr.Median = max(r.median-r.res.Floor, 0)
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

// settle leaves the queue empty however the measurement ended.
func (r *runner) settle() { _ = r.sync(&r.t) }

// timed runs one interval of n calls of t under the sync mode:
// sync; t0; n calls; t_enqueued; sync; t1.
func (r *runner) timed(t *Target, n int, mode SyncMode) (Sample, error) {
	if mode != SyncNone {
		if err := r.sync(t); err != nil {
			return Sample{}, err
		}
	}
	// The thread's CPU time around the interval (outside it): the calls
	// run on this goroutine, kept on this thread for the sample.
	cpu := haveThreadCPU && r.realClock()
	var c0 time.Duration
	if cpu {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 = threadCPU()
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
	s := Sample{N: n, Elapsed: t1 - t0, Enqueued: tq - t0}
	if cpu {
		s.CPU = threadCPU() - c0
	}
	return s, nil
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

// single runs one synchronized call, recording facts around it, and
// returns the sample (with the call's kind), the probe's difference and
// the facts.
func (r *runner) single() (Sample, Probe, Facts, error) {
	var stop func() Facts
	if r.t.Record != nil {
		stop = r.t.Record()
	}
	p0 := r.probe()
	s, err := r.timed(&r.t, 1, SyncSample)
	var f Facts
	if stop != nil {
		f = stop()
	}
	if err != nil {
		return Sample{}, Probe{}, Facts{}, err
	}
	d := r.probe().sub(p0)
	if r.t.Probe != nil {
		s.Call = kindOf(d)
	}
	r.facts.merge(f)
	if len(f.JIT) > 0 {
		r.res.JIT = true
	}
	return s, d, f, nil
}

// check runs the target's check after a sync, outside any timed interval.
func (r *runner) check(when string, kind CallKind) error {
	if r.t.Check == nil {
		return nil
	}
	if err := r.sync(&r.t); err != nil {
		return err
	}
	ok, seen, err := r.t.Check()
	if err != nil {
		return wrapf(err, "check after %s", when)
	}
	if !ok {
		return &CheckError{When: when, Call: kind, Seen: seen}
	}
	r.res.Checks = append(r.res.Checks, CheckRun{When: when, Call: kind})
	return nil
}

// prepare runs the cold, capture, warm-up and calibration phases, the
// memory batch and the first floor samples.
func (r *runner) prepare(ctx context.Context) error {
	if err := r.prepareCalls(ctx); err != nil {
		return err
	}
	return r.prepareSampling(ctx)
}

// prepareCalls runs the cold, capture, warm-up and calibration phases.
func (r *runner) prepareCalls(ctx context.Context) error {
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
	return r.calibrate(ctx)
}

// prepareSampling runs the memory batch and the first floor samples, at
// the loops calibration chose.
func (r *runner) prepareSampling(ctx context.Context) error {
	if err := r.memory(); err != nil {
		return err
	}
	// Floor samples up front (the memory batch warmed the floor at this
	// n); more are interleaved with the measured samples.
	for range floorMin - 2 {
		if err := r.floorSample(ctx); err != nil {
			return err
		}
	}
	return nil
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

// cold times the first call alone, synchronized, whatever the sync mode,
// and checks its result.
func (r *runner) cold() error {
	s, d, f, err := r.single()
	if err != nil {
		return wrapf(err, "cold call")
	}
	r.record(s, PhaseCold)
	r.res.Cold = Cold{Time: s.Elapsed, Compiles: d.Compiles - d.DiskHits, DiskHits: d.DiskHits,
		CacheHits: d.CacheHits, Kernels: d.Kernels, Kind: s.Call, JITCall: f.firstJITCall()}
	if s.Call != CallOrdinary && s.Call != "" {
		r.res.JIT = true
	}
	if n := f.firstJITCall(); n > 1 {
		r.res.JITCallsBefore = n - 1
	}
	switch s.Call {
	case CallCapture:
		r.res.Captures++
		r.res.CaptureTime += s.Elapsed
	case CallReplay:
		r.res.Replaying = true
		r.res.FirstReplay = s.Elapsed
	}
	r.progress(PhaseCold, 1, 1)
	return r.check("the cold call", s.Call)
}

// capture calls the target, one synchronized call at a time, until the
// probe shows the JIT replaying (a replay with no capture or compile), at
// most MaxCapture calls; each capture call's result is checked, and so is
// the first replay's. A statement whose first call here is ordinary, as
// its cold call was, has no JIT: that call counts as warm-up. When the
// cold call already replayed (the JIT was warmed before the
// measurement), there is no capture phase.
func (r *runner) capture(ctx context.Context) error {
	if r.t.Probe == nil {
		r.res.Replaying = true
		return nil
	}
	if r.res.Replaying {
		return nil
	}
	for i := range r.o.MaxCapture {
		if err := ctx.Err(); err != nil {
			return wrapf(err, "capture")
		}
		s, d, _, err := r.single()
		if err != nil {
			return wrapf(err, "capture call %d", i+1)
		}
		switch {
		case s.Call == CallReplay && d.Compiles == 0:
			r.record(s, PhaseWarmup)
			r.warm = append(r.warm, float64(s.Elapsed))
			r.res.Warmups++
			r.res.Replaying, r.res.JIT = true, true
			r.res.FirstReplay = s.Elapsed
			return r.check("the first replay, before sampling", CallReplay)
		case s.Call == CallOrdinary && i == 0 && !r.res.JIT:
			r.record(s, PhaseWarmup)
			r.warm = append(r.warm, float64(s.Elapsed))
			r.res.Warmups++
			r.res.Replaying = true // no JIT: nothing to capture
			return nil
		}
		r.record(s, PhaseCapture)
		r.res.JIT = true
		if s.Call == CallCapture {
			r.res.Captures++
			r.res.CaptureTime += s.Elapsed
		}
		r.progress(PhaseCapture, i+1, 0)
		if err := r.check(fmtCall("capture call", i+1), s.Call); err != nil {
			return err
		}
	}
	return nil
}

func fmtCall(what string, i int) string { return what + " " + itoa(i) }

// warmup calls the target Options.Warmup times, or until the last
// stableWindow call times agree within stableTolerance (at most maxWarmup
// calls and a tenth of the budget); each call is synchronized.
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
		p0 := r.probe()
		s, err := r.timed(&r.t, 1, SyncSample)
		if err != nil {
			return wrapf(err, "warm-up call %d", i+1)
		}
		if r.t.Probe != nil {
			s.Call = kindOf(r.probe().sub(p0))
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

// calibrate chooses loops per sample (see the calibration rule). Its
// samples go through the harness; with SyncNone the drain counts toward
// the sample's length, so a sample's whole cost — enqueueing and the
// device's work — fits the budget. A sample that reaches the target is
// confirmed by a second of the same n (the shorter counts).
func (r *runner) calibrate(ctx context.Context) error {
	r.res.SampleTarget = SampleTarget(r.o.Budget, r.res.Resolution, r.res.SyncCost)
	if r.o.Loops > 0 {
		r.res.Loops, r.res.LoopsGiven = r.o.Loops, true
		return nil
	}
	n := 1
	for {
		if err := ctx.Err(); err != nil {
			return wrapf(err, "calibration")
		}
		s, _, err := r.sampleOf(&r.t, n, r.o.Sync, 0)
		if err != nil {
			return wrapf(err, "calibration with %d loops", n)
		}
		r.record(s, PhaseCalibrate)
		r.progress(PhaseCalibrate, n, 0)
		el := s.Elapsed + s.Drain
		if el >= r.res.SampleTarget && n < MaxLoops {
			// Confirm with a second sample of the same n: a sample that
			// reached the target only because the process was pre-empted
			// would otherwise fix n far too small.
			s2, _, err := r.sampleOf(&r.t, n, r.o.Sync, 0)
			if err != nil {
				return wrapf(err, "calibration with %d loops", n)
			}
			r.record(s2, PhaseCalibrate)
			el = min(el, s2.Elapsed+s2.Drain)
		}
		if el >= r.res.SampleTarget || n >= MaxLoops {
			break
		}
		n = PredictN(n, el, r.res.SampleTarget)
	}
	r.res.Loops = n
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

// begin marks the start of sampling: the load and the scheduler's account.
func (r *runner) begin() {
	r.res.Started = time.Now().UTC()
	if r.realClock() {
		r.res.Provenance.Load.Start = loadAverage()
		r.sched0 = readSched()
	}
}

// realClock reports whether the measurement runs on the wall clock: only
// then do the machine's load and the scheduler's account describe it.
func (r *runner) realClock() bool {
	_, ok := r.c.(wallClock)
	return ok
}

// sample takes one measured sample and, every floorEvery samples, one of
// the floor.
func (r *runner) sample(ctx context.Context) error {
	k := len(r.measured)
	if err := ctx.Err(); err != nil {
		return wrapf(err, "after %d samples", k)
	}
	s, d, err := r.sampleOf(&r.t, r.res.Loops, r.o.Sync, r.stmtAlloc)
	if err != nil {
		return wrapf(err, "sample %d", k+1)
	}
	if r.t.Probe != nil {
		if d.JITCaptures > 0 || (r.res.Replaying && d.Compiles > 0) {
			return &RecaptureError{Sample: k + 1, Captures: d.JITCaptures, Compiles: d.Compiles}
		}
		r.counted = r.counted.add(d)
		r.lastKind = kindOf(d)
		n := float64(max(s.N, 1))
		r.xferHost, r.xferDev = append(r.xferHost, float64(d.TransferHost)/n), append(r.xferDev, float64(d.TransferDevice)/n)
	}
	if r.o.TimeBy == ClockDevice && k == 0 && d.DeviceKernels+d.TransfersClocked == 0 {
		return &ErrNoDeviceClock{Kernels: d.Kernels / int64(max(s.N, 1))}
	}
	s = r.byDevice(s)
	r.loops += s.N
	s.Round = r.round
	r.record(s, PhaseMeasured)
	r.measured = append(r.measured, s.PerLoop())
	r.progress(PhaseMeasured, k+1, r.o.Repeats)
	if (k+1)%floorEvery == 0 {
		return r.floorSample(ctx)
	}
	return nil
}

// end closes sampling: the last floor samples, the scheduler's account and
// the load, and the check on the last call's result.
func (r *runner) end() error {
	for len(r.floorPer) < floorMin {
		if err := r.floorSample(context.Background()); err != nil {
			return err
		}
	}
	r.res.Finished = time.Now().UTC()
	if r.realClock() {
		r.res.Provenance.Sched = readSched().since(r.sched0)
		r.res.Provenance.Load.End = loadAverage()
	}
	kind := r.lastKind
	if r.t.Probe == nil {
		kind = ""
	}
	return r.check("the last call, after sampling", kind)
}
