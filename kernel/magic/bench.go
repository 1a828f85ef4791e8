package magic

import (
	"context"
	"flag"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/magic/opts"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/timing"
)

const benchUsage = "%bench [--count N] [-T DURATION] [--check EXPR] [--plot=hist,trace,ecdf|none] [--svg] [-o] [-v NAME] [-q] [-p DIGITS] [--json] [--vs BenchmarkY] BenchmarkX"

var benchSpecs = []opts.Spec{
	{Names: []string{"--count", "-r"}, Kind: opts.Int, Min: 1},
	{Names: []string{"-T"}, Kind: opts.Duration},
	{Names: []string{"--check"}, Kind: opts.String},
	{Names: []string{"--plot"}, Kind: opts.String, Choices: []string{"hist", "trace", "ecdf", "none"}, Multi: true},
	{Names: []string{"--svg"}, Kind: opts.Bool},
	{Names: []string{"-o"}, Kind: opts.Bool},
	{Names: []string{"-v"}, Kind: opts.String},
	{Names: []string{"-q"}, Kind: opts.Bool},
	{Names: []string{"-p"}, Kind: opts.Int, Min: 1},
	{Names: []string{"--json"}, Kind: opts.Bool},
	{Names: []string{"--vs"}, Kind: opts.String},
}

// benchMagic is %bench: Go benchmark functions run through the timing
// engine.
func benchMagic() Magic {
	return Magic{Name: "bench", Line: true, Help: help("bench"),
		Summary: "run func BenchmarkX(b *testing.B) (compiled in %%go or an imported package, or interpreted) through the timing engine; prints go test -bench lines",
		Run: func(ctx context.Context, c *Call) (Output, error) {
			v, err := bench(ctx, c.Eval, c.Sink, c.Args)
			return Output{Value: v}, err
		}}
}

// bench runs %bench.
func bench(ctx context.Context, h Evaluator, pub outputSink, args string) (*display.Data, error) {
	p, err := opts.Parse("bench", benchUsage, args, benchSpecs)
	if err != nil {
		return nil, err
	}
	bad := func(opt, reason string) error {
		return &UsageError{Magic: "bench", Option: opt, Reason: reason, Usage: benchUsage}
	}
	name := strings.TrimSpace(p.Rest)
	if name == "" || strings.ContainsAny(name, " \t(") {
		return nil, bad("BenchmarkX", "name one benchmark function, e.g. %bench BenchmarkSum (a func(b *testing.B) from a %%go cell, an imported package as pkg.BenchmarkX, or an interpreted cell)")
	}
	if v := p.Text("-v"); p.Has("-v") && !isIdent(v) {
		return nil, bad("-v", "\""+v+"\" is not a Go identifier")
	}
	clock := &benchClock{}
	a, err := benchTarget(h, name, clock)
	if err != nil {
		return nil, err
	}
	if check := p.Text("--check"); check != "" {
		a.target.Check = func() (bool, string, error) { return evalCheck(h, check) }
	}
	topts := timing.Options{Clock: clock, Repeats: p.Int("--count"), Budget: p.Duration("-T"), Provenance: timing.Provenance{Backend: a.backend}}
	if topts.Repeats == 0 {
		topts.Repeats = 10 // like go test -count 10: what benchstat wants
	}
	prog := newProgress(pub, "bench")
	if !p.Has("-q") {
		topts.Progress = prog.update
	}
	plots := []string{"hist", "trace"}
	if s, ok := p.Str("--plot"); ok {
		plots = nil
		for _, k := range strings.Split(s, ",") {
			if k != "none" {
				plots = append(plots, k)
			}
		}
	}
	var rep report
	var r *timing.Result
	digits := p.Int("-p")
	if vs := strings.TrimSpace(p.Text("--vs")); vs != "" {
		b, err := benchTarget(h, vs, clock)
		if err != nil {
			return nil, fmt.Errorf("--vs: %w", err)
		}
		ra, rb, err := timing.Interleave(ctx, a.target, b.target, topts)
		if err != nil {
			prog.abort(stopReason(ctx))
			return nil, fmt.Errorf("%%bench: %w", err)
		}
		ra.Label, rb.Label = name, vs
		ra.Provenance.Backend, rb.Provenance.Backend = a.backend, b.backend
		a.fix(ra)
		b.fix(rb)
		c := timing.Compare(ra, rb)
		doc := newDocument(KindBenchVs)
		doc.Comparison, doc.Results = c, []*timing.Result{ra, rb}
		text := c.Text(digits) + "\n" + ra.Text(digits) + "\n" + rb.Text(digits) + "\n" + goBenchLines(ra, a) + goBenchLines(rb, b)
		rep = report{Text: text, Headlines: []string{c.Header(digits), ra.Headline(digits), rb.Headline(digits)}, Doc: doc}
		r = ra
	} else {
		r, err = timing.Measure(ctx, a.target, topts)
		if err != nil {
			prog.abort(stopReason(ctx))
			return nil, fmt.Errorf("%%bench: %w", err)
		}
		r.Label = name
		a.fix(r)
		if w := benchInterpretedWarning(ctx, a.target.Call, a.backend, r); w != nil { // interpreted.go
			r.Warnings = append(r.Warnings, *w)
		}
		pl, alt, err := resultPlots(r, plots)
		if err != nil {
			return nil, fmt.Errorf("%%bench: %w", err)
		}
		doc := newDocument(KindBench)
		doc.Result = r
		rep = report{Text: r.Text(digits) + "\n" + goBenchLines(r, a), Headlines: []string{r.Headline(digits)}, Plots: pl, Alt: alt, SVG: p.Has("--svg"), Doc: doc}
	}
	if v := p.Text("-v"); v != "" {
		if err := h.SetVar(v, r); err != nil {
			prog.abort("failed")
			return nil, fmt.Errorf("%%bench -v %s: %w", v, err)
		}
	}
	if p.Has("-q") {
		prog.abort("done (-q shows nothing)")
	} else {
		outs, err := rep.outputs(p.Has("--json"))
		if err != nil {
			prog.abort("failed")
			return nil, fmt.Errorf("%%bench: %w", err)
		}
		prog.show(outs)
	}
	if !p.Has("-o") {
		return nil, nil
	}
	return resultValue(r.Headline(digits), rep.Doc, p.Has("-q"))
}

