package magic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/magic"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/timing"
)

// final returns the text output of the result k recorded: the last
// publish carrying the result document (or, with --json, the last
// publish). No output may hold application/json (JupyterLab would show a
// JSON tree).
func final(t *testing.T, k *sinktest.Recorder) display.Data {
	t.Helper()
	pub := k.Published()
	if len(pub) == 0 {
		t.Fatalf("nothing was shown (stream output %q)", k.Text(""))
	}
	for _, d := range pub {
		if _, ok := d.Bundle["application/json"]; ok {
			t.Errorf("an output holds application/json: %v", keys(d.Bundle))
		}
	}
	for i := len(pub) - 1; i >= 0; i-- {
		if _, ok := pub[i].Bundle[magic.ResultMIME]; ok {
			return pub[i]
		}
	}
	return pub[len(pub)-1]
}

// chart returns the last chart output k recorded (with a text/plain
// description beside the image).
func chart(t *testing.T, k *sinktest.Recorder) display.Data {
	t.Helper()
	pub := k.Published()
	for i := len(pub) - 1; i >= 0; i-- {
		b := pub[i].Bundle
		if _, ok := b["image/png"]; ok {
			if w, _ := pub[i].Metadata["image/png"].(map[string]int); w["width"] <= 0 {
				t.Errorf("the PNG has no layout size in its metadata: %v", pub[i].Metadata)
			}
			return pub[i]
		}
		if _, ok := b["image/svg+xml"]; ok {
			return pub[i]
		}
	}
	t.Fatalf("no chart was shown")
	return display.Data{}
}

// testSession is a production session (kernel/app) whose state tests read
// through Eval.
type testSession struct{ *magic.Runner }

// Eval evaluates a Go expression in the session.
func (s testSession) Eval(expr string) (reflect.Value, error) { return s.Engine().Eval(expr) }

func newSession(t *testing.T) testSession {
	t.Helper()
	r, err := app.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return testSession{r}
}

// run executes one cell and returns its result and what it showed.
func run(t *testing.T, s testSession, count int, code string) (session.Result, *sinktest.Recorder) {
	t.Helper()
	k := &sinktest.Recorder{}
	res := s.Execute(context.Background(), session.Cell{Code: code, Count: count}, k)
	return res, k
}

func mustRun(t *testing.T, s testSession, count int, code string) *sinktest.Recorder {
	t.Helper()
	res, k := run(t, s, count, code)
	if res.Err != nil {
		t.Fatalf("cell %q: %v\n%s", code, res.Err, strings.Join(res.Err.Traceback, "\n"))
	}
	return k
}

// decodeResult checks the result document beside the text and returns
// the result it holds.
func decodeResult(t *testing.T, d display.Data) *timing.Result {
	t.Helper()
	raw, ok := d.Bundle[magic.ResultMIME].(json.RawMessage)
	if !ok {
		t.Fatalf("%s is %T, want json.RawMessage", magic.ResultMIME, d.Bundle[magic.ResultMIME])
	}
	if _, ok := d.Bundle["text/html"].(string); !ok {
		t.Errorf("the text block has no text/html: %v", keys(d.Bundle))
	}
	var doc magic.Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("result JSON: %v", err)
	}
	if doc.Version != magic.SchemaVersion || doc.Kind != magic.KindTimeit || doc.Result == nil {
		t.Fatalf("document version %d kind %q result %v", doc.Version, doc.Kind, doc.Result != nil)
	}
	return doc.Result
}

func TestTimeitThroughSession(t *testing.T) {
	s := newSession(t)
	k := mustRun(t, s, 1, "%timeit -n 10 -r 5 x := 1")
	d := final(t, k)
	text, _ := d.Bundle["text/plain"].(string)
	if !strings.Contains(text, "per loop") || !strings.Contains(text, "5 samples × 10 loops") {
		t.Errorf("text block:\n%s", text)
	}
	img, ok := chart(t, k).Bundle["image/png"].([]byte)
	if !ok {
		t.Fatalf("no image/png in %v", keys(d.Bundle))
	}
	if _, err := png.Decode(bytes.NewReader(img)); err != nil {
		t.Errorf("image/png does not decode: %v", err)
	}
	r := decodeResult(t, d)
	if r.Loops != 10 || r.Repeats != 5 || len(r.Measured()) != 5 {
		t.Errorf("result: loops %d repeats %d measured %d, want 10, 5, 5", r.Loops, r.Repeats, len(r.Measured()))
	}
	if r.FloorSource != "empty statement" || r.Label != "x := 1" {
		t.Errorf("floor source %q label %q", r.FloorSource, r.Label)
	}
}

