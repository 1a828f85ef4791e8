package profile

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

const us1 = time.Microsecond

func kernel(name, dev string, start, end time.Duration) tensor.Event {
	return tensor.Event{Kind: tensor.EventKernel, Name: name, Device: dev, Key: "key " + name, Start: start, End: end,
		Enqueued: start, Shape: []int{256}, FLOPs: 512, Bytes: 2048}
}

func host(kind tensor.EventKind, start, end time.Duration) tensor.Event {
	return tensor.Event{Kind: kind, Start: start, End: end}
}

func TestIntervals(t *testing.T) {
	u := union([]interval{{5, 8}, {0, 2}, {1, 3}, {8, 9}, {4, 4}})
	if want := []interval{{0, 3}, {5, 9}}; !equalIv(u, want) {
		t.Errorf("union = %v, want %v", u, want)
	}
	if got := intersect(u, []interval{{2, 6}, {8, 20}}); got != 1+1+1 {
		t.Errorf("intersect = %d, want 3", got)
	}
	if c := complement(u, 12); !equalIv(c, []interval{{3, 5}, {9, 12}}) {
		t.Errorf("complement = %v", c)
	}
	if c := complement(nil, 4); !equalIv(c, []interval{{0, 4}}) {
		t.Errorf("complement of nothing = %v", c)
	}
}

func equalIv(a, b []interval) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestOverlapOverlappedVsForcedWaits: the same four kernels, once with the
// host enqueueing while the device runs and waiting at the end, once with a
// wait after every kernel (what DEBUG=2 does). The numbers tell them apart.
func TestOverlapOverlappedVsForcedWaits(t *testing.T) {
	var async, forced []tensor.Event
	for i := range 4 {
		at := time.Duration(i) * 10 * us1
		// async: host launches at 0,1,2,3 µs; device runs 10 µs each back to back.
		async = append(async, host(tensor.EventLaunch, time.Duration(i)*us1, time.Duration(i)*us1+us1/2))
		async = append(async, kernel("E_256", "CPU", us1+at, us1+at+10*us1))
		// forced: launch, kernel, wait for it, next.
		s := time.Duration(i) * 12 * us1
		forced = append(forced, host(tensor.EventLaunch, s, s+us1), kernel("E_256", "CPU", s+us1, s+11*us1),
			host(tensor.EventSync, s+us1, s+11*us1))
	}
	async = append(async, host(tensor.EventSync, 4*us1, 41*us1))
	a := (&Profile{Duration: 42 * us1, Events: async}).Overlap()
	f := (&Profile{Duration: 48 * us1, Events: forced}).Overlap()
	if a.DeviceBusy != 40*us1 || f.DeviceBusy != 40*us1 {
		t.Fatalf("device busy %v and %v, want 40µs in both", a.DeviceBusy, f.DeviceBusy)
	}
	if a.HostWork != 5*us1 || a.Hidden != 3*us1 {
		t.Errorf("async: host work %v hidden %v, want 5µs and 3µs (1–4 µs while the first kernel ran)", a.HostWork, a.Hidden)
	}
	if f.Hidden != 0 || f.HostHidden() != 0 {
		t.Errorf("forced waits: %v of host work hidden, want none", f.Hidden)
	}
	if !(a.HostHidden() > 0.5) || !(a.DeviceUtilization() > f.DeviceUtilization()) {
		t.Errorf("async hidden %.2f util %.2f, forced util %.2f", a.HostHidden(), a.DeviceUtilization(), f.DeviceUtilization())
	}
	if a.PerDevice["CPU"] != 40*us1 {
		t.Errorf("per device %v", a.PerDevice)
	}
}

