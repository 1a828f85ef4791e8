package plotting

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/tick-kernel/tick/timing"
)

// Histogram plots the distribution of per-loop times of r's measured
// samples (floor subtracted), with the median as a solid line and its
// confidence interval as dashed lines.
func Histogram(r *timing.Result) (*plot.Plot, error) {
	xs := measured(r)
	if len(xs) == 0 {
		return nil, fmt.Errorf("plotting: histogram: the result has no measured samples")
	}
	name, div := unit(r.Stats.Median)
	vs := scaled(xs, div)
	bins := int(math.Max(5, math.Min(40, math.Sqrt(float64(len(vs))))))
	h, err := plotter.NewHist(vs, bins)
	if err != nil {
		return nil, fmt.Errorf("plotting: histogram: %w", err)
	}
	h.FillColor = color.RGBA{R: 70, G: 130, B: 180, A: 200}
	p := plot.New()
	p.Title.Text = title(r, "distribution of per-loop time", what(r))
	p.X.Label.Text = "time per loop (" + name + ")"
	p.Y.Label.Text = "samples (count)"
	p.Add(h)
	top := 0.0
	for _, b := range h.Bins {
		top = math.Max(top, b.Weight)
	}
	type mark struct {
		x      float64
		dashed bool
		label  string
	}
	marks := []mark{{r.Stats.Median, false, "median " + timing.FormatDuration(r.Stats.Median, 3)}}
	if r.Stats.CIValid {
		// Name the level the text names; the order statistics that bound
		// the interval usually cover a little more, and the label says so.
		ci := fmt.Sprintf("%.0f%% CI", 100*timing.DefaultConfidence)
		if math.Abs(r.Stats.Confidence-timing.DefaultConfidence) >= 0.005 {
			ci += fmt.Sprintf(" (covers %.1f%%)", 100*r.Stats.Confidence)
		}
		marks = append(marks, mark{r.Stats.CILo, true, ci}, mark{r.Stats.CIHi, true, ""})
	}
	for _, m := range marks {
		l, err := plotter.NewLine(plotter.XYs{{X: m.x / div, Y: 0}, {X: m.x / div, Y: top * 1.05}})
		if err != nil {
			return nil, fmt.Errorf("plotting: histogram: %w", err)
		}
		l.Color = color.RGBA{R: 200, G: 30, B: 30, A: 255}
		l.Width = vg.Points(1.5)
		if m.dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		if m.label != "" {
			p.Legend.Add(m.label, l)
		}
	}
	return p, nil
}
