package plotting

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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
	var names, texts []string
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
		names = append(names, label)
		texts = append(texts, boxNote(cmp, i))
	}
	lay := layoutNotes(p.Legend.TextStyle, p.X.Tick.Label, names, texts)
	// Notes sit above the tallest whisker or outlier, in lay.rows rows
	// (alternate boxes one row up when side by side they would touch).
	pad := 0.12 * (top - y(lo*0.9))
	if len(lay.texts) > 0 {
		var labels plotter.XYLabels
		for i, t := range lay.texts {
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(i), Y: top + pad + float64(i%lay.rows)*2.2*pad})
			labels.Labels = append(labels.Labels, t)
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
		p.Y.Max = math.Max(p.Y.Max, top+(2.2*float64(lay.rows)+1.2)*pad)
	}
	p.NominalX(lay.names...)
	return p, nil
}

// boxSlot is the width of the data area a box plot's statement gets when
// Box is drawn alone at RowWidth (the y axis and its label take about an
// inch).
func boxSlot(n int) vg.Length { return (RowWidth - vg.Inch) / vg.Length(n) }

// noteLayout is how Box labels its statements: the notes above the boxes
// (in rows rows; none when they cannot fit) and the names under them.
type noteLayout struct {
	rows  int
	texts []string
	names []string
}

// layoutNotes fits the notes and names to the boxes' slots so that no two
// touch: notes wider than 92% of a slot go on two rows (alternate boxes one
// row up), then in their short form (the change alone), then nowhere (the
// text table has them all); names are cut to a slot.
func layoutNotes(noteStyle, nameStyle draw.TextStyle, names, texts []string) noteLayout {
	n := len(names)
	slot := boxSlot(n)
	widest := func(ts []string) vg.Length {
		var w vg.Length
		for _, t := range ts {
			for _, l := range strings.Split(t, "\n") {
				w = max(w, noteStyle.Width(l))
			}
		}
		return w
	}
	lay := noteLayout{rows: 1}
	for _, try := range [][]string{texts, shortNotes(texts)} {
		if w := widest(try); w <= 0.92*slot {
			lay.rows, lay.texts = 1, try
			break
		} else if w <= 1.84*slot {
			lay.rows, lay.texts = 2, try
			break
		}
	}
	for _, name := range names {
		r := []rune(name)
		for len(r) > 2 && nameStyle.Width(string(r)) > 0.92*slot {
			r = append(r[:len(r)-2], '…')
		}
		lay.names = append(lay.names, string(r))
	}
	return lay
}

// shortNotes keeps the first line of each note's change ("−24.3%"): for
// many statements side by side.
func shortNotes(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		lines := strings.Split(t, "\n")
		out[i] = lines[0]
		if len(lines) > 1 {
			out[i] = strings.Fields(lines[1])[0]
		}
	}
	return out
}

// boxNote is the text above box i: its median and, after the baseline, the
// change and its p-value, a line each ("−24.3% vs baseline", "p<0.001"; or
// "~ no difference", "p=0.41").
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
		return s + "\n~ no difference\n" + pValue(row.P)
	case timing.VerdictCannotTell:
		return s + "\n? cannot tell\n(see the text)"
	}
	return s + "\n" + row.DeltaText + " vs baseline\n" + pValue(row.P)
}

// pValue formats a p-value without claiming more than it knows:
// "p=0.032", "p<0.001".
func pValue(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.3f", p)
}
