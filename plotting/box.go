package plotting

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/tick-kernel/tick/timing"
)

// logSpread is the ratio of slowest to fastest median above which Box
// uses a log axis: on a linear one the fast statement's box would be a
// flat line at the bottom.
const logSpread = 8

// Box draws one box plot per result side by side (per-loop times, floor
// subtracted) for comparisons: each statement in its own colour (by
// position, the baseline first; see StatementColor), the median's
// confidence interval as a dark bar inside the box, and above each box its
// median and, after the baseline, the change and the Mann–Whitney U
// p-value from timing.Compare. The axis spans the data, not zero, so the
// difference is visible, on a log scale when medians differ by more than
// logSpread×. Results are labelled by Label, or #1, #2….
func Box(results ...*timing.Result) (*plot.Plot, error) {
	if len(results) == 0 {
		return nil, fmt.Errorf("plotting: box: no results to compare")
	}
	lo, hi := math.Inf(1), 0.0
	for i, r := range results {
		if len(r.Measured()) == 0 {
			return nil, fmt.Errorf("plotting: box: result %d has no measured samples", i+1)
		}
		lo, hi = math.Min(lo, r.Stats.Median), math.Max(hi, r.Stats.Median)
	}
	logY := lo > 0 && hi/lo > logSpread
	y := func(v float64) float64 {
		if logY {
			return math.Log10(math.Max(v, 1))
		}
		return v
	}
	cmp := timing.Compare(results...)
	p := newPlot()
	p.Title.Text = "per-loop time by statement (floor subtracted)\nbox: quartiles · whiskers: 1.5 IQR · dark bar: 95% interval of the median"
	p.X.Label.Text = "statement (saved name or code)"
	p.Y.Label.Text = "time per loop"
	p.Y.Tick.Marker = durationTicks{}
	if logY {
		p.Y.Label.Text += " (log scale)"
		p.Y.Tick.Marker = logDurationTicks{}
	}
	var names []string
	var labels plotter.XYLabels
	top := math.Inf(-1)
	for i, r := range results {
		xs := measured(r)
		vs := make(plotter.Values, len(xs))
		for j, x := range xs {
			vs[j] = y(x)
			top = math.Max(top, vs[j])
		}
		b, err := plotter.NewBoxPlot(vg.Points(44), float64(i), vs)
		if err != nil {
			return nil, fmt.Errorf("plotting: box: %w", err)
		}
		b.FillColor = withAlpha(StatementColor(i), 110)
		b.BoxStyle.Color = StatementColor(i)
		b.MedianStyle.Width = vg.Points(1.5)
		b.GlyphStyle.Color = StatementColor(i)
		p.Add(b)
		if st := r.Stats; st.CIValid {
			ci, err := plotter.NewPolygon(plotter.XYs{{X: float64(i) - 0.035, Y: y(st.CILo)}, {X: float64(i) + 0.035, Y: y(st.CILo)},
				{X: float64(i) + 0.035, Y: y(st.CIHi)}, {X: float64(i) - 0.035, Y: y(st.CIHi)}})
			if err != nil {
				return nil, fmt.Errorf("plotting: box: %w", err)
			}
			ci.Color = withAlpha(Black, 170)
			ci.LineStyle.Width = 0
			p.Add(ci)
		}
		label := r.Label
		if label == "" {
			label = fmt.Sprintf("#%d", i+1)
		}
		names = append(names, shorten(label, 24))
		labels.XYs = append(labels.XYs, plotter.XY{X: float64(i)})
		labels.Labels = append(labels.Labels, boxNote(cmp, i))
	}
	// Notes sit above the tallest whisker or outlier.
	pad := 0.12 * (top - y(lo*0.9))
	for i := range labels.XYs {
		labels.XYs[i].Y = top + pad
	}
	notes, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, fmt.Errorf("plotting: box: %w", err)
	}
	for i := range notes.TextStyle {
		notes.TextStyle[i].Font = p.Legend.TextStyle.Font
		notes.TextStyle[i].XAlign = -0.5
		notes.TextStyle[i].Color = StatementColor(i)
	}
	p.Add(notes)
	p.Y.Max = math.Max(p.Y.Max, top+2.2*pad)
	p.NominalX(names...)
	return p, nil
}

// boxNote is the text above box i: its median and, after the baseline, the
// change and its p-value ("−24.3%, p=0.000", or "~ no difference, p=0.41").
func boxNote(c *timing.Comparison, i int) string {
	if i >= len(c.Rows) {
		return ""
	}
	row := c.Rows[i]
	s := "median " + timing.FormatDuration(row.Stats.Median, 3)
	if i == 0 {
		return s + "\n(baseline)"
	}
	switch row.Verdict {
	case timing.VerdictSame:
		return s + "\n~ no difference, " + pValue(row.P)
	case timing.VerdictCannotTell:
		return s + "\n? cannot tell (see the text)"
	}
	return s + "\n" + row.DeltaText + " vs baseline, " + pValue(row.P)
}

// pValue formats a p-value without claiming more than it knows:
// "p=0.032", "p<0.001".
func pValue(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.3f", p)
}

// shorten cuts s to at most n characters, ending it with "…" when cut.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
