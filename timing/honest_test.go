package timing

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// Tests for the ways a measurement could teach something false (issue 10),
// one per problem, on synthetic clocks and workloads.

// 1. --check verifies the call that is timed: a JIT whose replays compute
// something else than its ordinary call is refused, naming the replay.
func TestCheckRunsOnTheReplay(t *testing.T) {
	for _, c := range []struct {
		name      string
		wrongFrom int64
		when      string
		kind      CallKind
	}{
		{"first replay differs", 3, "the first replay, before sampling", CallReplay},
		{"capture differs", 2, "capture call 1", CallCapture},
		{"a later replay differs", 150, "the last call, after sampling", CallReplay},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkload(time.Microsecond)
			w.jit, w.wrongFrom = true, c.wrongFrom
			tg := w.target()
			tg.Check = w.check
			_, err := Measure(context.Background(), tg, Options{Clock: w.c, Loops: 10, Repeats: 20})
			var ce *CheckError
			if !errors.As(err, &ce) {
				t.Fatalf("err %v, want a *CheckError", err)
			}
			if ce.When != c.when || ce.Call != c.kind || ce.Seen != "value is -1" {
				t.Errorf("check error %+v, want when %q, call %s, seen \"value is -1\"", ce, c.when, c.kind)
			}
			if msg := err.Error(); !strings.Contains(msg, c.when) || !strings.Contains(msg, map[CallKind]string{CallReplay: "(a replay of the JIT)", CallCapture: "(the JIT's capture call)"}[c.kind]) {
				t.Errorf("message %q does not name the call", msg)
			}
		})
	}
	// A right answer is checked on every kind of call before and after.
	w := newWorkload(time.Microsecond)
	w.jit = true
	tg := w.target()
	tg.Check = w.check
	r, err := Measure(context.Background(), tg, Options{Clock: w.c, Loops: 10, Repeats: 8})
	if err != nil {
		t.Fatal(err)
	}
	var whens []string
	for _, c := range r.Checks {
		whens = append(whens, c.When+"/"+string(c.Call))
	}
	want := "the cold call/ordinary, capture call 1/capture, the first replay, before sampling/replay, the last call, after sampling/replay"
	if strings.Join(whens, ", ") != want {
		t.Errorf("checks %q, want %q", strings.Join(whens, ", "), want)
	}
	if !strings.Contains(flat(r.Text(3)), "check held after the cold call (ordinary)") {
		t.Errorf("the text does not say what was checked:\n%s", r.Text(3))
	}
}

// 1. The statement given to --vs is checked too: a wrong one is refused,
// naming it.
func TestInterleaveChecksBothStatements(t *testing.T) {
	a, b := pair(10*time.Microsecond, 10*time.Microsecond, 0, 0)
	b.wrongFrom = 1
	ta, tb := a.target(), b.target()
	ta.Check, tb.Check = a.check, b.check
	tb.Label = "y = wrong(x)"
	_, _, err := Interleave(context.Background(), ta, tb, Options{Clock: a.c, Loops: 10, Repeats: 8, Seed: 1})
	var ce *CheckError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "statement y = wrong(x)") {
		t.Fatalf("err %v, want the --vs statement's *CheckError", err)
	}
}

// 2. -n 1, -n 10 and calibrated n agree with the true cost when the
// harness's bookkeeping disturbs the next call (here: the first call after
// a forced collection pays 5 µs, as a real one refills its caches) and each
// Call into the loop costs 2 µs whatever n (the interpreter's call).
func TestSmallNAgrees(t *testing.T) {
	truth := time.Microsecond
	for _, n := range []int{1, 10, 0} {
		w := newWorkload(truth)
		w.afterGC, w.perCall = 5*time.Microsecond, 2*time.Microsecond
		floor := &Target{Call: func(int) error { w.c.t += w.perCall; return nil }, Sync: w.sync}
		r, err := Measure(context.Background(), w.target(), Options{Clock: w.c, Loops: n, Budget: 200 * time.Millisecond, Floor: floor})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Stats.Median; math.Abs(got-float64(truth))/float64(truth) > 0.10 {
			t.Errorf("-n %d: %s per loop, want %v within 10%% (floor %s)\n%s", n, FormatDuration(got, 3), truth, FormatDuration(r.Floor, 3), r.Text(3))
		}
		if len(r.FloorSamples) < floorMin {
			t.Errorf("-n %d: %d floor samples", n, len(r.FloorSamples))
		}
	}
}

