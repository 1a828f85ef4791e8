package plotting

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/tick-kernel/tick/timing"
)

// Histogram bin limits.
const (
	minBins = 5
	maxBins = 40
	// fence is how many IQRs beyond the quartiles the binned range reaches;
	// samples further out go to an overflow (or underflow) bar.
	fence = 3
)

// binning is the histogram's layout: equal bins over [lo, hi] and the
// counts of samples below and above.
type binning struct {
	lo, hi, width float64
	counts        []int
	under, over   int
	// slowest and fastest are the extreme samples outside [lo, hi].
	slowest, fastest float64
}

// binsFor chooses bins by the Freedman–Diaconis rule on the central mass:
// the binned range is [Q1 − 3·IQR, Q3 + 3·IQR] (clipped to the data), the
// bin width 2·IQR/∛n, so one slow outlier cannot stretch the axis and put
// nearly every sample in one bar; samples beyond go to the over- and
// underflow counts.
func binsFor(xs []float64) binning {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	q1, q3 := timing.Quantile(s, 0.25), timing.Quantile(s, 0.75)
	iqr := q3 - q1
	b := binning{lo: s[0], hi: s[n-1]}
	if iqr > 0 {
		b.lo = math.Max(b.lo, q1-fence*iqr)
		b.hi = math.Min(b.hi, q3+fence*iqr)
	}
	if b.hi <= b.lo { // every sample equal: one narrow bar
		d := math.Max(math.Abs(b.lo)*0.01, 1)
		b.lo, b.hi = b.lo-d, b.hi+d
	}
	bins := minBins
	if iqr > 0 {
		h := 2 * iqr / math.Cbrt(float64(n))
		bins = int(math.Ceil((b.hi - b.lo) / h))
	}
	bins = max(minBins, min(maxBins, bins))
	b.width = (b.hi - b.lo) / float64(bins)
	b.counts = make([]int, bins)
	for _, x := range s {
		switch {
		case x < b.lo:
			if b.under == 0 {
				b.fastest = x
			}
			b.under++
		case x > b.hi:
			b.over++
			b.slowest = x
		default:
			b.counts[min(bins-1, int((x-b.lo)/b.width))]++
		}
	}
	return b
}

// Histogram plots the distribution of per-loop times of r's measured
// samples (floor subtracted): bins by the Freedman–Diaconis rule on the
// central mass, far outliers in a marked overflow bar, the median as a
// line and its confidence interval as a shaded band, both with their
// values in the legend.
func Histogram(r *timing.Result) (*plot.Plot, error) {
	xs := measured(r)
	if len(xs) == 0 {
		return nil, fmt.Errorf("plotting: histogram: the result has no measured samples")
	}
	b := binsFor(xs)
	p := newPlot()
	p.Title.Text = title(r, "distribution of per-loop time", what(r))
	p.X.Label.Text = "time per loop (floor subtracted)"
	p.Y.Label.Text = "samples"
	p.X.Tick.Marker = durationTicks{}
	p.Y.Tick.Marker = countTicks{}
	h := &plotter.Histogram{Width: b.width, FillColor: SkyBlue, LineStyle: plotter.DefaultLineStyle}
	h.LineStyle.Width = vg.Points(0.5)
	top := 1
	for i, c := range b.counts {
		lo := b.lo + float64(i)*b.width
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: lo, Max: lo + b.width, Weight: float64(c)})
		top = max(top, c)
	}
	top = max(top, b.over, b.under)
	p.Add(h)
	if err := addCIBand(p, r.Stats, 0, float64(top)*1.08); err != nil {
		return nil, fmt.Errorf("plotting: histogram: %w", err)
	}
	if err := addOutside(p, b); err != nil {
		return nil, fmt.Errorf("plotting: histogram: %w", err)
	}
	if err := addMedian(p, r.Stats.Median, plotter.XYs{{X: r.Stats.Median, Y: 0}, {X: r.Stats.Median, Y: float64(top) * 1.08}}); err != nil {
		return nil, fmt.Errorf("plotting: histogram: %w", err)
	}
	p.Y.Min, p.Y.Max = 0, float64(top)*1.1
	return p, nil
}

// addOutside draws the overflow and underflow bars: grey, one gap away
// from the binned range, with the count and the extreme value in the
// legend, since their position on the axis is not to scale.
func addOutside(p *plot.Plot, b binning) error {
	bar := func(n int, x0 float64, label string) error {
		if n == 0 {
			return nil
		}
		o := &plotter.Histogram{Width: b.width, FillColor: Grey, LineStyle: plotter.DefaultLineStyle,
			Bins: []plotter.HistogramBin{{Min: x0, Max: x0 + b.width, Weight: float64(n)}}}
		o.LineStyle.Width = vg.Points(0.5)
		o.LineStyle.Dashes = []vg.Length{vg.Points(2), vg.Points(1.5)}
		p.Add(o)
		p.Legend.Add(label, o)
		return nil
	}
	if err := bar(b.over, b.hi+b.width, fmt.Sprintf("overflow: %s slower than %s\n(up to %s; bar not to scale)",
		samples(b.over), timing.FormatDuration(b.hi, 3), timing.FormatDuration(b.slowest, 3))); err != nil {
		return err
	}
	return bar(b.under, b.lo-2*b.width, fmt.Sprintf("underflow: %s faster than %s\n(down to %s; bar not to scale)",
		samples(b.under), timing.FormatDuration(b.lo, 3), timing.FormatDuration(b.fastest, 3)))
}

func samples(n int) string {
	if n == 1 {
		return "1 sample"
	}
	return fmt.Sprintf("%d samples", n)
}

// addCIBand shades the median's confidence interval between y0 and y1 and
// names its values in the legend.
func addCIBand(p *plot.Plot, st timing.Stats, y0, y1 float64) error {
	if !st.CIValid {
		return nil
	}
	band, err := plotter.NewPolygon(plotter.XYs{{X: st.CILo, Y: y0}, {X: st.CIHi, Y: y0}, {X: st.CIHi, Y: y1}, {X: st.CILo, Y: y1}})
	if err != nil {
		return err
	}
	band.Color = withAlpha(Orange, 80)
	band.LineStyle.Width = 0
	p.Add(band)
	p.Legend.Add(ciLegend(st), band)
	return nil
}

// ciLegend names the interval in words a student reads:
// "95% interval of the median: 850–930 ns".
func ciLegend(st timing.Stats) string {
	s := fmt.Sprintf("%.0f%% interval of the\nmedian: %s", 100*timing.DefaultConfidence, durationRange(st.CILo, st.CIHi))
	if math.Abs(st.Confidence-timing.DefaultConfidence) >= 0.005 {
		s += fmt.Sprintf("\n(covers %.1f%%)", 100*st.Confidence)
	}
	return s
}

// durationRange formats lo–hi, naming the unit once when both share it:
// "850–930 ns", "930 ns–1.20 µs".
func durationRange(lo, hi float64) string {
	a, b := timing.FormatDuration(lo, 3), timing.FormatDuration(hi, 3)
	ua, ub := unitOf(a), unitOf(b)
	if ua == ub {
		return a[:len(a)-len(ua)-1] + "–" + b
	}
	return a + "–" + b
}

func unitOf(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ' ' {
			return s[i+1:]
		}
	}
	return ""
}

// addMedian draws the median as a line through pts and names it, with
// its value (ns), in the legend.
func addMedian(p *plot.Plot, median float64, pts plotter.XYs) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.Color = Vermillion
	l.Width = vg.Points(1.5)
	p.Add(l)
	p.Legend.Add("median "+timing.FormatDuration(median, 3), l)
	return nil
}
