package app_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/gocompile"
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
	t.Setenv("TICK_CACHE_DIR", t.TempDir())
	r, err := app.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &run{t: t, r: r}
}

type run struct {
	t *testing.T
	r session.Runner
	n int
}

// cell runs code as the next cell and returns its stdout and value text.
func (r *run) cell(code string) (string, *session.Error) {
	r.t.Helper()
	r.n++
	var out allText
	res := r.r.Execute(context.Background(), session.Cell{Code: code, Count: r.n}, &out)
	text := out.String()
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

// allText records a cell's streams and displayed text (the last text of
// each display ID), in order.
type allText struct {
	mu   sync.Mutex
	out  []string
	byID map[string]int
}

func (a *allText) add(id, text string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byID == nil {
		a.byID = map[string]int{}
	}
	if i, ok := a.byID[id]; ok && id != "" {
		a.out[i] = text
		return
	}
	if id != "" {
		a.byID[id] = len(a.out)
	}
	a.out = append(a.out, text)
}
func (a *allText) Stream(_, text string) { a.add("", text) }
func (a *allText) Publish(d display.Data) {
	t, _ := d.Bundle["text/plain"].(string)
	a.add(d.ID, t+"\n")
}
func (a *allText) Update(d display.Data) { a.Publish(d) }
func (*allText) Clear(bool)              {}
func (a *allText) String() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return strings.Join(a.out, "")
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
	_, err := r.cell("%%go\nfunc Bad() int {\n\treturn nope\n}\n")
	if err == nil || !errors.Is(err, cell.CompileError) || !strings.Contains(err.Value, "cell[") || !strings.Contains(err.Value, ":3:9: undefined: nope") {
		t.Fatalf("compile error: %v", err)
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

func TestUnknownModuleError(t *testing.T) {
	r := compiledSession(t)
	if os.Getenv("TICK_OFFLINE") != "" {
		t.Skip("offline")
	}
	_, err := r.cell(`import "github.com/tick-kernel/no-such-module-here"`)
	if err == nil || !strings.Contains(err.Value, "cannot fetch github.com/tick-kernel/no-such-module-here") {
		t.Fatalf("got %v", err)
	}
}