func TestKernelTable(t *testing.T) {
	evs := []tensor.Event{
		kernel("E_256", "CPU", 0, 2*us1),
		kernel("R_256", "CPU", 2*us1, 8*us1),
		kernel("E_256", "CPU", 8*us1, 10*us1),
		{Kind: tensor.EventCompile, Name: "R_256", Device: "CPU", Key: "key R_256", Detail: "compiled", Start: 0, End: 3 * time.Millisecond},
		{Kind: tensor.EventCompile, Name: "R_256", Device: "CPU", Key: "key R_256", Detail: "memory cache"},
	}
	other := kernel("E_256", "CPU", 10*us1, 11*us1)
	other.Key = "another kernel with the same name"
	evs = append(evs, other)
	rows := (&Profile{Events: evs}).KernelTable()
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3: %+v", len(rows), rows)
	}
	r := rows[0]
	if r.Name != "R_256" || r.Count != 1 || r.Total != 6*us1 || r.Share != 6.0/11 || r.Compile != 3*time.Millisecond || r.Cache != "compiled" {
		t.Errorf("first row %+v", r)
	}
	if r.GFLOPs != 512/6e-6/1e9 || r.GBs != 2048/6e-6/1e9 {
		t.Errorf("estimated throughput %v GFLOP/s %v GB/s", r.GFLOPs, r.GBs)
	}
	if e := rows[1]; e.Name != "E_256" || e.Count != 2 || e.Mean != 2*us1 || e.Cache != "earlier" {
		t.Errorf("second row %+v", e)
	}
	if rows[2].Name != "E_256 #2" {
		t.Errorf("a second kernel named E_256 is listed as %q", rows[2].Name)
	}
}

// record profiles a small real workload on the GO device.
func record(t *testing.T, factor float64) *Profile {
	t.Helper()
	if err := tensor.SetDefaultDevice("GO"); err != nil {
		t.Fatal(err)
	}
	x := tensor.Arange(512).Realize()
	step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {
		y := a[0].Mul(factor).Add(1).Realize()
		return y.Sum().Realize()
	})
	if err := tensor.StartProfile(0); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		step.Call(x)
	}
	if err := tensor.SynchronizeAll(); err != nil {
		t.Fatal(err)
	}
	return FromRecording("step.Call(x)", tensor.StopProfile(), 0)
}

