package app_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
)

// sumBody is the benchmarked function for %bench vs go test -bench: the
// sum of 2,000 ints (about 1 µs compiled on these machines).
const sumBody = `func BenchmarkSum(b *testing.B) {
	xs := make([]int, 2000)
	for i := range xs {
		xs[i] = i
	}
	b.ResetTimer()
	s := 0
	for i := 0; i < b.N; i++ {
		for _, x := range xs {
			s += x
		}
	}
	Sink = s
}

var Sink int
`

// TestCompiledGoFigures measures, in one run, what docs/benchmarks.md
// reports for compiled Go: the first import of a module (plugin build
// with a warm go build cache) and a cached one (a second session, the
// plugin from the disk cache), the compile-and-load time of a small %%go
// cell, the call overhead of an interpreted cell calling a compiled
// function, and %bench against go test -bench on the same function.
// It is a test, not a benchmark, because %bench calls testing.Benchmark,
// which waits for a running benchmark to end. Run:
// TICK_FIGURES=1 go test -run CompiledGoFigures -v ./kernel/app
func TestCompiledGoFigures(b *testing.T) {
	if os.Getenv("TICK_FIGURES") == "" {
		b.Skip("measures the figures of docs/benchmarks.md; set TICK_FIGURES=1")
	}
	report := func(v float64, unit string) { b.Logf("%-22s %.4g", unit, v) }
	dir := b.TempDir()
	b.Setenv("TICK_CACHE_DIR", dir)
	newRun := func() *run {
		r, err := app.New(session.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return &run{t: b, r: r}
	}
	timed := func(r *run, code string) time.Duration {
		start := time.Now()
		if _, err := r.cell(code); err != nil {
			b.Fatalf("%s: %v", code, err.Value)
		}
		return time.Since(start)
	}
	first := newRun()
	timed(first, "%%go\nfunc Warm() {}\n") // the symbol generator is built once per binary
	report(timed(first, `import "github.com/google/uuid"`).Seconds(), "s-first-import")
	second := newRun()
	report(timed(second, `import "github.com/google/uuid"`).Seconds(), "s-cached-import")
	report(timed(first, "%%go\nfunc Add(a, b int) int { return a + b }\nfunc Nop() {}\n").Seconds(), "s-gocell")
	// Call overhead: an empty compiled function called from the
	// interpreter, against the empty statement (the floor).
	out, err := first.cell("%timeit -q -o -T 1s Nop()")
	if err != nil {
		b.Fatal(err.Value)
	}
	report(headlineNs(out), "ns-call-compiled")
	first.cell("func nopInterp() {}")
	out, err = first.cell("%timeit -q -o -T 1s nopInterp()")
	if err != nil {
		b.Fatal(err.Value)
	}
	report(headlineNs(out), "ns-call-interpreted")
	// %bench vs go test -bench, same function, same run.
	timed(first, "%%go\nimport \"testing\"\n"+sumBody)
	out, err = first.cell("%bench --count 10 -T 2s --plot=none BenchmarkSum")
	if err != nil {
		b.Fatal(err.Value)
	}
	tick := medianOfLines(out)
	mod := b.TempDir()
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module sum\n\ngo 1.24\n"), 0o600)
	os.WriteFile(filepath.Join(mod, "sum_test.go"), []byte("package sum\n\nimport \"testing\"\n\n"+sumBody), 0o600)
	// The same b.N per sample as tick's calibration chose, so both take
	// samples of the same length (on a loaded machine, 1 s samples
	// collect preemptions that short ones mostly avoid).
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "Sum", "-count", "10", "-benchtime", strconv.Itoa(loopsOf(out))+"x")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	gt, e := cmd.CombinedOutput()
	if e != nil {
		b.Fatalf("go test -bench: %v\n%s", e, gt)
	}
	goTest := medianOfLines(string(gt))
	report(tick, "ns-bench-tick")
	report(goTest, "ns-bench-gotest")
	report(tick/goTest, "ratio-tick/gotest")
}

var headline = regexp.MustCompile(`^([\d.]+) (ns|µs|ms|s) ±`)

// headlineNs reads the median of a %timeit -o headline in ns.
func headlineNs(out string) float64 {
	for _, l := range strings.Split(out, "\n") {
		if m := headline.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			return v * map[string]float64{"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}[m[2]]
		}
	}
	return -1
}

var benchLine = regexp.MustCompile(`(?m)^BenchmarkSum-\d+\s+(\d+)\s+([\d.]+) ns/op`)

// loopsOf is b.N of the first go test -bench line.
func loopsOf(out string) int {
	if m := benchLine.FindStringSubmatch(out); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 1000
}

// medianOfLines is the median ns/op of go test -bench lines.
func medianOfLines(out string) float64 {
	var xs []float64
	for _, m := range benchLine.FindAllStringSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		xs = append(xs, v)
	}
	if len(xs) == 0 {
		return -1
	}
	sort.Float64s(xs)
	return xs[len(xs)/2]
}
