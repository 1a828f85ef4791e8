package profiling

import (
	"github.com/tick-kernel/tick/kernel/magic"
	"strings"

	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/magic/opts"
	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/profile"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

const (
	profUsage     = "%prof [-n CALLS] [-w WARMUP] [--debug] [--trace FILE] [--pprof] [--pprof-out PREFIX] [--plot=timeline|none] [--svg] [-o] [-v NAME] [-q] STATEMENT"
	cellProfUsage = "%%prof [options]   (the cell body is profiled; options as for %prof)"
)

// ProfileMIME is the vendor MIME type of %prof's summary (overlap numbers
// and the kernel table): JupyterLab skips unknown vendor types, so the
// text and the chart are what a person sees.
const ProfileMIME = "application/vnd.tick.profile.v1+json"

// ProfileMetadataKey is the display_data metadata key holding the raw
// events as a Chrome trace (profile.ReadChromeTrace reads it back).
const ProfileMetadataKey = "tick/profile"

var profSpecs = []opts.Spec{
	{Names: []string{"-n"}, Kind: opts.Int, Min: 1},
	{Names: []string{"-w"}, Kind: opts.Int, Min: 0},
	{Names: []string{"--debug"}, Kind: opts.Bool},
	{Names: []string{"--trace"}, Kind: opts.String},
	{Names: []string{"--pprof"}, Kind: opts.Bool},
	{Names: []string{"--pprof-out"}, Kind: opts.String},
	{Names: []string{"--pprof-time"}, Kind: opts.Duration},
	{Names: []string{"--plot"}, Kind: opts.String, Choices: []string{"timeline", "none"}},
	{Names: []string{"--svg"}, Kind: opts.Bool},
	{Names: []string{"--capacity"}, Kind: opts.Int, Min: 16},
	{Names: []string{"-o"}, Kind: opts.Bool},
	{Names: []string{"-v"}, Kind: opts.String},
	{Names: []string{"-q"}, Kind: opts.Bool},
}

// overlapRuns is how many times %prof records the calls to give the
// overlap's spread.
const overlapRuns = 5

// defaultProfCalls is how many times %prof runs the statement: enough for
// a JIT to warm up, capture and replay.
const defaultProfCalls = 5

// profArgs is a parsed %prof line.
type profArgs struct {
	stmt         string
	calls, warm  int
	debug        bool
	trace        string
	pprof        bool
	pprofOut     string
	pprofTime    time.Duration
	plot, svg    bool
	capacity     int
	object       bool
	varName      string
	quiet, isCel bool
}

func parseProf(args, body string, cell bool) (*profArgs, error) {
	usage := profUsage
	if cell {
		usage = cellProfUsage
	}
	p, err := opts.Parse("prof", usage, args, profSpecs)
	if err != nil {
		return nil, err
	}
	str := func(name string) string { v, _ := p.Str(name); return v }
	a := &profArgs{stmt: p.Rest, calls: defaultProfCalls, debug: p.Has("--debug"), trace: str("--trace"),
		pprof: p.Has("--pprof") || p.Has("--pprof-out"), pprofOut: str("--pprof-out"), pprofTime: p.Duration("--pprof-time"),
		plot: str("--plot") != "none", svg: p.Has("--svg"), capacity: p.Int("--capacity"),
		object: p.Has("-o"), varName: str("-v"), quiet: p.Has("-q"), isCel: cell}
	if p.Has("-n") {
		a.calls = p.Int("-n")
	}
	a.warm = p.Int("-w")
	if a.pprofTime == 0 {
		a.pprofTime = time.Second
	}
	if cell {
		if p.Rest != "" {
			return nil, &magic.UsageError{Magic: "prof", Option: p.Rest, Reason: "%%prof takes only options on its line: put the code in the cell body", Usage: usage}
		}
		a.stmt = body
	}
	if strings.TrimSpace(a.stmt) == "" {
		return nil, &magic.UsageError{Magic: "prof", Option: "STATEMENT", Reason: "nothing to profile: give a Go statement, e.g. %prof y = step.Call(x)", Usage: usage}
	}
	if a.varName != "" && !isGoIdent(a.varName) {
		return nil, &magic.UsageError{Magic: "prof", Option: "-v", Reason: fmt.Sprintf("%q is not a Go identifier", a.varName), Usage: usage}
	}
	return a, nil
}

// prof runs %prof / %%prof: the statement is compiled once, run -w times
// unrecorded, then -n times back to back while the runtime records its
// events, and synchronized once at the end (never per call or per kernel:
// the profile shows the program as it normally runs, unless --debug asks
// for DEBUG=2's forced waits).
func prof(ctx context.Context, h magic.Evaluator, pub display.Publisher, args, body string, cell bool) (*display.Data, error) {
	a, err := parseProf(args, body, cell)
	if err != nil {
		return nil, err
	}
	c, err := h.CompileTimed("", a.stmt)
	if err != nil {
		return nil, fmt.Errorf("%%prof: %w", compileErr(err))
	}
	call := c.Loop
	for i := 0; i < a.warm; i++ {
		if err := runCall(ctx, call); err != nil {
			return nil, fmt.Errorf("%%prof: warm-up call %d: %w", i+1, err)
		}
	}
	if err := tensor.SynchronizeAll(); err != nil {
		return nil, fmt.Errorf("%%prof: synchronizing after the warm-up: %w", err)
	}
	p, err := record(ctx, call, a)
	if err != nil {
		return nil, fmt.Errorf("%%prof: %w", err)
	}
	// The overlap of one run moves with the load: record the same calls
	// a few more times and show its spread (the timeline is the first run).
	p.OverlapRuns = []float64{p.Overlap().HostHidden()}
	for range overlapRuns - 1 {
		q, err := record(ctx, call, a)
		if err != nil {
			return nil, fmt.Errorf("%%prof: measuring the overlap again: %w", err)
		}
		p.OverlapRuns = append(p.OverlapRuns, q.Overlap().HostHidden())
		p.Runs = append(p.Runs, q.Runs...)
	}
	var gp *goProfile
	if a.pprof {
		if gp, err = takeGoProfile(ctx, call, a); err != nil {
			return nil, fmt.Errorf("%%prof --pprof: %w", err)
		}
	}
	text := p.Text()
	if a.trace != "" {
		if err := writeTrace(p, a.trace); err != nil {
			return nil, fmt.Errorf("%%prof --trace: %w", err)
		}
		text += fmt.Sprintf("\n  trace    written to %s (Chrome trace-event JSON: open it in https://ui.perfetto.dev or chrome://tracing)", a.trace)
	}
	if a.varName != "" {
		if err := h.SetVar(a.varName, p); err != nil {
			return nil, fmt.Errorf("%%prof -v %s: %w", a.varName, err)
		}
	}
	if !a.quiet {
		d, err := profBundle(p, text, a)
		if err != nil {
			return nil, fmt.Errorf("%%prof: %w", err)
		}
		pub.Publish(d)
		if gp != nil {
			pub.Publish(gp.bundle())
		}
	}
	if !a.object {
		return nil, nil
	}
	sum, err := json.Marshal(summary(p))
	if err != nil {
		return nil, fmt.Errorf("%%prof: %w", err)
	}
	return &display.Data{Bundle: display.Bundle{"text/plain": firstLine(text), ProfileMIME: json.RawMessage(sum)}}, nil
}

// record runs the statement a.calls times while the runtime records, each
// call marked on the host lane, then synchronizes once.
func record(ctx context.Context, call func(int) error, a *profArgs) (p *profile.Profile, err error) {
	level := tensor.DebugLevel()
	if a.debug {
		w := tensor.DebugWriter()
		tensor.SetDebugWriter(io.Discard) // thousands of lines would flood the page
		tensor.SetDebug(max(level, 2))
		defer func() {
			tensor.SetDebug(level)
			tensor.SetDebugWriter(w)
		}()
	}
	// The calls run on this goroutine: kept on one thread, that thread's
	// wait for a CPU is the host's (profile.Run.Descheduled).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wait0, cpu0 := timing.ThreadRunDelay(), timing.ThreadCPU()
	if err := tensor.StartProfile(a.capacity); err != nil {
		return nil, err
	}
	defer func() {
		if rec := tensor.StopProfile(); rec != nil && err == nil {
			p = profile.FromRecording(magic.Label(a.stmt), rec, tensor.DebugLevel())
			waited, cpu := time.Duration(-1), time.Duration(-1)
			if wait1 := timing.ThreadRunDelay(); wait0 >= 0 && wait1 >= 0 {
				waited = wait1 - wait0
			}
			if cpu1 := timing.ThreadCPU(); cpu0 >= 0 && cpu1 >= 0 {
				cpu = cpu1 - cpu0
			}
			p.Runs = []profile.Run{profile.NewRun(p, waited, cpu)}
		}
	}()
	for i := 0; i < a.calls; i++ {
		t0 := time.Now()
		if err := runCall(ctx, call); err != nil {
			return nil, fmt.Errorf("call %d of %d: %w", i+1, a.calls, err)
		}
		tensor.ProfileSpan(callNames(i), t0)
	}
	if err := tensor.SynchronizeAll(); err != nil {
		return nil, fmt.Errorf("synchronizing after the profiled calls: %w", err)
	}
	return nil, nil
}

// callNames names the statement's calls on the timeline; the first ones
// are constants so marking them allocates nothing.
func callNames(i int) string {
	names := [...]string{"call 1", "call 2", "call 3", "call 4", "call 5", "call 6", "call 7", "call 8"}
	if i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("call %d", i+1)
}

func runCall(ctx context.Context, call func(int) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return call(1)
}

func writeTrace(p *profile.Profile, path string) error {
	var buf bytes.Buffer
	if err := p.WriteChromeTrace(&buf); err != nil {
		return err
	}
	if err := profile.ValidateChromeTrace(buf.Bytes()); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return nil
}

// profSummary is the vendor-typed JSON of a profile: the numbers shown,
// machine-readable.
type profSummary struct {
	Label       string                   `json:"label"`
	WallNS      int64                    `json:"wall_ns"`
	Kernels     int                      `json:"kernels"`
	DeviceBusy  int64                    `json:"device_busy_ns"`
	PerDevice   map[string]time.Duration `json:"device_busy_ns_by_device"`
	HostWaiting int64                    `json:"host_waiting_ns"`
	HostWork    int64                    `json:"host_work_ns"`
	Hidden      int64                    `json:"host_work_hidden_ns"`
	Utilization float64                  `json:"device_utilization"`
	HostHidden  float64                  `json:"host_hidden_share"`
	HiddenRuns  []float64                `json:"host_hidden_share_runs"`
	// DeschedRuns and CPURuns are, per run, how long the thread making
	// the calls waited for a CPU and its CPU time (-1: not known).
	DeschedRuns []int64        `json:"host_descheduled_ns_runs,omitempty"`
	CPURuns     []int64        `json:"host_cpu_ns_runs,omitempty"`
	JIT         map[string]int `json:"jit_calls"`
	Debug       int            `json:"debug"`
	Dropped     int64          `json:"dropped_events"`
	Table       []kernelJSON   `json:"kernel_table"`
}

type kernelJSON struct {
	Name      string  `json:"name"`
	Device    string  `json:"device"`
	Count     int     `json:"count"`
	TotalNS   int64   `json:"total_ns"`
	MeanNS    int64   `json:"mean_ns"`
	Share     float64 `json:"share"`
	GFLOPsEst float64 `json:"gflops_est"`
	GBsEst    float64 `json:"gbs_est"`
	CompileNS int64   `json:"compile_ns"`
	Cache     string  `json:"cache"`
}

func summary(p *profile.Profile) profSummary {
	o := p.Overlap()
	s := profSummary{Label: p.Label, WallNS: int64(o.Wall), Kernels: p.Kernels(), DeviceBusy: int64(o.DeviceBusy),
		PerDevice: o.PerDevice, HostWaiting: int64(o.HostWaiting), HostWork: int64(o.HostWork), Hidden: int64(o.Hidden),
		Utilization: o.DeviceUtilization(), HostHidden: o.HostHidden(), HiddenRuns: p.OverlapRuns, JIT: p.JITCalls(), Debug: p.Debug, Dropped: p.Dropped}
	for _, r := range p.Runs {
		s.DeschedRuns = append(s.DeschedRuns, int64(r.Descheduled))
		s.CPURuns = append(s.CPURuns, int64(r.CPU))
	}
	for _, r := range p.KernelTable() {
		s.Table = append(s.Table, kernelJSON{Name: r.Name, Device: r.Device, Count: r.Count, TotalNS: int64(r.Total),
			MeanNS: int64(r.Mean), Share: r.Share, GFLOPsEst: r.GFLOPs, GBsEst: r.GBs, CompileNS: int64(r.Compile), Cache: r.Cache})
	}
	return s
}

// profBundle is what %prof shows: the text, the timeline (PNG, or SVG),
// both inside text/html so Notebook 6, JupyterLab and nbconvert show text
// and chart; text/plain for consoles; the summary under the vendor type;
// the raw events (as a Chrome trace) in the metadata.
func profBundle(p *profile.Profile, text string, a *profArgs) (display.Data, error) {
	sum, err := json.Marshal(summary(p))
	if err != nil {
		return display.Data{}, err
	}
	var trace bytes.Buffer
	if err := p.WriteChromeTrace(&trace); err != nil {
		return display.Data{}, err
	}
	d := display.Data{Bundle: display.Bundle{"text/plain": text, ProfileMIME: json.RawMessage(sum)},
		Metadata: map[string]any{ProfileMetadataKey: json.RawMessage(bytes.TrimSpace(trace.Bytes()))}}
	var chart *image
	if a.plot && len(p.Events) > 0 {
		f := plotting.PNG
		if a.svg {
			f = plotting.SVG
		}
		img, err := plotting.RenderTimeline(p, f)
		if err != nil {
			return display.Data{}, fmt.Errorf("drawing the timeline: %w", err)
		}
		chart = &image{mime: f.MIME(), data: img, alt: "timeline of " + p.Label}
		d.Bundle[f.MIME()] = chart.bundleValue()
	}
	d.Bundle["text/html"] = textAndImageHTML(text, chart)
	return d, nil
}
