package timing

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// clockedStep is a synthetic JIT'd statement on an asynchronous device
// with a clock of its own, as OpenCL's profiling stamps give one: each
// call costs host time (the interpreter and the launch) and enqueues
// kernels (and copies) whose device time the device's clock reports only
// when it synchronizes, as the runtime reads stamps at Synchronize.
type clockedStep struct {
	c                  *stepClock
	host, kern, copyNS time.Duration // per call: host, each kernel's device time, each copy's
	kernels, copies    int64         // per call
	copyBytes          int64         // per copy
	clocked            bool          // false: a device the host's clock times (no stamps)
	calls              int
	p                  Probe
	pendK              int64
	pendKT, pendCT     time.Duration
	pendC              int64
	devFree            time.Duration
}

func newClockedStep() *clockedStep {
	return &clockedStep{c: &stepClock{}, host: 8 * time.Microsecond, kern: 700 * time.Nanosecond, kernels: 3, clocked: true}
}

func (s *clockedStep) target() Target {
	return Target{
		Call: func(n int) error {
			for range n {
				s.calls++
				switch s.calls {
				case 1:
					s.c.t += 2 * time.Millisecond
					s.p.Compiles += s.kernels
				case 2:
					s.p.JITCaptures++
				default:
					s.p.JITReplays++
				}
				s.c.t += s.host
				s.p.Kernels += s.kernels
				s.p.FLOPs += 256 * float64(s.kernels)
				s.p.Bytes += 2048 * float64(s.kernels)
				work := time.Duration(s.kernels)*s.kern + time.Duration(s.copies)*s.copyNS
				s.devFree = max(s.devFree, s.c.t) + work
				s.p.Transfers += s.copies
				s.p.TransferBytes += s.copies * s.copyBytes
				s.p.TransferHost += time.Duration(s.copies) * s.copyNS * 2
				if s.clocked {
					s.pendK += s.kernels
					s.pendKT += time.Duration(s.kernels) * s.kern
					s.pendC += s.copies
					s.pendCT += time.Duration(s.copies) * s.copyNS
				}
			}
			return nil
		},
		Sync: func() error {
			s.c.t = max(s.c.t, s.devFree) + 150
			s.p.DeviceKernels += s.pendK
			s.p.DeviceTime += s.pendKT
			s.p.TransfersClocked += s.pendC
			s.p.TransferDevice += s.pendCT
			s.pendK, s.pendKT, s.pendC, s.pendCT = 0, 0, 0, 0
			return nil
		},
		Probe: func() Probe { p := s.p; p.Async = true; return p },
		Record: func() func() Facts {
			return func() Facts {
				f := Facts{Devices: []Device{{Name: "CL", Backend: "OpenCL C (pocl 3.1, cpu)", Computes: true, Clock: s.clocked}}}
				if s.copies > 0 {
					f.Transfers = []Transfer{{From: "host", To: "CL", Count: 1, Bytes: s.copyBytes, Host: 2 * s.copyNS, Device: s.copyNS}}
				}
				return f
			}
		},
	}
}

func measureClocked(t *testing.T, s *clockedStep, o Options) *Result {
	t.Helper()
	o.Clock, o.GC = s.c, GCKeep
	r, err := Measure(context.Background(), s.target(), o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func within2(got, want float64) bool { return math.Abs(got-want) <= 0.02*want }

// On a device with a clock, %timeit reports the device's time beside the
// host's: per loop, in how many kernels, and what the rest is.
func TestDeviceTimeBesideHostTime(t *testing.T) {
	r := measureClocked(t, newClockedStep(), Options{Loops: 20, Repeats: 30})
	d := r.Device
	if d == nil {
		t.Fatal("no device time on a device with a clock")
	}
	if !within2(d.Stats.Median, 2100) || d.Kernels != 3 || !within2(d.KernelTime, 2100) || d.Copies != 0 || d.Host != nil {
		t.Errorf("device time %+v: want 2.1 µs per loop in 3 kernels, no copies, no host stats (the host's are Result.Stats)", d)
	}
	if r.TimeBy != ClockHost || r.Stats.Median < 8000 {
		t.Errorf("timed by %s, median %v: want the host's clock, ≥ 8 µs", r.TimeBy, r.Stats.Median)
	}
	if got := strings.Join(d.Devices, ","); got != "CL" {
		t.Errorf("clocks of %q, want CL", got)
	}
	txt := flat(r.Text(0))
	for _, want := range []string{"device host 8.", "per loop, device 2.10 µs in 3 kernels by CL's clock (median;",
		"is the host's: the interpreter, launching, synchronizing"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, r.Text(0))
		}
	}
	if r.Transfers != nil || strings.Contains(txt, "transfers") || strings.Contains(txt, "clock each sample") {
		t.Errorf("transfers %+v or the clock row without copies or --clock=device:\n%s", r.Transfers, r.Text(0))
	}
}

