package magic_test

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/magic/profiling"
	"github.com/tick-kernel/tick/profile"
)

// profSummary is the part of %prof's vendor JSON these tests read.
type profSummary struct {
	Kernels    int            `json:"kernels"`
	HostHidden float64        `json:"host_hidden_share"`
	HiddenRuns []float64      `json:"host_hidden_share_runs"`
	Desched    []int64        `json:"host_descheduled_ns_runs"`
	JIT        map[string]int `json:"jit_calls"`
	Debug      int            `json:"debug"`
	Table      []struct {
		Name string `json:"name"`
	} `json:"kernel_table"`
}

const profSetup = `import "tick/runtime/tensor"
x := tensor.Rand(2048).Realize()
many := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {
	y := a[0]
	for i := 0; i < 6; i++ {
		y = y.Mul(0.999).Add(0.001).Realize()
	}
	return y.Exp().Sum().Realize()
})
var y *tensor.Tensor`

// visible checks what front ends show: text/html holding the text and an
// image (Notebook 6, nbconvert and JupyterLab show text/html first), no
// application/json (JupyterLab would show a JSON tree instead).
func visible(t *testing.T, d display.Data, wantText ...string) string {
	t.Helper()
	if _, ok := d.Bundle["application/json"]; ok {
		t.Error("the bundle has application/json: JupyterLab would render a JSON tree instead of the output")
	}
	h, _ := d.Bundle["text/html"].(string)
	plain, _ := d.Bundle["text/plain"].(string)
	for _, w := range wantText {
		if !strings.Contains(plain, w) {
			t.Errorf("text/plain lacks %q:\n%s", w, plain)
		}
		if !strings.Contains(h, htmlEscape(w)) {
			t.Errorf("text/html lacks %q", w)
		}
	}
	if !strings.Contains(h, "<img src=\"data:image/") && !strings.Contains(h, "<svg") {
		t.Errorf("text/html has no image: %.300s", h)
	}
	return plain
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

func TestProfThroughSession(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, profSetup)
	trace := filepath.Join(t.TempDir(), "many.json")
	k := mustRun(t, s, 2, "%prof -n 6 --trace "+trace+" -v p y = many.Call(x)")
	if len(k.Published()) != 1 {
		t.Fatalf("%d outputs, want 1", len(k.Published()))
	}
	d := k.Published()[0]
	text := visible(t, d, "y = many.Call(x)", "of host work ran while a device was busy", "1 cold · 1 capture · 4 replay calls", "E_2048", "trace    written to")
	img, ok := d.Bundle["image/png"].([]byte)
	if !ok {
		t.Fatalf("no image/png")
	}
	if _, err := png.Decode(bytes.NewReader(img)); err != nil {
		t.Errorf("timeline PNG: %v", err)
	}
	var sum profSummary
	if err := json.Unmarshal(d.Bundle[profiling.ProfileMIME].(json.RawMessage), &sum); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "over 5 runs of the same calls: host work hidden") || len(sum.HiddenRuns) != 5 {
		t.Errorf("the overlap's spread over 5 runs is not shown (%v):\n%s", sum.HiddenRuns, text)
	}
	// Each run says how long the calling thread waited for a CPU (Linux
	// keeps it in schedstat; -1 elsewhere).
	if len(sum.Desched) != 5 {
		t.Errorf("the host thread's wait for a CPU per run: %v, want 5 figures", sum.Desched)
	}
	for _, d := range sum.Desched {
		if _, err := os.Stat("/proc/thread-self/schedstat"); (err == nil) != (d >= 0) {
			t.Errorf("the host thread's wait for a CPU per run: %v (schedstat readable: %v)", sum.Desched, err == nil)
		}
	}
	// 6 calls of the same kernels: 7 a call, or more where the device
	// splits the sum (lane partials, then their fold).
	if sum.Kernels%6 != 0 || sum.Kernels < 6*7 || sum.JIT["replay"] != 4 || len(sum.Table) < 2 {
		t.Errorf("summary: %d kernels, JIT %v, %d table rows\n%s", sum.Kernels, sum.JIT, len(sum.Table), text)
	}
	// The metadata's raw events and the trace file are the same valid
	// Chrome trace, and read back.
	raw, _ := d.Metadata[profiling.ProfileMetadataKey].(json.RawMessage)
	if err := profile.ValidateChromeTrace(raw); err != nil {
		t.Errorf("metadata trace: %v", err)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := profile.ReadChromeTrace(f)
	if err != nil {
		t.Fatal(err)
	}
	if back.Kernels() != sum.Kernels {
		t.Errorf("trace file has %d kernels, profile %d", back.Kernels(), sum.Kernels)
	}
	// -v bound the profile for code.
	k = mustRun(t, s, 3, `p.Kernels()`)
	_ = k
}