func TestChromeTraceValidatesAndLoadsBack(t *testing.T) {
	p := record(t, 2)
	var buf bytes.Buffer
	if err := p.WriteChromeTrace(&buf); err != nil {
		t.Fatal(err)
	}
	if err := ValidateChromeTrace(buf.Bytes()); err != nil {
		t.Fatalf("our own trace does not validate: %v", err)
	}
	// The lanes are named threads.
	var tr Trace
	if err := json.Unmarshal(buf.Bytes(), &tr); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range tr.TraceEvents {
		if e.Ph == "M" && e.Name == "thread_name" {
			names[e.Args["name"].(string)] = true
		}
	}
	if !names["host"] || !names["device GO"] {
		t.Errorf("thread names %v, want host and device GO", names)
	}
	back, err := ReadChromeTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Events) != len(p.Events) || back.Label != p.Label || back.Duration != p.Duration {
		t.Fatalf("read back %d events (label %q, %v), wrote %d (%q, %v)", len(back.Events), back.Label, back.Duration, len(p.Events), p.Label, p.Duration)
	}
	want, got := p.KernelTable(), back.KernelTable()
	// The step's elementwise kernel and its sum (one kernel, or the lane
	// partials and their fold where the device splits reductions).
	if len(got) != len(want) || len(want) < 2 {
		t.Fatalf("kernel table read back has %d rows, written %d (want 2 or more)", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.Name != w.Name || g.Count != w.Count || g.Device != w.Device || g.FLOPs != w.FLOPs || g.Bytes != w.Bytes || absDur(g.Total-w.Total) > time.Duration(g.Count) {
			t.Errorf("row %d read back as %+v, written %+v", i, g, w)
		}
	}
	if o1, o2 := p.Overlap(), back.Overlap(); absDur(o1.DeviceBusy-o2.DeviceBusy) > 100 || absDur(o1.HostWaiting-o2.HostWaiting) > 100 {
		t.Errorf("overlap read back %+v, written %+v", o2, o1)
	}
	if jit := back.JITCalls(); jit["cold"] != 1 || jit["capture"] != 1 || jit["replay"] != 2 {
		t.Errorf("JIT calls read back %v", jit)
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func TestValidateChromeTraceRejects(t *testing.T) {
	cases := map[string]string{
		"not json":     `{"traceEvents": [`,
		"no events":    `{"other": 1}`,
		"no name":      `[{"ph": "X", "ts": 1, "dur": 1, "pid": 1, "tid": 1}]`,
		"bad phase":    `[{"name": "a", "ph": "Q", "ts": 1, "pid": 1, "tid": 1}]`,
		"no ts":        `[{"name": "a", "ph": "X", "dur": 1, "pid": 1, "tid": 1}]`,
		"no dur":       `[{"name": "a", "ph": "X", "ts": 1, "pid": 1, "tid": 1}]`,
		"negative dur": `[{"name": "a", "ph": "X", "ts": 1, "dur": -1, "pid": 1, "tid": 1}]`,
		"string tid":   `[{"name": "a", "ph": "X", "ts": 1, "dur": 1, "pid": 1, "tid": "main"}]`,
		"float pid":    `[{"name": "a", "ph": "i", "ts": 1, "pid": 1.5, "tid": 1}]`,
	}
	for name, data := range cases {
		err := ValidateChromeTrace([]byte(data))
		var te *TraceError
		if !errors.As(err, &te) {
			t.Errorf("%s: ValidateChromeTrace = %v, want a *TraceError", name, err)
		}
	}
	ok := `{"traceEvents": [{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "x"}},
		{"name": "a", "ph": "X", "ts": 1.5, "dur": 0, "pid": 1, "tid": 1}]}`
	if err := ValidateChromeTrace([]byte(ok)); err != nil {
		t.Errorf("a minimal valid trace: %v", err)
	}
}

func TestTextSaysWhatItMeasured(t *testing.T) {
	p := record(t, 3.25) // a kernel not compiled before
	text := p.Text()
	for _, want := range []string{"step.Call(x)", "kernels on GO", "of host work ran while a device was busy",
		"1 cold · 1 capture · 2 replay calls", "estimates", "E_512", "compiled"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	for _, r := range p.KernelTable() { // the sum's kernels too, however the device splits it
		if !strings.Contains(text, cut(r.Name, maxNameWidth)) {
			t.Errorf("text lacks kernel %q:\n%s", r.Name, text)
		}
	}
	if !strings.Contains(text, "\n    R_") {
		t.Errorf("text lacks the sum's kernel (R_…):\n%s", text)
	}
	p.Debug, p.Dropped, p.Capacity = 2, 7, 100
	text = p.Text()
	if !strings.Contains(text, "DEBUG=2 waits for every kernel") || !strings.Contains(text, "7 events did not fit the buffer of 100") {
		t.Errorf("warnings missing:\n%s", text)
	}
}

// TestTransfersLane: copies timed by a device's clock are on a lane of
// their own after the device's kernels, survive the Chrome trace, and the
// text sums them.
func TestTransfersLane(t *testing.T) {
	cp := tensor.Event{Kind: tensor.EventCopy, Name: "host→CL", Device: "CL", Start: 2 * us1, End: 6 * us1, Enqueued: us1, Bytes: 4096}
	p := &Profile{Duration: 20 * us1, Events: []tensor.Event{kernel("E_256", "CL", 7*us1, 9*us1), cp, kernel("E_256", "CPU", 0, 3*us1)}}
	if got, want := strings.Join(p.Lanes(), ","), "host,CL,CL transfers,CPU"; got != want {
		t.Errorf("lanes %s, want %s", got, want)
	}
	if n, b, d := p.Transfers(); n != 1 || b != 4096 || d != 4*us1 {
		t.Errorf("Transfers() = %d, %d, %v", n, b, d)
	}
	if o := p.Overlap(); o.PerDevice["CL transfers"] != 4*us1 || o.PerDevice["CL"] != 2*us1 {
		t.Errorf("per lane %v", o.PerDevice)
	}
	if txt := p.Text(); !strings.Contains(txt, "copies   1 on the devices' queues · 4.10 kB in 4.00 µs by the device clock (1.02 GB/s)") ||
		strings.Contains(txt, "on CL, CL transfers") || strings.Contains(txt, "  clock ") {
		t.Errorf("text:\n%s", txt)
	}
	// CL's lanes drawn by its own clock: the text says so, with the bound
	// of the alignment to the host's timeline; CPU's are not.
	p.Clocks = []tensor.DeviceClock{{Device: "CL", Bound: 900 * time.Nanosecond}}
	if txt := strings.Join(strings.Fields(p.Text()), " "); !p.Clocked("CL") || p.Clocked("CPU") ||
		!strings.Contains(txt, "clock the lanes of CL are its own clock's: each kernel and copy from its started to its ended stamp") ||
		!strings.Contains(txt, "within ±900 ns") {
		t.Errorf("clocked %v/%v, text:\n%s", p.Clocked("CL"), p.Clocked("CPU"), p.Text())
	}
	var buf bytes.Buffer
	if err := p.WriteChromeTrace(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadChromeTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var got []tensor.Event
	for _, e := range back.Events {
		if e.Kind == tensor.EventCopy {
			got = append(got, e)
		}
	}
	if len(got) != 1 || got[0].Name != cp.Name || got[0].Device != "CL" || got[0].Bytes != 4096 || got[0].Enqueued != us1 || got[0].Duration() != 4*us1 {
		t.Errorf("copies read back: %+v", got)
	}
}

// Every line of the text fits the width Notebook 6 shows (timing.TextWidth),
// with the longest label, kernel names and device names, every warning and
// the overlap numbers at their widest.
func TestTextWidth(t *testing.T) {
	evs := []tensor.Event{host(tensor.EventLaunch, 0, 2*us1)}
	for i, name := range []string{"R_1024_1024_1024_r1024_with_a_long_tail", "E_4096_4096", "R_16_r16777216"} {
		e := kernel(name, "OPENCL", time.Duration(i)*1000*us1, time.Duration(i+1)*1000*us1)
		evs = append(evs, e, tensor.Event{Kind: tensor.EventCompile, Name: name, Device: "OPENCL", Key: e.Key,
			Detail: "memory cache", Start: e.Start, End: e.Start + 123456*us1})
	}
	p := FromRecording("out = stepWithAVeryLongName.Call(inputTensor, weights)", &tensor.Recording{Events: evs, Duration: 3123 * time.Millisecond}, 2)
	p.Dropped, p.Capacity, p.Clamped = 1234567, 100000, 999
	p.Clocks = []tensor.DeviceClock{{Device: "OPENCL:12", Bound: 123456 * time.Microsecond}}
	for i, l := range strings.Split(p.Text(), "\n") {
		if n := len([]rune(l)); n > timing.TextWidth {
			t.Errorf("line %d is %d characters wide (limit %d): %q", i+1, n, timing.TextWidth, l)
		}
	}
}

// A profile that is mostly the C compiler says so (and how many kernels
// were compiled); one whose kernels came from the memory cache does not.
func TestCompileDominates(t *testing.T) {
	mk := func(detail string) *Profile {
		evs := []tensor.Event{kernel("E_256", "CPU", 9000*us1, 9100*us1),
			{Kind: tensor.EventCompile, Name: "E_256", Device: "CPU", Detail: detail, Start: 100 * us1, End: 8900 * us1},
			{Kind: tensor.EventCompile, Name: "R_r256", Device: "CPU", Detail: detail, Start: 200 * us1, End: 8800 * us1}}
		return FromRecording("y = step.Call(x)", &tensor.Recording{Events: evs, Duration: 10 * time.Millisecond}, 0)
	}
	p := mk("compiled")
	if c, n := p.Compiling(); c != 8800*us1 || n != 2 {
		t.Errorf("Compiling() = %v, %d; want 8.8 ms (the union), 2", c, n)
	}
	if text := strings.Join(strings.Fields(p.Text()), " "); !strings.Contains(text, "warning: compiling 2 kernels took 8.80 ms of the 10.0 ms wall (88%)") {
		t.Errorf("no compile warning:\n%s", p.Text())
	}
	if text := mk("memory cache").Text(); strings.Contains(text, "compiling") {
		t.Errorf("compile warning for memory-cache hits:\n%s", text)
	}
}

// TestDescheduledHostCountsAsHidden: under forced waits a host thread
// descheduled between a launch and its wait "works" while the kernel runs,
// so the overlap reads hidden host work; the runs' Descheduled sum says how
// long the thread waited for a CPU, and the text says so only when that is
// more than timing.DescheduledShare of the runs' wall time.
func TestDescheduledHostCountsAsHidden(t *testing.T) {
	// launch at 0–1 µs, descheduled 1–9 µs (no span: host work) while the
	// kernel runs 1–10 µs, then the wait 9–10 µs, then 10 µs of host work.
	evs := []tensor.Event{host(tensor.EventLaunch, 0, us1), kernel("E_256", "CL", us1, 10*us1),
		host(tensor.EventSync, 9*us1, 10*us1)}
	p := &Profile{Label: "step.Call(x)", Duration: 20 * us1, Events: evs, Debug: 2}
	if o := p.Overlap(); o.Hidden != 8*us1 || o.HostWork != 19*us1 {
		t.Fatalf("hidden %v of host work %v, want 8µs of 19µs", o.Hidden, o.HostWork)
	}
	if _, ok := p.Descheduled(); ok {
		t.Fatal("Descheduled known without runs")
	}
	for _, c := range []struct {
		waited, cpu time.Duration
		wantLine    bool
		idle        time.Duration
	}{
		{8 * us1, 11 * us1, true, 8 * us1},  // descheduled in the gap: off the CPU for 8 of its 19 µs of host work
		{8 * us1, 19 * us1, true, 0},        // waited as long, but ran all its host work: the wait was elsewhere
		{us1 / 2, 11 * us1, false, us1 / 2}, // off the CPU longer than it waited for one (blocked): only the wait counts
		{us1 / 2, 18*us1 + us1/2, false, us1 / 2},
	} {
		p.Runs = []Run{NewRun(p, c.waited, c.cpu), NewRun(p, c.waited, c.cpu)}
		sum, ok := p.Descheduled()
		if !ok || sum.Descheduled != 2*c.waited || sum.CPU != 2*c.cpu || sum.Hidden != 16*us1 || sum.HostWork != 38*us1 || sum.Wall != 40*us1 {
			t.Fatalf("Descheduled() = %+v, %v", sum, ok)
		}
		if got := p.Runs[0].IdleWork(); got != c.idle {
			t.Errorf("waited %v, ran %v of 19µs host work: IdleWork %v, want %v", c.waited, c.cpu, got, c.idle)
		}
		// Of the host work it can have been running, the share hidden.
		if got, want := p.Runs[0].RunningHidden(), float64(8*us1-c.idle)/float64(19*us1-c.idle); math.Abs(got-want) > 1e-12 {
			t.Errorf("waited %v, ran %v: RunningHidden %.3f, want %.3f", c.waited, c.cpu, got, want)
		}
		text := p.Text()
		if got := strings.Contains(text, "waited "+dur(2*c.waited)+" for a CPU"); got != c.wantLine {
			t.Errorf("waited %v of 40µs: the busy line shown %v, want %v:\n%s", 2*c.waited, got, c.wantLine, text)
		}
	}
	if (Run{Descheduled: us1, CPU: -1}).IdleWork() != -1 {
		t.Error("IdleWork known without the CPU time")
	}
	p.Runs = append(p.Runs, Run{Descheduled: -1})
	if _, ok := p.Descheduled(); ok {
		t.Error("a run whose wait is unknown: Descheduled still ok")
	}
}