// A device the host's clock times (CPU, GO) has no device time: no device
// clock line, and --clock=device refuses it with a typed error saying why.
func TestNoDeviceTimeWithoutADeviceClock(t *testing.T) {
	s := newClockedStep()
	s.clocked = false
	if r := measureClocked(t, s, Options{Loops: 20, Repeats: 10}); r.Device != nil || strings.Contains(r.Text(0), "'s clock") {
		t.Errorf("device time %+v without a device clock:\n%s", r.Device, r.Text(0))
	}
	s = newClockedStep()
	s.clocked = false
	_, err := Measure(context.Background(), s.target(), Options{Clock: s.c, GC: GCKeep, Loops: 20, Repeats: 10, TimeBy: ClockDevice})
	var e *ErrNoDeviceClock
	if !errors.As(err, &e) || e.Kernels != 3 || !strings.Contains(err.Error(), "its 3 kernels per call ran on devices the host's clock times") {
		t.Errorf("--clock=device without a device clock: %v", err)
	}
}

// --clock=device: the samples are the device's time (the floor is 0: the
// empty statement runs nothing there), the host's time of the same
// samples is kept beside it, the headline says whose clock it is, and the
// clock row says what it includes and excludes.
func TestClockDeviceTimesByTheDeviceClock(t *testing.T) {
	r := measureClocked(t, newClockedStep(), Options{Loops: 20, Repeats: 30, TimeBy: ClockDevice})
	if r.TimeBy != ClockDevice || !within2(r.Stats.Median, 2100) || r.Floor != 0 {
		t.Errorf("by %s: median %v, floor %v; want the device's 2.1 µs, floor 0", r.TimeBy, r.Stats.Median, r.Floor)
	}
	if d := r.Device; d == nil || d.Host == nil || d.Host.Median < 8000 || d.HostFloor <= 0 {
		t.Fatalf("device time %+v: want the host's stats (≥ 8 µs) and floor beside the device's", d)
	}
	for _, s := range r.Samples {
		if s.Phase == PhaseMeasured && (s.Elapsed != s.Device || s.Host <= s.Elapsed) {
			t.Fatalf("measured sample %+v: want Elapsed = Device, Host the longer host time", s)
		}
	}
	h := r.Headline(0)
	if !strings.Contains(h, "per loop (by CL's clock: median ± 95% confidence interval") {
		t.Errorf("headline %q does not say whose clock", h)
	}
	txt := flat(r.Text(0))
	for _, want := range []string{"device CL's clock 2.10 µs per loop in 3 kernels", "host 8.",
		"per loop (median; [", "for the same samples", "clock each sample is the time by CL's clock",
		"not in it: the interpreter, launching, queueing, synchronizing", "not a kernel benchmark",
		"floor 0 ns per loop by CL's clock", "by the host's clock, subtracted from the host's time", "synced 8."} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, r.Text(0))
		}
	}
	if c := r.Counters; c == nil || !within2(c.GBps, 3*2048/2100.0) {
		t.Errorf("throughput %+v: want the estimates over the device's time", c)
	}
}

// With --sync=none the host's clock times only the enqueueing, but the
// device's clock still times the work: its stamps are read when the
// harness drains the queue, and they are the sample's.
func TestClockDeviceWithSyncNone(t *testing.T) {
	r := measureClocked(t, newClockedStep(), Options{Loops: 20, Repeats: 20, Sync: SyncNone, TimeBy: ClockDevice})
	if !within2(r.Stats.Median, 2100) || r.Has(WarnEnqueueOnly) || r.Counters.NoThroughput != "" {
		t.Errorf("--sync=none --clock=device: median %v (want 2.1 µs), enqueue-only warning %v, no throughput %q",
			r.Stats.Median, r.Has(WarnEnqueueOnly), r.Counters.NoThroughput)
	}
	h := measureClocked(t, newClockedStep(), Options{Loops: 20, Repeats: 20, Sync: SyncNone})
	if h.Device == nil || !within2(h.Device.Stats.Median, 2100) || !h.Has(WarnEnqueueOnly) {
		t.Fatalf("--sync=none by the host's clock: device %+v, enqueue-only %v", h.Device, h.Has(WarnEnqueueOnly))
	}
	if txt := flat(h.Text(0)); !strings.Contains(txt, "host (enqueueing only, --sync=none)") ||
		!strings.Contains(txt, "did not wait for the device's work") {
		t.Errorf("--sync=none's device row:\n%s", h.Text(0))
	}
}

