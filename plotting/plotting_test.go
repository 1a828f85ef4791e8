package plotting

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/tick-kernel/tick/timing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// clock is a synthetic clock that moves only when the workload spends time.
type clock struct{ t time.Duration }

func (c *clock) Now() time.Duration { c.t += 20; return c.t }

// result measures a synthetic statement: a 2 ms first call, 10 µs ± 5%
// after, on a synthetic clock, so the charts are the same on every run.
func result(t *testing.T, label string, cost time.Duration, seed uint64) *timing.Result {
	t.Helper()
	c := &clock{}
	rng := rand.New(rand.NewPCG(seed, 1))
	calls := 0
	tg := timing.Target{Call: func(n int) error {
		for range n {
			calls++
			if calls == 1 {
				c.t += 2 * time.Millisecond
			}
			c.t += time.Duration(float64(cost) * (0.95 + 0.1*rng.Float64()))
		}
		return nil
	}}
	r, err := timing.Measure(context.Background(), tg, timing.Options{Clock: c, Budget: 200 * time.Millisecond, Loops: 10, Repeats: 60, GC: timing.GCKeep})
	if err != nil {
		t.Fatal(err)
	}
	r.Label = label
	return r
}

func golden(t *testing.T, name string, p *plot.Plot, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{PNG, SVG} {
		b, err := Render(p, f)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name+"."+string(f), f, b)
	}
}

func checkGolden(t *testing.T, file string, f Format, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./plotting -update to create it)", err)
	}
	if f == SVG {
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file (go test ./plotting -update, then look at the diff)", file)
		}
		return
	}
	// PNG bytes depend on the encoder; compare the pixels, with a
	// tolerance for anti-aliasing (pixels_test.go).
	gi, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("%s: rendered PNG does not decode: %v", file, err)
	}
	wi, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("%s: golden PNG does not decode: %v", file, err)
	}
	if err := pixelsDiffer(gi, wi, filepath.Join(os.TempDir(), "tick-golden-"+file+".diff.png")); err != nil {
		t.Errorf("%s differs from the golden file: %v (go test ./plotting -update if the change is meant, then look at the diff)", file, err)
	}
}

func TestCharts(t *testing.T) {
	r := result(t, "x*2+1", 10*time.Microsecond, 1)
	p, err := Histogram(r)
	golden(t, "histogram", p, err)
	if !strings.Contains(p.Title.Text, "60 samples × 10 loops, synced per sample") || p.X.Label.Text != "time per loop (floor subtracted)" {
		t.Errorf("histogram title %q, x label %q", p.Title.Text, p.X.Label.Text)
	}
	p, err = Trace(r)
	golden(t, "trace", p, err)
	p, err = ECDF(r)
	golden(t, "ecdf", p, err)
	p, err = Box(r, result(t, "x*3+1", 11*time.Microsecond, 2))
	golden(t, "box", p, err)
	p, err = PhaseBar(&timing.Once{Wall: 3 * time.Millisecond, Phases: []timing.PhaseTime{
		{Name: timing.PhaseGraph, Time: 200 * time.Microsecond}, {Name: timing.PhaseCompile, Time: 2 * time.Millisecond},
		{Name: timing.PhaseDevice, Time: 500 * time.Microsecond}}})
	golden(t, "phasebar", p, err)
	// Device execution is concurrent: a bar of its own, not stacked into
	// the wall time.
	var rows []string
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		rows = append(rows, tk.Label)
	}
	if len(rows) != 2 || !strings.HasPrefix(rows[1], "device execution") {
		t.Errorf("phase bar rows %q: want the calling goroutine, then device execution on its own", rows)
	}
}

func TestFigure(t *testing.T) {
	r := result(t, "", 10*time.Microsecond, 1)
	for _, f := range []Format{PNG, SVG} {
		b, err := Figure(r, f)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "figure."+string(f), f, b)
		if f == PNG {
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 2*h*10/7 || h != Density*336 {
				t.Errorf("figure is %d×%d: want two %v×%v charts side by side", w, h, Width, Height)
			}
		}
	}
	if _, err := Figure(r, "gif"); err == nil || !strings.Contains(err.Error(), "png or svg") {
		t.Errorf("unknown format: err %v", err)
	}
}