// Document kinds of %bench's results (the machine-readable document of
// output.go).
const (
	KindBench   = "bench"
	KindBenchVs = "bench-vs"
)

// benchRun is one benchmark function made a timing target: each call
// runs it with b.N fixed (testing.Benchmark with -test.benchtime=Nx), and
// the clock counts only the benchmark's own timer (b.ResetTimer and
// b.StopTimer are honoured, as go test does).
type benchRun struct {
	name    string
	backend string
	target  timing.Target
	results []testing.BenchmarkResult // one per call, in order
}

// benchTarget finds the benchmark function name in the session.
func benchTarget(h Evaluator, name string, clock *benchClock) (*benchRun, error) {
	v, err := h.Eval(name)
	if err != nil {
		return nil, fmt.Errorf("%%bench: no benchmark %s: %w", name, err)
	}
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	fn, ok := reflect.Value{}, false
	if v.IsValid() && v.CanInterface() {
		_, ok = v.Interface().(func(*testing.B))
		fn = v
	}
	if !ok {
		t := "no value"
		if v.IsValid() {
			t = v.Type().String()
		}
		return nil, fmt.Errorf("%%bench: %s is a %s, not a benchmark: write func %s(b *testing.B) { for b.Loop() { ... } } in a %%%%go cell (compiled) or a cell (interpreted)", name, t, name)
	}
	bf := fn.Interface().(func(*testing.B))
	br := &benchRun{name: name, backend: backendOfFunc(fn)}
	br.target = timing.Target{Call: func(n int) error {
		res, err := runBenchmark(bf, n, clock)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		br.results = append(br.results, res)
		return nil
	}}
	return br, nil
}

// backendOfFunc says whether fn is compiled Go or an interpreted function.
func backendOfFunc(fn reflect.Value) string {
	if session.IsInterpreted(fn) {
		return "interpreted Go (yaegi)"
	}
	return "compiled Go (" + runtime.Version() + ")"
}

var (
	benchInit sync.Once
	benchMu   sync.Mutex // testing.Benchmark reads the global -test.benchtime flag
)