// TestProfDebugLosesOverlap: a step whose kernels take a while, then host
// work in Go. Normally the host's work may run while the device computes;
// with --debug every kernel is waited for, so it cannot.
func TestProfDebugLosesOverlap(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, `import "tick/runtime/tensor"
a := tensor.Rand(192, 192).Realize()
b := tensor.Rand(192, 192).Realize()
mm := tensor.JIT(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Matmul(in[1]).Realize().Relu().Realize() })
var out *tensor.Tensor
buf := make([]float32, 1<<15)
prepare := func() {
	for i := range buf {
		buf[i] = buf[i]*0.5 + 1
	}
}`)
	get := func(cell string) profSummary {
		k := mustRun(t, s, 2, cell)
		var sum profSummary
		if err := json.Unmarshal(k.Published()[0].Bundle[profiling.ProfileMIME].(json.RawMessage), &sum); err != nil {
			t.Fatal(err)
		}
		return sum
	}
	normal := get("%prof -w 3 -n 10 --plot=none out = mm.Call(a, b); prepare()")
	debug := get("%prof -w 3 -n 10 --plot=none --debug out = mm.Call(a, b); prepare()")
	if debug.Debug != 2 || normal.Debug != 0 {
		t.Errorf("debug levels %d and %d", normal.Debug, debug.Debug)
	}
	if debug.HostHidden > 0.25 {
		t.Errorf("with forced waits %.0f%% of host work still overlapped the device", 100*debug.HostHidden)
	}
	// How much host work hides behind the device is a matter of which
	// thread gets a CPU when: on a busy machine the host's work can wait
	// until the device has finished even without --debug. The comparison
	// is asserted by the runs' own spread (%prof records five): when the
	// ranges of the two overlap, this load cannot tell them apart (a skip,
	// saying so); when they are apart, --debug must be the lower.
	nlo, nhi := minMax(normal.HiddenRuns)
	dlo, dhi := minMax(debug.HiddenRuns)
	switch {
	case len(normal.HiddenRuns) < 2 || len(debug.HiddenRuns) < 2:
		t.Fatalf("overlap runs: %v and %v, want several each", normal.HiddenRuns, debug.HiddenRuns)
	case dlo > nhi:
		t.Errorf("host work hidden behind the device: %.2f–%.2f with --debug, %.2f–%.2f without; want less with --debug", dlo, dhi, nlo, nhi)
	case nlo <= dhi:
		t.Skipf("the overlap runs overlap (%.2f–%.2f without --debug, %.2f–%.2f with): the machine was too busy to tell them apart", nlo, nhi, dlo, dhi)
	}
}

func minMax(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	lo, hi = xs[0], xs[0]
	for _, x := range xs[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

func TestProfPprof(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, profSetup+`
hostWork := func() (s float64) {
	for i := 0; i < 20000; i++ {
		s += float64(i)
	}
	return s
}`)
	out := filepath.Join(t.TempDir(), "many")
	// The statement does host work of its own: a JIT call alone spends most
	// of its time waiting for the device, and 300 ms at 100 Hz is too few
	// samples for its own goroutine to be sure to get one (the race
	// detector's runs showed a flame graph without the statement's root).
	k := mustRun(t, s, 2, "%prof -n 2 --pprof-out "+out+" --pprof-time 300ms y = many.Call(x); _ = hostWork()")
	if len(k.Published()) != 2 {
		t.Fatalf("%d outputs, want 2 (profile, Go profiles)", len(k.Published()))
	}
	text := visible(t, k.Published()[1], "%prof --pprof: Go profiles", "flat%", "saved    "+out+".cpu.pb.gz")
	if !strings.Contains(text, profile.InterpretedFrame) && !strings.Contains(text, "runtime/tensor") {
		t.Errorf("the top table names neither the interpreter frame nor tick's runtime:\n%s", text)
	}
	svg, _ := k.Published()[1].Bundle["image/svg+xml"].(string)
	if !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, profile.RootStatement) {
		t.Errorf("flame graph SVG lacks the statement's root: %.300s", svg)
	}
	for _, suffix := range []string{".cpu.pb.gz", ".alloc.pb.gz"} {
		if st, err := os.Stat(out + suffix); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", out+suffix, err)
		}
	}
}