func TestTimeitTensorStep(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, `import "tick/runtime/tensor"
x := tensor.Ones(256).Realize()
step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
var y *tensor.Tensor`)
	k := mustRun(t, s, 2, `%timeit -n 20 -r 7 --check 'y.Float32s()[0] == 3' y = step.Call(x)`)
	r := decodeResult(t, final(t, k))
	if !r.Replaying || r.Captures == 0 {
		t.Errorf("the JIT did not reach replay: captures %d replaying %v", r.Captures, r.Replaying)
	}
	if r.Counters == nil || r.Counters.Kernels <= 0 {
		t.Errorf("no kernels per loop recorded: %+v", r.Counters)
	}
	if r.Provenance.Device == "" || r.Provenance.Env == nil {
		t.Errorf("provenance: %+v", r.Provenance)
	}
	if in := r.Provenance.Inputs; len(in) != 1 || !strings.Contains(in[0], "[256]") || !strings.Contains(in[0], "float32") {
		t.Errorf("provenance inputs %q, want the step's one float32[256] input", in)
	}

	res, k := run(t, s, 3, `%timeit -n 5 -r 7 --check 'y.Float32s()[0] == 4' y = step.Call(x)`)
	if res.Err == nil || !strings.Contains(res.Err.Value, "--check is false after the cold call (a replay of the JIT): y.Float32s()[0] is 3 (want y.Float32s()[0] == 4)") {
		t.Fatalf("a false --check must stop the measurement with a clear error; got %v", res.Err)
	}
	if k.Visible() != 0 {
		t.Errorf("a failed check still showed output: %v", k.Published())
	}
}

func TestBadOptionChangesNothing(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, "counter := 0")
	res, k := run(t, s, 2, "%timeit --loops=3 counter++")
	if res.Err == nil || res.Err.Name != "MagicError" {
		t.Fatalf("want a MagicError, got %v", res.Err)
	}
	for _, want := range []string{"--loops", "unknown option", "usage: %timeit"} {
		if !strings.Contains(res.Err.Value, want) {
			t.Errorf("error %q lacks %q", res.Err.Value, want)
		}
	}
	if len(k.Published()) != 0 {
		t.Errorf("a usage error still showed output")
	}
	v, err := s.Eval("counter")
	if err != nil || v.Int() != 0 {
		t.Errorf("counter = %v (%v), want 0: the statement ran despite the usage error", v, err)
	}
}

func TestSaveAndCompare(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, "sum := 0")
	k := mustRun(t, s, 2, "%timeit -q -v small -n 50 -r 7 for i := 0; i < 10; i++ { sum += i }")
	if len(k.Published()) != 0 {
		t.Errorf("-q showed %d outputs", len(k.Published()))
	}
	mustRun(t, s, 3, "%timeit -q -v large -n 50 -r 7 for i := 0; i < 1000; i++ { sum += i }")
	v, err := s.Eval("large.Repeats")
	if err != nil || v.Int() != 7 {
		t.Fatalf("-v did not bind a result: large.Repeats = %v (%v)", v, err)
	}
	k = mustRun(t, s, 4, "%compare small large")
	d := final(t, k)
	text, _ := d.Bundle["text/plain"].(string)
	if !strings.Contains(text, "small") || !strings.Contains(text, "large") {
		t.Errorf("comparison text:\n%s", text)
	}
	if _, err := png.Decode(bytes.NewReader(chart(t, k).Bundle["image/png"].([]byte))); err != nil {
		t.Errorf("box plot PNG: %v", err)
	}
	var js struct{ Comparison timing.Comparison }
	if err := json.Unmarshal(d.Bundle[magic.ResultMIME].(json.RawMessage), &js); err != nil {
		t.Fatal(err)
	}
	if rows := js.Comparison.Rows; len(rows) != 2 || rows[1].Ratio <= 1 {
		t.Errorf("1000 additions should be slower than 10: rows %+v", rows)
	}
	res, _ := run(t, s, 5, "%compare small sum")
	if res.Err == nil || !strings.Contains(res.Err.Value, "not a timing result") {
		t.Errorf("comparing a non-result: %v", res.Err)
	}
	testCompareKeep(t, s)
}

// testCompareKeep checks %compare -v/-o/-q on the session of
// TestSaveAndCompare: a notebook can assert on the saved comparison.
func testCompareKeep(t *testing.T, s testSession) {
	res, k := run(t, s, 6, "%compare -q -o -v cmp small large")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(k.Published())+len(k.Updates()) != 0 {
		t.Errorf("-q showed %d outputs", len(k.Published())+len(k.Updates()))
	}
	if res.Value == nil || !strings.Contains(res.Value.Bundle["text/plain"].(string), "large") {
		t.Errorf("-o: the cell value is %+v", res.Value)
	} else if _, ok := res.Value.Bundle[magic.ResultMIME]; !ok {
		t.Errorf("-q -o: the cell value (the only output) has no result document: %v", res.Value.Bundle)
	}
	// The 100× longer loop differs significantly: the cell can assert so.
	mustRun(t, s, 7, `significant := cmp.Rows[1].P < 0.05 && cmp.Rows[1].Ratio > 1`)
	v, err := s.Eval("significant")
	if err != nil || !v.Bool() {
		p, _ := s.Eval("cmp.Rows[1].P")
		t.Errorf("cmp.Rows[1]: significant = %v (%v), p = %v", v, err, p)
	}
	for code, want := range map[string]string{
		"%compare -v 2x small large":         `"2x" is not a Go identifier`,
		"%compare -q --json small large":     "choose one",
		"%compare -v other -n 3 small large": "-n",
	} {
		res, _ := run(t, s, 8, code)
		if res.Err == nil || !strings.Contains(res.Err.Value, want) {
			t.Errorf("%s: err %v, want %q", code, res.Err, want)
		}
	}
	if _, err := s.Eval("other"); err == nil {
		t.Errorf("a usage error bound -v other anyway")
	}
}

