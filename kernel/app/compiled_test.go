package app_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/gocompile"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// compiledSession is a production session for compiled-Go tests, with its
// plugin cache in a temporary directory; tests that build plugins skip
// where this binary cannot load them (and under the race detector, where
// every plugin build would recompile the standard library in race mode).
func compiledSession(t *testing.T) *run {
	t.Helper()
	if err := gocompile.Supported(); err != nil {
		t.Skip(err)
	}
	if raceEnabled {
		t.Skip("plugin builds are not run under the race detector")
	}
	t.Setenv("TICK_CACHE_DIR", sharedCache(t))
	r, err := app.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &run{t: t, r: r}
}

var (
	cacheOnce sync.Once
	cacheDir  string
)

// sharedCache is one plugin cache for all the tests of the package (the
// symbol generator is built once), removed by TestMain.
func sharedCache(t *testing.T) string {
	cacheOnce.Do(func() {
		d, err := os.MkdirTemp("", "tick-app-test-")
		if err != nil {
			t.Fatal(err)
		}
		cacheDir = d
	})
	return cacheDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cacheDir != "" {
		os.RemoveAll(cacheDir)
	}
	os.Exit(code)
}

type run struct {
	t *testing.T
	r session.Runner
	n int
}

// cell runs code as the next cell and returns its stdout and value text.
func (r *run) cell(code string) (string, *session.Error) {
	if r.t != nil {
		r.t.Helper()
	}
	r.n++
	out := &sinktest.Recorder{}
	res := r.r.Execute(context.Background(), session.Cell{Code: code, Count: r.n}, out)
	text := screen(out)
	if res.Value != nil {
		text += res.Value.Bundle["text/plain"].(string)
	}
	return text, res.Err
}

func (r *run) ok(code string) string {
	r.t.Helper()
	out, err := r.cell(code)
	if err != nil {
		r.t.Fatalf("cell %q: %v", code, err.Value)
	}
	return out
}

// screen is what k recorded as a person reads it: the streams and the
// displayed text (the last text of each display ID), in order.
func screen(k *sinktest.Recorder) string {
	var out []string
	byID := map[string]int{}
	for _, e := range k.Events() {
		text, id := e.Text, ""
		switch e.Kind {
		case sinktest.Publish, sinktest.Update:
			t, _ := e.Data.Bundle["text/plain"].(string)
			text, id = t+"\n", e.Data.ID
		case sinktest.Clear:
			continue
		}
		if i, ok := byID[id]; ok && id != "" {
			out[i] = text
			continue
		}
		if id != "" {
			byID[id] = len(out)
		}
		out = append(out, text)
	}
	return strings.Join(out, "")
}

func TestImportModulesAndCompiledCells(t *testing.T) {
	r := compiledSession(t)
	out := r.ok(`import "github.com/google/uuid"
u := uuid.MustParse("f47ac10b-58cc-4372-8567-0e02b2c3d479")
u.Version()`)
	if !strings.Contains(out, "imported github.com/google/uuid v1.6.0") || !strings.HasSuffix(out, "VERSION_4") {
		t.Fatalf("uuid cell: %q", out)
	}
	out = r.ok(`import "gonum.org/v1/gonum/mat"
a := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
var c mat.Dense
c.Mul(a, a)
c.At(1, 1)`)
	if !strings.HasSuffix(out, "22") {
		t.Fatalf("mat cell: %q", out)
	}
	out = r.ok(`%%go
import "iter"

func Count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func Map[T, U any](xs []T, f func(T) U) []U {
	var out []U
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Squares uses range over a function and generic inference.
func Squares(n int) []int {
	var xs []int
	for i := range Count(n) {
		xs = append(xs, i)
	}
	return Map(xs, func(x int) int { return x * x })
}`)
	if !strings.Contains(out, "Count, Squares usable") || !strings.Contains(out, "Map is generic") {
		t.Fatalf("%%%%go cell: %q", out)
	}
	if out := r.ok("import \"fmt\"\nfmt.Sprint(Squares(4))"); !strings.Contains(out, "[0 1 4 9]") {
		t.Fatalf("calling the compiled cell: %q", out)
	}
	// The same code interpreted is refused by the interpreter.
	if _, err := r.cell("import \"fmt\"\nfunc sq(n int) (s int) { for i := range Count(n) { s += i }; return }\nfmt.Println(sq(3))"); err == nil {
		t.Log("note: the interpreter now accepts range over a function")
	}
}