func TestProfBadInput(t *testing.T) {
	s := newSession(t)
	for _, cell := range []string{"%prof", "%prof -n 0 x := 1", "%prof --bogus x := 1", "%prof y = undefinedThing()", "%prof -v 1x x := 1"} {
		res, k := run(t, s, 1, cell)
		if res.Err == nil {
			t.Errorf("%q: no error", cell)
		}
		if len(k.Published()) != 0 {
			t.Errorf("%q: showed %d outputs", cell, len(k.Published()))
		}
	}
}

func TestViz(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, `import "tick/runtime/tensor"
a := tensor.Rand(16, 16).Realize()
step := tensor.JIT(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Mul(2).Realize().Sum(1).Realize() })`)
	k := mustRun(t, s, 2, "%viz a.Sub(a.Sum(1).Div(16)).Exp()")
	if len(k.Published()) != 1 {
		t.Fatalf("%d outputs", len(k.Published()))
	}
	d := k.Published()[0]
	plain := visible(t, d, "2 kernels", "why a kernel", "reduce", "estimated 256 FLOP, 1.09 kB per launch")
	h := d.Bundle["text/html"].(string)
	if !strings.Contains(h, "<details><summary>kernel 1") || !strings.Contains(h, "cluster_k1") && !strings.Contains(h, "kernel 2: ") {
		t.Errorf("html lacks the kernel sections or clusters:\n%.500s", h)
	}
	if !strings.Contains(d.Bundle["image/svg+xml"].(string), "kernel 1: ") {
		t.Error("the SVG does not label the kernel clusters")
	}
	_ = plain
	// Nothing was computed.
	res, k2 := run(t, s, 3, "tensor.Counters().KernelsLaunched")
	_ = res
	_ = k2
	mustRun(t, s, 4, "step.Call(a); step.Call(a)")
	k = mustRun(t, s, 5, "%viz step")
	visible(t, k.Published()[0], "JIT: 2 captured kernels")
	res, _ = run(t, s, 6, "%viz 42")
	if res.Err == nil || !strings.Contains(res.Err.Value, "is a int") {
		t.Errorf("%%viz 42: %v", res.Err)
	}
}

// TestProfCellAndValue: %%prof profiles the cell body; -o makes a summary
// the cell's value (text and the vendor JSON, no application/json); -q
// shows nothing.
func TestProfCellAndValue(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, profSetup)
	k := mustRun(t, s, 2, "%%prof -n 3 -q -v cp\ny = many.Call(x)\ny = many.Call(x)")
	if len(k.Published()) != 0 {
		t.Errorf("-q showed %d outputs", len(k.Published()))
	}
	res, _ := run(t, s, 3, "cp.JITCalls()[\"capture\"] == 1 && cp.JITCalls()[\"replay\"] == 4")
	if res.Err != nil || res.Value == nil || res.Value.Bundle["text/plain"] != "true" {
		t.Errorf("the cell body ran twice per call: want 1 capture and 4 replays in 3 calls; got %+v", res)
	}
	res, _ = run(t, s, 4, "%prof -o -q -n 2 y = many.Call(x)")
	if res.Err != nil || res.Value == nil {
		t.Fatalf("-o: %+v", res)
	}
	if _, ok := res.Value.Bundle["application/json"]; ok {
		t.Error("the value carries application/json")
	}
	if _, ok := res.Value.Bundle[profiling.ProfileMIME]; !ok || !strings.Contains(res.Value.Bundle["text/plain"].(string), "kernels on") {
		t.Errorf("value bundle %v", res.Value.Bundle)
	}
	if res, _ := run(t, s, 5, "%%prof y = many.Call(x)\ny = many.Call(x)"); res.Err == nil {
		t.Error("a cell prof with code on its first line: no error")
	}
}