// runBenchmark runs f with b.N = n and tells clock how much of the call
// was the benchmark's timed region.
func runBenchmark(f func(*testing.B), n int, clock *benchClock) (res testing.BenchmarkResult, err error) {
	benchInit.Do(func() {
		if flag.Lookup("test.benchtime") == nil {
			testing.Init()
		}
	})
	benchMu.Lock()
	defer benchMu.Unlock()
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	defer bt.Value.Set(old)
	if err := bt.Value.Set(fmt.Sprintf("%dx", n)); err != nil {
		return res, err
	}
	var panicked any
	wrapped := func(b *testing.B) {
		defer func() {
			if r := recover(); r != nil {
				panicked = r
				b.SkipNow()
			}
		}()
		f(b)
	}
	start := time.Now()
	res = testing.Benchmark(wrapped)
	wall := time.Since(start)
	clock.exclude(wall - res.T)
	switch {
	case panicked != nil:
		return res, fmt.Errorf("panic: %v", panicked)
	case res.N == 0:
		return res, fmt.Errorf("the benchmark failed or skipped (b.Fatal, b.Skip): nothing was measured")
	case res.N != n:
		return res, fmt.Errorf("ran %d iterations where %d were asked: a benchmark with b.Run sub-benchmarks is not supported here; call the sub-benchmark functions directly", res.N, n)
	}
	return res, nil
}

// benchClock is the wall clock minus the time benchmark calls spent
// outside their timer (setup before b.ResetTimer, b.StopTimer regions,
// testing's first b.N=1 run): so a sample's time is the benchmark timer's,
// as in go test.
type benchClock struct {
	mu       sync.Mutex
	origin   time.Time
	excluded time.Duration
}

func (c *benchClock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.origin.IsZero() {
		c.origin = time.Now()
	}
	return time.Since(c.origin) - c.excluded
}

func (c *benchClock) exclude(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.excluded += d
	}
}

// fix puts the benchmark timer's view into r: memory per op from the
// benchmarks' own counts (the engine's includes testing's setup run), no
// collections inside samples (testing collects before each run, outside
// its timer), and the warnings again.
func (br *benchRun) fix(r *timing.Result) {
	measured := 0
	for _, s := range r.Samples {
		if s.Phase == timing.PhaseMeasured {
			measured++
		}
	}
	res := br.results
	if len(res) >= measured {
		res = res[len(res)-measured:]
	}
	var n, bytes, allocs int64
	for _, x := range res {
		n += int64(x.N)
		bytes += int64(x.MemBytes)
		allocs += int64(x.MemAllocs)
	}
	if n > 0 {
		r.Memory.BytesPerOp, r.Memory.AllocsPerOp = float64(bytes)/float64(n), float64(allocs)/float64(n)
	}
	r.Memory.GCCycles = 0
	for i := range r.Samples {
		r.Samples[i].GCs = 0
	}
	r.Warnings = timing.Diagnose(r)
}

// goBenchLines are the measured samples as go test -bench prints them,
// one line per sample (paste them into a file for benchstat).
func goBenchLines(r *timing.Result, br *benchRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "go test -bench format (one line per measured sample; benchstat reads them):\ngoos: %s\ngoarch: %s\n", runtime.GOOS, runtime.GOARCH)
	if r.Provenance.CPU != "" {
		fmt.Fprintf(&b, "cpu: %s\n", r.Provenance.CPU)
	}
	name := br.name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	measured := 0
	for _, s := range r.Samples {
		if s.Phase == timing.PhaseMeasured {
			measured++
		}
	}
	res := br.results
	if len(res) >= measured {
		res = res[len(res)-measured:]
	}
	procs := runtime.GOMAXPROCS(0)
	i := 0
	for _, s := range r.Samples {
		if s.Phase != timing.PhaseMeasured {
			continue
		}
		line := fmt.Sprintf("%s-%d\t%8d\t%10.2f ns/op", name, procs, s.N, float64(s.Elapsed)/float64(max(s.N, 1)))
		if i < len(res) && res[i].N > 0 {
			line += fmt.Sprintf("\t%8d B/op\t%8d allocs/op", res[i].AllocedBytesPerOp(), res[i].AllocsPerOp())
		}
		b.WriteString(line + "\n")
		i++
	}
	return b.String()
}
