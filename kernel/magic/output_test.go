package magic

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"gonum.org/v1/plot"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/timing"
)

// startProgress runs a progress line past its first publish.
func startProgress(t *testing.T, k outputSink) *progress {
	t.Helper()
	p := newProgress(k, "timeit")
	now := p.start.Add(600 * time.Millisecond)
	p.now = func() time.Time { return now }
	p.update(timing.Progress{Phase: timing.PhaseMeasured, Done: 3, Median: 1500})
	return p
}

// The progress line appears only after progressAfter and updates at most
// every progressEvery under one display ID.
func TestProgressThrottle(t *testing.T) {
	k := &sinktest.Recorder{Uncounted: true}
	p := newProgress(k, "timeit")
	now := p.start
	p.now = func() time.Time { return now }
	steps := []struct {
		at        time.Duration
		pubs, ups int
	}{
		{100 * time.Millisecond, 0, 0}, // too early: nothing
		{600 * time.Millisecond, 1, 0}, // first line published
		{700 * time.Millisecond, 1, 0}, // throttled
		{900 * time.Millisecond, 1, 1}, // updated in place
	}
	for _, s := range steps {
		now = p.start.Add(s.at)
		p.update(timing.Progress{Phase: timing.PhaseMeasured, Done: 3, Median: 1500})
		if len(k.Published()) != s.pubs || len(k.Updates()) != s.ups {
			t.Fatalf("at %v: %d publishes, %d updates; want %d, %d", s.at, len(k.Published()), len(k.Updates()), s.pubs, s.ups)
		}
	}
	// HTML only: jupyter console prints a display's text/plain and never
	// its updates, so a text line would stay on its screen.
	if _, ok := k.Published()[0].Bundle["text/plain"]; ok {
		t.Errorf("progress line has text/plain: %v", k.Published()[0].Bundle)
	}
	if text, _ := k.Published()[0].Bundle["text/html"].(string); !strings.Contains(text, "measured 3") || !strings.Contains(text, "1.50 µs") {
		t.Errorf("progress line %q", text)
	}
}

// The result is always new output (jupyter console ignores updates). A
// progress line that is the cell's only output is cleared (with wait, so
// the result replaces it); otherwise it becomes a note, never empty.
func TestProgressShow(t *testing.T) {
	result := []display.Data{{Bundle: display.Bundle{"text/plain": "result"}}, {Bundle: display.Bundle{"image/png": []byte{1}}}}

	alone := &sinktest.Recorder{}
	startProgress(t, alone).show(result)
	if len(alone.Clears()) != 1 || !alone.Clears()[0] || len(alone.Updates()) != 0 {
		t.Errorf("alone: clears %v updates %d, want one clear with wait and no update", alone.Clears(), len(alone.Updates()))
	}
	if len(alone.Published()) != 3 || alone.Published()[1].Bundle["text/plain"] != "result" {
		t.Errorf("alone: publishes %v, want the progress line then the two outputs", alone.Published())
	}

	after := &sinktest.Recorder{}
	after.Publish(display.Data{Bundle: display.Bundle{"text/plain": "printed before the magic"}})
	startProgress(t, after).show(result)
	if len(after.Clears()) != 0 {
		t.Errorf("a clear would erase the cell's earlier output")
	}
	if len(after.Updates()) != 1 || !strings.Contains(after.Updates()[0].Bundle["text/plain"].(string), "done in") {
		t.Errorf("not alone: the progress line became %v, want a note", after.Updates())
	}
	if len(after.Published()) != 4 {
		t.Errorf("not alone: %d publishes, want 4", len(after.Published()))
	}

	plain := &sinktest.Recorder{Uncounted: true} // a sink that cannot count: never clear
	startProgress(t, plain).show(result)
	if len(plain.Updates()) != 1 || len(plain.Published()) != 3 {
		t.Errorf("uncounted sink: %d updates %d publishes", len(plain.Updates()), len(plain.Published()))
	}

	quick := &sinktest.Recorder{} // no progress line: just the outputs
	newProgress(quick, "time").show(result)
	if len(quick.Published()) != 2 || len(quick.Clears())+len(quick.Updates()) != 0 {
		t.Errorf("without progress: %d publishes, %d clears, %d updates", len(quick.Published()), len(quick.Clears()), len(quick.Updates()))
	}
}

// An interrupted or failed magic leaves no empty output behind.
func TestProgressAbort(t *testing.T) {
	alone := &sinktest.Recorder{}
	startProgress(t, alone).abort("interrupted; nothing recorded")
	if len(alone.Clears()) != 1 || alone.Clears()[0] || alone.Shown() != 0 {
		t.Errorf("alone: clears %v, want one clear without wait", alone.Clears())
	}
	after := &sinktest.Recorder{}
	after.Publish(display.Data{Bundle: display.Bundle{"text/plain": "earlier"}})
	startProgress(t, after).abort("interrupted; nothing recorded")
	if len(after.Clears()) != 0 || len(after.Updates()) != 1 || !strings.Contains(after.Updates()[0].Bundle["text/plain"].(string), "interrupted") {
		t.Errorf("not alone: clears %v updates %v", after.Clears(), after.Updates())
	}
	none := &sinktest.Recorder{}
	newProgress(none, "timeit").abort("interrupted")
	if len(none.Published())+len(none.Updates())+len(none.Clears()) != 0 {
		t.Errorf("no progress line: something was sent")
	}
}