// Copies are reported per loop with their bytes and rates on both clocks.
func TestTransfersPerLoop(t *testing.T) {
	s := newClockedStep()
	s.copies, s.copyBytes, s.copyNS = 1, 1<<20, 100*time.Microsecond
	r := measureClocked(t, s, Options{Loops: 10, Repeats: 10})
	tr := r.Transfers
	if tr == nil || tr.Copies != 1 || tr.Bytes != 1<<20 || !within2(tr.Device, 1e5) || !within2(tr.Host, 2e5) || tr.Clocked != 1 {
		t.Fatalf("transfers %+v: want 1 copy of 1 MiB per loop, 100 µs by the device clock, 200 µs on the host", tr)
	}
	if d := r.Device; d == nil || d.Copies != 1 || !within2(d.Stats.Median, 2100+1e5) {
		t.Errorf("device time %+v: want the copy among the device's commands", d)
	}
	txt := flat(r.Text(0))
	for _, want := range []string{"transfers 1 copy per loop (host→CL) 1.05 MB per loop host 200 µs (5.24 GB/s) CL's clock 100 µs (10.5 GB/s)",
		"in 3 kernels and 1 copy by CL's clock"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, r.Text(0))
		}
	}
}

// The layouts of the device rows, pinned: within TextWidth.
func TestTextGoldenDevice(t *testing.T) {
	golden := func(r *Result) *Result {
		r.Label = "y = step.Call(x)"
		r.Memory = Memory{}
		r.Provenance = Provenance{Device: "CL", Backend: "OpenCL C (pocl 3.1+debian, cpu)", Inputs: []string{"[256] float32 on CL"},
			CacheState: r.Provenance.CacheState, Env: map[string]string{"GOMAXPROCS": "2", "DEVICE": "CL"}, GoVersion: "go1.26.8",
			Tick: "0.1.0", Commit: "abc1234", Yaegi: "v0.16.1", CPU: "Synthetic CPU @ 2.00GHz", CPUs: 2, Warmup: r.Warmups,
			Date: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)}
		r.Started, r.Finished = time.Time{}, time.Time{}
		r.Warnings = Diagnose(r)
		return r
	}
	s := newClockedStep()
	s.copies, s.copyBytes, s.copyNS = 1, 1024, 2*time.Microsecond
	checkText(t, "timeit-device.txt", golden(measureClocked(t, s, Options{Loops: 20, Repeats: 30})).Text(0))
	checkText(t, "timeit-clock-device.txt", golden(measureClocked(t, newClockedStep(), Options{Loops: 20, Repeats: 30, TimeBy: ClockDevice})).Text(0))
}

// %time on a device with a clock: the call's device time beside the wall
// time, and each direction's copies with bytes and rates on both clocks.
func TestTimeOnceDeviceAndTransfers(t *testing.T) {
	s := newClockedStep()
	s.copies, s.copyBytes, s.copyNS = 1, 1<<20, 100*time.Microsecond
	tg := s.target()
	for range 3 { // cold and capture out of the way: the timed call replays
		if err := tg.Call(1); err != nil {
			t.Fatal(err)
		}
	}
	o, err := TimeOnce(tg, s.c, Provenance{})
	if err != nil {
		t.Fatal(err)
	}
	d := o.Device
	if d == nil || d.Kernels != 3 || d.KernelTime != 2100 || d.Copies != 1 || d.CopyTime != 100*time.Microsecond ||
		strings.Join(d.Devices, ",") != "CL" {
		t.Fatalf("device %+v: want 3 kernels in 2.1 µs and 1 copy in 100 µs by CL's clock", d)
	}
	if len(o.Transfers) != 1 || o.Transfers[0].Direction() != "host→CL" {
		t.Fatalf("transfers %+v", o.Transfers)
	}
	txt := flat(o.Text(0))
	for _, want := range []string{"Device time: 2.10 µs in 3 kernels and 100 µs in 1 copy by CL's clock",
		"of the wall time is the host's", "Transfer: host→CL 1 copy of 1.05 MB: host 200 µs (5.24 GB/s), device 100 µs (10.5 GB/s)"} {
		if !strings.Contains(txt, want) {
			t.Errorf("%%time lacks %q:\n%s", want, o.Text(0))
		}
	}
	o.Provenance = Provenance{Device: "CL", Backend: "OpenCL C (pocl 3.1+debian, cpu)", Env: map[string]string{"DEVICE": "CL"},
		GoVersion: "go1.26.8", Tick: "0.1.0", Commit: "abc1234", Yaegi: "v0.16.1", CPU: "Synthetic CPU @ 2.00GHz", CPUs: 2,
		Date: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)}
	o.User, o.Sys = 190*time.Microsecond, 20*time.Microsecond
	checkText(t, "time-device.txt", o.Text(0))
}