func TestTimeitVs(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, "sum := 0")
	k := mustRun(t, s, 2, "%timeit -n 20 -r 8 --vs 'for i := 0; i < 2000; i++ { sum += i }' for i := 0; i < 20; i++ { sum += i }")
	d := final(t, k)
	var js struct {
		Comparison timing.Comparison
		Results    []timing.Result
	}
	if err := json.Unmarshal(d.Bundle[magic.ResultMIME].(json.RawMessage), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Results) != 2 || js.Results[0].Repeats != 8 || js.Results[1].Repeats != 8 {
		t.Fatalf("want two results of 8 samples, got %d", len(js.Results))
	}
	if rows := js.Comparison.Rows; len(rows) != 2 || rows[1].Ratio <= 1 || rows[1].DeltaText == "~" {
		t.Errorf("the 100× longer loop is not detected as slower: %+v", rows)
	}
}

func TestCellTimeitAndTime(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, "var total int")
	k := mustRun(t, s, 2, "%%timeit -n 5 -r 6 --plot=ecdf --svg buf := make([]int, 100)\nfor i := range buf { buf[i] = i }\ntotal = len(buf)")
	d := chart(t, k)
	if svg, _ := d.Bundle["image/svg+xml"].(string); !strings.Contains(svg, "<svg") {
		t.Errorf("--svg: no SVG in %v", keys(d.Bundle))
	}
	if v, _ := s.Eval("total"); v.Int() != 100 {
		t.Errorf("the cell body did not run: total = %v", v)
	}
	k = mustRun(t, s, 3, "%time total = total + 1")
	d = final(t, k)
	text, _ := d.Bundle["text/plain"].(string)
	if !strings.Contains(text, "Wall time") {
		t.Errorf("%%time text:\n%s", text)
	}
	if _, err := png.Decode(bytes.NewReader(chart(t, k).Bundle["image/png"].([]byte))); err != nil {
		t.Errorf("phase bar PNG: %v", err)
	}
	if v, _ := s.Eval("total"); v.Int() != 101 {
		t.Errorf("%%time ran the statement %v times, want once", v.Int()-100)
	}
}

func TestOptionsOutputModes(t *testing.T) {
	s := newSession(t)
	res, k := run(t, s, 1, "%timeit -o --json -n 3 -r 6 x := 2")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	d := final(t, k)
	if len(k.Published()) != 1 {
		t.Errorf("--json showed %d outputs, want the JSON alone", len(k.Published()))
	}
	var doc magic.Document
	if err := json.Unmarshal([]byte(d.Bundle["text/plain"].(string)), &doc); err != nil || doc.Result == nil || doc.Result.Repeats != 6 {
		t.Errorf("--json text is not the result document: %v", err)
	}
	if res.Value == nil || !strings.Contains(res.Value.Bundle["text/plain"].(string), "per loop") {
		t.Errorf("-o: the cell value is %+v", res.Value)
	}
}

func TestHelpThroughSession(t *testing.T) {
	s := newSession(t)
	res, _ := run(t, s, 1, "%timeit?")
	if !strings.Contains(res.Page, "--check EXPR") {
		t.Errorf("%%timeit? page:\n%s", res.Page)
	}
	_, k := run(t, s, 2, "%lsmagic")
	for _, name := range []string{"%timeit %%timeit", "%time %%time", "%compare"} {
		if !strings.Contains(k.Text(""), name) {
			t.Errorf("%%lsmagic lacks %s:\n%s", name, k.Text(""))
		}
	}
}

func keys(b display.Bundle) []string {
	var out []string
	for k := range b {
		out = append(out, k)
	}
	return out
}

func TestStatementErrors(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, want string }{
		{"%timeit -n 1 -r 6 y := undefinedThing + 1", "compiling the statement: cell[1]:1:24: undefined: undefinedThing"},
		{`%timeit -n 1 -r 6 panic("boom")`, "boom"},
		{"%time nosuch()", "compiling the statement: cell[3]:1:7: undefined: nosuch"},
		{"%compare onlyOne", "at least two results"},
	}
	for i, c := range cases {
		res, k := run(t, s, i+1, c.code)
		if res.Err == nil || !strings.Contains(res.Err.Value, c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.code, res.Err, c.want)
		}
		if len(k.Published()) != 0 {
			t.Errorf("%s: a failed magic still showed output", c.code)
		}
	}
}