// 3. After --sync=none the queue is empty, the drain is reported and no
// throughput is claimed for enqueue times.
func TestSyncNoneDrains(t *testing.T) {
	w := newWorkload(time.Microsecond)
	w.async, w.device = true, 50*time.Microsecond
	r, err := Measure(context.Background(), w.target(), Options{Clock: w.c, Sync: SyncNone, Budget: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if w.devFree > w.c.t {
		t.Errorf("the device still has %v of work queued after Measure", w.devFree-w.c.t)
	}
	if r.Drain <= 0 || r.DrainMax <= 0 {
		t.Errorf("drain %v (max %v), want the backlog's time", r.Drain, r.DrainMax)
	}
	if c := r.Counters; c == nil || c.GFLOPS != 0 || c.GBps != 0 || c.NoThroughput == "" {
		t.Errorf("counters %+v: throughput of enqueue times claimed", r.Counters)
	}
	if !r.Has(WarnEnqueueOnly) || !r.Has(WarnBacklog) {
		t.Errorf("warnings %v, want enqueue-only and backlog", kinds(r.Warnings))
	}
	text := r.Text(3)
	for _, s := range []string{"drain after the samples' calls returned the device needed", "no FLOP/s or B/s: --sync=none"} {
		if !strings.Contains(flat(text), s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
	// Calibration counted the drain: a sample's whole cost fits the target.
	for _, s := range r.Samples {
		if s.Phase == PhaseMeasured && s.Elapsed+s.Drain > 3*r.SampleTarget {
			t.Fatalf("a sample with its drain took %v, target %v", s.Elapsed+s.Drain, r.SampleTarget)
		}
	}
}

// 4. The device recorded is the one that ran (a NULL-like device that
// computes nothing gets no throughput and a warning); DEBUG is the
// effective level.
func TestProvenanceFromFacts(t *testing.T) {
	w := newWorkload(time.Microsecond)
	w.null, w.debug = true, 2
	r, err := Measure(context.Background(), w.target(), Options{Clock: w.c, Budget: 50 * time.Millisecond,
		Provenance: Provenance{Device: "CPU"}})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Provenance
	if p.Device != "SYN" || len(p.Devices) != 1 || p.Devices[0].Computes {
		t.Errorf("device %q %+v, want the one that ran (SYN, computing nothing)", p.Device, p.Devices)
	}
	if p.Debug != 2 || !strings.Contains(p.Line(), "DEBUG=2") {
		t.Errorf("debug %d, line %q", p.Debug, p.Line())
	}
	if r.Counters.GFLOPS != 0 || !r.Has(WarnNoCompute) {
		t.Errorf("no-compute device: GFLOP/s %v, warnings %v", r.Counters.GFLOPS, kinds(r.Warnings))
	}
	if w.recorded == 0 {
		t.Error("no facts were recorded")
	}
}

// 4. %compare of a DEBUG=0 and a DEBUG=2 result names DEBUG.
func TestCompareNamesDebug(t *testing.T) {
	a, b := pair(10*time.Microsecond, 10*time.Microsecond, 0.01, 0)
	b.debug = 2
	ra, _ := Measure(context.Background(), a.target(), Options{Clock: a.c, Budget: 50 * time.Millisecond})
	rb, _ := Measure(context.Background(), b.target(), Options{Clock: b.c, Budget: 50 * time.Millisecond})
	w, ok := warningOf(Compare(ra, rb).Warnings, WarnProvenance)
	if !ok || !strings.Contains(w.Message, `DEBUG (effective) "0" vs "2"`) {
		t.Errorf("warning %+v, want DEBUG named", w)
	}
}

// 6. JIT phase labels whatever the JIT's state when the measurement starts.
func TestJITPhaseLabels(t *testing.T) {
	for _, c := range []struct {
		before      int
		cold        CallKind
		captures    int
		firstReplay bool
		phrase      string
	}{
		{0, CallOrdinary, 1, true, "cold 2.01 ms (JIT call 1, ordinary: 3 compiled"},
		{1, CallCapture, 1, true, "(JIT call 2, capture) · capture: the cold call · first replay"},
		{2, CallReplay, 0, false, "(JIT call 3, replay) · warm-up"},
		{5, CallReplay, 0, false, "(JIT call 6, replay) · warm-up"},
	} {
		w := newWorkload(10 * time.Microsecond)
		w.jit, w.coldHost = true, 2*time.Millisecond
		if err := w.call(c.before); err != nil {
			t.Fatal(err)
		}
		r, err := Measure(context.Background(), w.target(), Options{Clock: w.c, Budget: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cold.Kind != c.cold || r.Cold.JITCall != c.before+1 || r.Captures != c.captures || (r.FirstReplay > 0) != (c.firstReplay || c.cold == CallReplay) || !r.Replaying {
			t.Errorf("called %d times before: cold %s (call %d), captures %d, first replay %v, replaying %v",
				c.before, r.Cold.Kind, r.Cold.JITCall, r.Captures, r.FirstReplay, r.Replaying)
		}
		for _, s := range r.Samples {
			if s.Phase == PhaseCapture && s.Call != CallCapture {
				t.Errorf("called %d times before: a %s call labelled capture", c.before, s.Call)
			}
		}
		if warned := r.Has(WarnJITWarmBefore); warned != (c.before > 0) {
			t.Errorf("called %d times before: jit-called-before warning %v", c.before, warned)
		}
		if text := r.Text(3); !strings.Contains(text, c.phrase) {
			t.Errorf("called %d times before: text lacks %q:\n%s", c.before, c.phrase, text)
		}
	}
}

// 7. Warnings name what the user can change.
func TestWarningsAreActionable(t *testing.T) {
	base := func() *Result {
		return &Result{Loops: 1000, Repeats: 50, Stats: Stats{N: 50, Median: 1000, CIValid: true}, Memory: Memory{GCCycles: 3, BytesPerOp: 216, AllocsPerOp: 6}}
	}
	r := base()
	r.Memory.Source = SourceInterpreter
	w, _ := warningOf(Diagnose(r), WarnGC)
	if strings.Contains(w.Fix, "allocate less") || !strings.Contains(w.Fix, "--gc=off") || !strings.Contains(w.Message, "interpreter") {
		t.Errorf("interpreter allocations: %q", w)
	}
	r = base()
	r.Memory.Source = SourceRuntime
	if w, _ := warningOf(Diagnose(r), WarnGC); !strings.Contains(w.Fix, "tensor.JIT") {
		t.Errorf("runtime allocations: %q", w)
	}
	r = base()
	r.Memory.Source = SourceCode
	if w, _ := warningOf(Diagnose(r), WarnGC); !strings.Contains(w.Fix, "allocate less") {
		t.Errorf("the statement's own allocations: %q", w)
	}
	// A small -n.
	r = base()
	r.GC, r.Memory.GCCycles = GCCollect, 0
	r.Loops, r.LoopsGiven, r.SampleTarget, r.Floor = 10, true, 20*time.Millisecond, 200
	r.Samples = []Sample{{Phase: PhaseMeasured, N: 10, Elapsed: 12 * time.Microsecond}}
	if !r.Has(WarnSmallN) && !hasKind(Diagnose(r), WarnSmallN) {
		t.Errorf("-n 10 with 12 µs samples: no small-n warning in %v", kinds(Diagnose(r)))
	}
	r.LoopsGiven = false
	if hasKind(Diagnose(r), WarnSmallN) {
		t.Error("small-n warning for a calibrated n")
	}
	// Descheduled.
	r = base()
	r.Memory.GCCycles = 0
	r.Provenance.Sched = Sched{Wall: time.Second, CPU: 800 * time.Millisecond, RunDelay: 200 * time.Millisecond}
	r.Provenance.Load = Load{Start: "3.10 2.00 1.00", End: "3.40 2.10 1.00"}
	if w, ok := warningOf(Diagnose(r), WarnDescheduled); !ok || !strings.Contains(w.Message, "20%") || !strings.Contains(w.Message, "load 3.10 2.00 1.00") {
		t.Errorf("descheduled: %q", w)
	}
	// Implausible throughput.
	r = base()
	r.Memory.GCCycles = 0
	r.Provenance.CPUs = 2
	r.Counters = &Counters{Kernels: 1, GFLOPS: 3600, GBps: 14600}
	if !hasKind(Diagnose(r), WarnImplausible) {
		t.Errorf("3.6 TFLOP/s on 2 CPUs did not warn: %v", kinds(Diagnose(r)))
	}
}

func hasKind(ws []Warning, k WarningKind) bool {
	_, ok := warningOf(ws, k)
	return ok
}

// 7. The differing-conditions warning of an interleaved comparison does
// not advise --vs, which was used.
func TestInterleavedProvenanceFix(t *testing.T) {
	a, b := pair(10*time.Microsecond, 10*time.Microsecond, 0.01, 0)
	ta, tb := a.target(), b.target()
	ta.Record, tb.Record = nil, nil
	tb.Probe = func() Probe { p := b.probe(); p.Debug = 2; return p }
	ra, rb, err := Interleave(context.Background(), ta, tb, Options{Clock: a.c, Budget: 100 * time.Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := Compare(ra, rb)
	w, ok := warningOf(c.Warnings, WarnProvenance)
	if !ok || strings.Contains(w.Fix, "--vs") || hasKind(c.Warnings, WarnNotInterleaved) {
		t.Errorf("interleaved: warnings %v", c.Warnings)
	}
}
