package plotting

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/timing"
)

// spanResult is a result whose samples span lo to lo×ratio ns per loop,
// measured samples in between.
func spanResult(lo, ratio float64) *timing.Result {
	r := &timing.Result{Loops: 1, Repeats: 20, Label: "span"}
	r.Samples = append(r.Samples, timing.Sample{Phase: timing.PhaseCold, N: 1, Elapsed: time.Duration(lo * ratio)})
	for i := range 20 {
		x := lo * math.Pow(ratio, float64(i)/19)
		r.Samples = append(r.Samples, timing.Sample{Phase: timing.PhaseMeasured, N: 1, Elapsed: time.Duration(x)})
	}
	r.Stats.Median = lo * math.Sqrt(ratio)
	return r
}

// TestTraceLogTicks renders the trace for narrow and wide ranges and
// checks that its log axis has at least two labelled ticks, each drawn in
// the SVG, in range and in the axis's unit.
func TestTraceLogTicks(t *testing.T) {
	for _, c := range []struct {
		lo, ratio float64
		unit      string
	}{
		{10e3, 1.2, "µs"}, {13.7e3, 1.2, "µs"}, {1.01e6, 1.2, "ms"},
		{10e3, 3, "µs"}, {37e3, 3, "µs"}, {420, 3, "ns"},
		{10e3, 30, "µs"}, {2.2e3, 30, "µs"},
		{10e3, 1000, "µs"}, {3.3e3, 1000, "µs"},
	} {
		t.Run(fmt.Sprintf("%g×%g", c.lo, c.ratio), func(t *testing.T) {
			p, err := Trace(spanResult(c.lo, c.ratio))
			if err != nil {
				t.Fatal(err)
			}
			svg, err := Render(p, SVG)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.Y.Label.Text, "("+c.unit+",") {
				t.Errorf("y label %q: want unit %s", p.Y.Label.Text, c.unit)
			}
			var labels []string
			for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
				if tk.Label == "" {
					continue
				}
				labels = append(labels, tk.Label)
				if tk.Value < p.Y.Min-1e-9 || tk.Value > p.Y.Max+1e-9 {
					t.Errorf("tick %s outside the axis range [%g, %g]", tk.Label, p.Y.Min, p.Y.Max)
				}
				if !strings.Contains(string(svg), ">"+tk.Label+"<") {
					t.Errorf("tick label %q is not drawn in the SVG", tk.Label)
				}
			}
			if len(labels) < 2 || len(labels) > maxLabels {
				t.Errorf("axis [%g, %g] %s has labelled ticks %q: want 2 to %d", p.Y.Min, p.Y.Max, c.unit, labels, maxLabels)
			}
		})
	}
}

func TestLogTicksSteps(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{10, 12, "10 11 12"}, {10.2, 10.5, "10.2 10.35 10.5"},
		{10, 30, "10 20 30"},
		{1, 30, "1 2 5 10 20"},
		{10, 10000, "10 100 1000 10000"},
		{0.13, 0.4, "0.2 0.3 0.4"},
	} {
		var got []string
		for _, tk := range (logTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("ticks of [%g, %g]: %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
	if ts := (logTicks{}).Ticks(0, 10); ts != nil {
		t.Errorf("a log axis from 0 got ticks %v", ts)
	}
}