// A standard package left out of the interpreter's tables (std.Compiled:
// they would make tick's own build a third longer) is compiled on first
// import, and says so; then it is used like any package.
func TestStandardPackageOutsideTheTablesIsCompiled(t *testing.T) {
	r := compiledSession(t)
	out := r.ok("import \"net/http\"\nhttp.StatusText(http.StatusTeapot)")
	if !strings.Contains(out, "imported net/http (Go's standard library, not built into tick's interpreter): compiled") ||
		!strings.HasSuffix(out, `"I'm a teapot"`) {
		t.Fatalf("net/http cell: %q", out)
	}
}

// Without a way to build Go, the error says what the package is and what
// importing it needs.
func TestStandardPackageOutsideTheTablesWithoutImporter(t *testing.T) {
	s, err := session.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &run{t: t, r: s}
	_, cerr := r.cell("import \"net/http\"\nhttp.StatusText(404)")
	if cerr == nil || !strings.Contains(cerr.Error(), `cannot import "net/http": it is in Go's standard library but not built into tick's interpreter`) ||
		!strings.Contains(cerr.Error(), "compiled on first import when the kernel can build Go") {
		t.Fatalf("import without an importer: %v", cerr)
	}
}

func TestCompiledCellSharesTheRuntime(t *testing.T) {
	r := compiledSession(t)
	r.ok(`%%go
import "tick/runtime/tensor"

// Kernels is the number of kernels the runtime launched so far.
func Kernels() int64 { return tensor.Counters().KernelsLaunched }
`)
	out := r.ok(`import "tick/runtime/tensor"
before := Kernels()
tensor.Arange(8).Mul(2).Realize().Float32s()
Kernels() - before == tensor.Counters().KernelsLaunched - before && Kernels() > before`)
	if !strings.HasSuffix(out, "true") {
		t.Fatalf("compiled code does not see the kernel's runtime counters: %q", out)
	}
}