var tags = regexp.MustCompile(`<[^>]*>`)

// The outputs: the text block as text/plain and text/html (whose visible
// text is the same block) with the document under the vendor type, then
// the chart as a 2× PNG with its layout size and a text alternative;
// nothing under application/json.
func TestReportOutputs(t *testing.T) {
	r := &timing.Result{Label: "a < b", Loops: 10, Repeats: 2}
	for i := range 8 {
		r.Samples = append(r.Samples, timing.Sample{Phase: timing.PhaseMeasured, N: 10, Elapsed: time.Duration(10000 + 100*i)})
	}
	r.Repeats = 8
	r.Stats = timing.Summarize(r.Measured(), 0.95)
	r.Warnings = []timing.Warning{{Kind: "x", Message: "something <odd>", Fix: "do this"}}
	text := r.Text(0)
	h, err := plotting.Histogram(r)
	if err != nil {
		t.Fatal(err)
	}
	doc := newDocument(KindTimeit)
	doc.Result = r
	rep := report{Text: text, Plots: []*plot.Plot{h}, Alt: "[chart: a histogram]", Doc: doc}
	outs, err := rep.outputs(false)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 2 {
		t.Fatalf("%d outputs, want text and chart", len(outs))
	}
	tb := outs[0].Bundle
	if tb["text/plain"] != text {
		t.Errorf("text/plain is not the block")
	}
	page, _ := tb["text/html"].(string)
	if got := html.UnescapeString(tags.ReplaceAllString(page, "")); got != strings.TrimSuffix(text, "\n") {
		t.Errorf("the HTML's visible text differs from the block:\n%s\n---\n%s", got, text)
	}
	if !strings.Contains(page, "word-break: normal") || !strings.Contains(page, "&lt;odd&gt;") {
		t.Errorf("text/html: %s", page)
	}
	var back Document
	if err := json.Unmarshal(tb[ResultMIME].(json.RawMessage), &back); err != nil || back.Version != 1 || back.Result.Repeats != 8 {
		t.Errorf("the document does not round-trip: %v", err)
	}
	cb, meta := outs[1].Bundle, outs[1].Metadata
	if cb["text/plain"] != "[chart: a histogram]" {
		t.Errorf("chart alt %q", cb["text/plain"])
	}
	size, _ := meta["image/png"].(map[string]int)
	if size["width"] != 960 || size["height"] != 336 {
		t.Errorf("chart layout size %v, want 960×336, every chart's width (the PNG is twice that)", size)
	}
	for _, o := range outs {
		if _, ok := o.Bundle["application/json"]; ok {
			t.Errorf("an output holds application/json")
		}
	}
	js, err := rep.outputs(true)
	if err != nil || len(js) != 1 || !strings.Contains(js[0].Bundle["text/plain"].(string), `"version": 1`) {
		t.Errorf("--json: %v %v", js, err)
	}
}

// The headline is bold in the HTML because the result says which line it
// is, also when the layout broke it over two lines; nothing else is bold.
func TestHeadlinesBold(t *testing.T) {
	r := &timing.Result{Label: "step", Loops: 100_000_000, Repeats: 10_000}
	for i := range r.Repeats {
		perLoop := 1000 + time.Duration(i%100)*time.Duration(i%100)*(time.Duration(i%7)+1)
		r.Samples = append(r.Samples, timing.Sample{Phase: timing.PhaseMeasured, N: r.Loops, Elapsed: perLoop * time.Duration(r.Loops)})
	}
	r.Stats = timing.Summarize(r.Measured(), 0.95)
	text := r.Text(0)
	head := r.Headline(0)
	if utf8.RuneCountInString(head) <= timing.TextWidth || !strings.Contains(text, "\n  (median") {
		t.Fatalf("the headline %q fits on one line: this test needs one the layout breaks", head)
	}
	page := textHTML(text, []string{head})
	bold := regexp.MustCompile(`<b>([^<]*)</b>`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, b := range bold {
		got = append(got, strings.TrimSpace(html.UnescapeString(b[1])))
	}
	if strings.Join(got, " ") != head {
		t.Errorf("bold lines %q, want the headline %q", got, head)
	}
	once := &timing.Once{Wall: 1310 * time.Microsecond}
	if page := textHTML(once.Text(0), []string{once.Headline(0)}); !strings.Contains(page, "<b>Wall time: 1.31 ms</b>") {
		t.Errorf("%%time's wall time is not bold: %s", page)
	}
}
