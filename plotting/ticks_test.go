package plotting

import (
	"fmt"
	"math"
	"slices"
	"strconv"
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
// the SVG, in range and in its natural unit (a number from 1 to 999 and a
// unit: "7 ms", never "7000 µs").
func TestTraceLogTicks(t *testing.T) {
	for _, c := range []struct {
		lo, ratio float64
	}{
		{10e3, 1.2}, {13.7e3, 1.2}, {1.01e6, 1.2},
		{10e3, 3}, {37e3, 3}, {420, 3},
		{10e3, 30}, {2.2e3, 30},
		{10e3, 1000}, {3.3e3, 1000},
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
			var labels []string
			for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
				if tk.Label == "" {
					continue
				}
				labels = append(labels, tk.Label)
				checkNatural(t, tk.Label)
				if tk.Value < p.Y.Min-1e-9 || tk.Value > p.Y.Max+1e-9 {
					t.Errorf("tick %s outside the axis range [%g, %g]", tk.Label, p.Y.Min, p.Y.Max)
				}
				if !strings.Contains(string(svg), ">"+tk.Label+"<") {
					t.Errorf("tick label %q is not drawn in the SVG", tk.Label)
				}
			}
			if len(labels) < 2 || len(labels) > maxLabels {
				t.Errorf("axis [%g, %g] has labelled ticks %q: want 2 to %d", p.Y.Min, p.Y.Max, labels, maxLabels)
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

// checkNatural checks that a duration label is a number from 1 to 999 (or
// 0) with a unit.
func checkNatural(t *testing.T, label string) {
	t.Helper()
	num, unit, ok := strings.Cut(label, " ")
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !slices.Contains([]string{"ns", "µs", "ms", "s"}, unit) || (v != 0 && (v < 1 && unit != "ns" || v >= 1000)) {
		t.Errorf("duration label %q is not a number from 1 to 999 in a unit", label)
	}
}

// Linear axes: one unit and one number of decimals per axis; counts are
// integers; fractions are percentages.
func TestAxisFormats(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{850, 1250}, {0, 7e6}, {9.5e5, 1.05e6}, {1e3, 1.02e3}} {
		var labels []string
		for _, tk := range (durationTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		units, decs := map[string]bool{}, map[int]bool{}
		for _, l := range labels {
			num, unit, _ := strings.Cut(l, " ")
			units[unit] = true
			_, frac, _ := strings.Cut(num, ".")
			decs[len(frac)] = true
		}
		if len(labels) < 2 || len(units) != 1 || len(decs) != 1 {
			t.Errorf("duration ticks of [%g, %g]: %q: want one unit and one format", c.lo, c.hi, labels)
		}
		checkNatural(t, labels[len(labels)-1])
	}
	for _, c := range []struct{ lo, hi float64 }{{0, 3}, {0, 26}, {0, 51}, {0, 470}} {
		for _, tk := range (countTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label != "" && strings.ContainsAny(tk.Label, ".e") {
				t.Errorf("count ticks of [%g, %g]: label %q is not an integer", c.lo, c.hi, tk.Label)
			}
		}
	}
	var pct []string
	for _, tk := range (percentTicks{}).Ticks(0, 1) {
		pct = append(pct, tk.Label)
	}
	if strings.Join(pct, " ") != "0% 25% 50% 75% 100%" {
		t.Errorf("percent ticks %q", pct)
	}
}