// A local module used with %go use: importing it again after an edit
// loads the new version.
func TestLocalModuleEditedBetweenImports(t *testing.T) {
	r := compiledSession(t)
	dir := t.TempDir()
	write := func(body string) {
		t.Helper()
		os.WriteFile(dir+"/go.mod", []byte("module example.com/greet\n\ngo 1.22\n"), 0o600)
		if err := os.WriteFile(dir+"/greet.go", []byte("package greet\n\n"+body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`func Hello() string { return "hello, v1" }` + "\n")
	if out := r.ok("%go use " + dir); !strings.Contains(out, "using example.com/greet from") {
		t.Fatalf("%%go use: %q", out)
	}
	if out := r.ok("import \"example.com/greet\"\ngreet.Hello()"); !strings.HasSuffix(out, `"hello, v1"`) {
		t.Fatalf("first import: %q", out)
	}
	if out := r.ok("import \"example.com/greet\"\ngreet.Hello()"); !strings.HasSuffix(out, `"hello, v1"`) || strings.Contains(out, "imported") {
		t.Fatalf("unchanged re-import: %q", out)
	}
	write(`func Hello() string { return "hello, v2" }` + "\n")
	out := r.ok("import \"example.com/greet\"\ngreet.Hello()")
	if !strings.HasSuffix(out, `"hello, v2"`) || !strings.Contains(out, "version 2 of this session") {
		t.Fatalf("import after the edit: %q", out)
	}
	if out := r.ok("%go list"); !strings.Contains(out, "example.com/greet => "+dir) || !strings.Contains(out, "example.com/greet version 2") {
		t.Fatalf("%%go list: %q", out)
	}
}

// Errors a user meets, each with what to do.
func TestCompiledErrors(t *testing.T) {
	r := compiledSession(t)
	_, err := r.cell("%go get gonum.org/v1/gonum@v0.16.0")
	if err == nil || !strings.Contains(err.Value, "gonum.org/v1/gonum@v0.16.0: this tick was built with gonum.org/v1/gonum v0.17.0") {
		t.Fatalf("version conflict: %v", err)
	}
	if os.Getenv("TICK_OFFLINE") == "" {
		// A local module that needs a newer version of a module tick links.
		dir := t.TempDir()
		os.WriteFile(dir+"/go.mod", []byte("module example.com/newsys\n\ngo 1.22\n\nrequire golang.org/x/sys v0.50.0\n"), 0o600)
		os.WriteFile(dir+"/s.go", []byte("package newsys\n\nimport _ \"golang.org/x/sys/unix\"\n"), 0o600)
		_, err = r.cell("%go use " + dir)
		if err == nil || !strings.Contains(err.Value, "needs golang.org/x/sys v0.50.0") || !strings.Contains(err.Value, "built with golang.org/x/sys v0.48.0") {
			t.Fatalf("version conflict of a dependency: %v", err)
		}
	}
	if os.Getenv("TICK_OFFLINE") == "" {
		_, err = r.cell(`import "github.com/tick-kernel/no-such-module-here"`)
		if err == nil || !strings.Contains(err.Value, "cannot fetch github.com/tick-kernel/no-such-module-here") {
			t.Fatalf("unfetchable module: %v", err)
		}
	}
	_, err = r.cell("%%go\nfunc Bad() int {\n\treturn nope\n}\n")
	if err == nil || !errors.Is(err, cell.CompileError) || !strings.Contains(err.Value, "cell[") || !strings.Contains(err.Value, ":3:9: undefined: nope") {
		t.Fatalf("compile error: %v", err)
	}
}

// The go command is looked for once: missing, or of another version than
// the binary's, the error says which and what to do.
func TestToolchainErrors(t *testing.T) {
	if err := gocompile.Supported(); err != nil {
		t.Skip(err)
	}
	t.Setenv("TICK_CACHE_DIR", t.TempDir())
	t.Setenv("TICK_GO", "/nonexistent/go")
	r := &run{t: t, r: must(app.New(session.Options{}))}
	_, err := r.cell(`import "github.com/google/uuid"`)
	if err == nil || !strings.Contains(err.Value, "no go command (/nonexistent/go") || !strings.Contains(err.Value, "put its bin directory on PATH") {
		t.Fatalf("no go: %v", err)
	}
	fake := t.TempDir() + "/go"
	os.WriteFile(fake, []byte("#!/bin/sh\necho go1.19.1\n"), 0o700)
	t.Setenv("TICK_GO", fake)
	r = &run{t: t, r: must(app.New(session.Options{}))}
	_, err = r.cell("%%go\nfunc F() {}\n")
	if err == nil || !strings.Contains(err.Value, "is go1.19.1, but this tick was built with go1.") {
		t.Fatalf("go version mismatch: %v", err)
	}
}

func must(r session.Runner, err error) session.Runner {
	if err != nil {
		panic(err)
	}
	return r
}

// %bench runs a compiled and an interpreted benchmark of the same sum
// through the timing engine; %compare reports the interpreted one slower,
// with the backends named.
func TestBenchCompiledVsInterpreted(t *testing.T) {
	r := compiledSession(t)
	r.ok(`%%go
import "testing"

func BenchmarkSum(b *testing.B) {
	xs := make([]int, 1000)
	for b.Loop() {
		s := 0
		for _, x := range xs {
			s += x
		}
		_ = s
	}
}

func BenchmarkSumN(b *testing.B) {
	xs := make([]int, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := 0
		for _, x := range xs {
			s += x
		}
		_ = s
	}
}`)
	r.ok(`import "testing"
func BenchmarkSumInterp(b *testing.B) {
	xs := make([]int, 1000)
	for i := 0; i < b.N; i++ {
		s := 0
		for _, x := range xs {
			s += x
		}
		_ = s
	}
}`)
	out := r.ok("%bench --count 7 -T 300ms --plot=none -v c BenchmarkSum")
	if !strings.Contains(out, "BenchmarkSum-") || !strings.Contains(out, "ns/op") || !strings.Contains(out, "allocs/op") {
		t.Fatalf("%%bench output: %q", out)
	}
	t.Log(out)
	r.ok("%bench --count 7 -T 300ms --plot=none -v n BenchmarkSumN")
	r.ok("%bench --count 7 -T 300ms --plot=none -v i BenchmarkSumInterp")
	out = r.ok("%compare --plot=none c i")
	t.Log(out)
	if !strings.Contains(out, "interpreted Go (yaegi)") || !strings.Contains(out, "compiled Go") {
		t.Fatalf("%%compare does not name the backends: %q", out)
	}
}

// %timeit says when a statement's time is mostly the interpreter's, and
// not when it calls compiled code.
func TestTimeitSaysInterpreted(t *testing.T) {
	r := compiledSession(t)
	r.ok("%%go\nfunc Sum(xs []int) int { s := 0; for _, x := range xs { s += x }; return s }\n")
	r.ok("func sumInterp(xs []int) int { s := 0; for _, x := range xs { s += x }; return s }\nxs := make([]int, 1000)\nvar s int")
	out := r.ok("%timeit -T 300ms --plot=none s = sumInterp(xs)")
	t.Log(out)
	if !strings.Contains(out, "of the statement's CPU time is the interpreter running Go code") || !strings.Contains(out, "%%go cell") {
		t.Fatalf("no interpreted-code warning: %q", out)
	}
	out = r.ok("%timeit -T 300ms --plot=none s = Sum(xs)")
	if strings.Contains(out, "interpreter running Go code") {
		t.Fatalf("a compiled call was called interpreted: %q", out)
	}
}

// TestInterpretedShimsNamed: %timeit of tick's interpreted slices.Sort
// names it in the interpreted-code warning with the compiled alternative,
// and %bench of a benchmark declared in an ordinary cell warns that it runs
// interpreted, tick's slices included.
func TestInterpretedShimsNamed(t *testing.T) {
	r := compiledSession(t)
	r.ok("import (\"slices\"; \"testing\")\nxs := make([]int, 3000)\nfor i := range xs { xs[i] = (i * 7919) % 3001 }")
	out := strings.Join(strings.Fields(r.ok("%timeit -T 300ms --plot=none c := slices.Clone(xs); slices.Sort(c)")), " ")
	if !strings.Contains(out, "slices.Clone, slices.Sort are tick's own generic code, interpreted") || !strings.Contains(out, "slices.Sort → sort.Ints") {
		t.Errorf("%%timeit of slices.Sort does not name the shim and its compiled alternative: %q", out)
	}
	r.ok("func BenchmarkShimSort(b *testing.B) { for b.Loop() { c := slices.Clone(xs); slices.Sort(c) } }")
	out = strings.Join(strings.Fields(r.ok("%bench --count 5 -T 300ms --plot=none BenchmarkShimSort")), " ")
	if !strings.Contains(out, "it was declared in an ordinary cell, so it runs interpreted") || !strings.Contains(out, "slices.Sort → sort.Ints") {
		t.Errorf("%%bench of an interpreted benchmark does not warn: %q", out)
	}
}