func TestChartErrors(t *testing.T) {
	empty := &timing.Result{}
	for name, f := range map[string]func() (*plot.Plot, error){
		"histogram": func() (*plot.Plot, error) { return Histogram(empty) },
		"trace":     func() (*plot.Plot, error) { return Trace(empty) },
		"ecdf":      func() (*plot.Plot, error) { return ECDF(empty) },
		"box":       func() (*plot.Plot, error) { return Box() },
		"phasebar":  func() (*plot.Plot, error) { return PhaseBar(&timing.Once{}) },
	} {
		if _, err := f(); err == nil || !strings.HasPrefix(err.Error(), "plotting: ") {
			t.Errorf("%s of nothing: err %v", name, err)
		}
	}
}

// One slow outlier must not stretch the axis so far that nearly every
// sample lands in one bar: it goes to the marked overflow bar.
func TestHistogramOutlier(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	xs := make([]float64, 50)
	for i := range xs {
		xs[i] = 900 + 60*rng.Float64()
	}
	xs = append(xs, 120e3)
	b := binsFor(xs)
	if b.over != 1 || b.slowest != 120e3 {
		t.Errorf("overflow %d (slowest %v), want the one outlier", b.over, b.slowest)
	}
	for i, c := range b.counts {
		if c > 25 {
			t.Errorf("bin %d holds %d of %d samples", i, c, len(xs))
		}
	}
	if n := len(b.counts); n < minBins || n > maxBins {
		t.Errorf("%d bins", n)
	}
	r := result(t, "outlier", 10*time.Microsecond, 5)
	for i := range r.Samples {
		if r.Samples[i].Phase == timing.PhaseMeasured {
			r.Samples[i].Elapsed *= 40 // one very slow sample
			break
		}
	}
	p, err := Histogram(r)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := Render(p, SVG)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "overflow: 1 sample slower than") {
		t.Errorf("the histogram's legend does not name the overflow bar")
	}
	if strings.Contains(string(svg), "font-family:Liberation Sans;") || !strings.Contains(string(svg), "sans-serif") {
		t.Errorf("the SVG names only Liberation Sans: viewers without it fall back to anything")
	}
}

// Box's labels never touch, however many statements are compared: notes
// of boxes side by side in one row are narrower than the distance between
// their centres, names narrower than a box's slot; with many statements
// the notes go on two rows, then short, then away (the text table has
// them), never overlapping.
func TestBoxLabelsDoNotOverlap(t *testing.T) {
	p := newPlot()
	note := "median 43.1 µs\n+3344.4% vs baseline\np<0.001"
	for n := 2; n <= 16; n++ {
		var names, texts []string
		for i := range n {
			names = append(names, fmt.Sprintf("matmul_relu_with_a_long_name_%d", i))
			texts = append(texts, note)
		}
		lay := layoutNotes(p.Legend.TextStyle, p.X.Tick.Label, names, texts)
		slot := boxSlot(n)
		width := func(s string) (w vg.Length) {
			for _, l := range strings.Split(s, "\n") {
				w = max(w, p.Legend.TextStyle.Width(l))
			}
			return w
		}
		for i := range lay.texts {
			if j := i + lay.rows; j < len(lay.texts) {
				if gap := vg.Length(lay.rows)*slot - (width(lay.texts[i])+width(lay.texts[j]))/2; gap <= 0 {
					t.Errorf("%d statements: notes %d and %d overlap by %v", n, i, j, -gap)
				}
			}
		}
		for i, name := range lay.names {
			if w := p.X.Tick.Label.Width(name); w > slot {
				t.Errorf("%d statements: name %d %q is %v wide, its slot %v", n, i, name, w, slot)
			}
		}
		if n <= 3 && (lay.rows != 1 || len(lay.texts) != n || lay.texts[0] != note) {
			t.Errorf("%d statements: want every note whole on one row, got %d rows of %q", n, lay.rows, lay.texts)
		}
	}
}
