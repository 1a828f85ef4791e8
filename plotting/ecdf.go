package plotting

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/tick-kernel/tick/timing"
)

// ECDF plots the empirical cumulative distribution of per-loop times of
// r's measured samples (floor subtracted): the share of samples at or
// below each time, with the median marked where the curve crosses 50%.
func ECDF(r *timing.Result) (*plot.Plot, error) {
	xs := measured(r)
	if len(xs) == 0 {
		return nil, fmt.Errorf("plotting: ecdf: the result has no measured samples")
	}
	slices.Sort(xs)
	pts := make(plotter.XYs, 0, len(xs)+1)
	pts = append(pts, plotter.XY{X: xs[0], Y: 0})
	for i, x := range xs {
		pts = append(pts, plotter.XY{X: x, Y: float64(i+1) / float64(len(xs))})
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("plotting: ecdf: %w", err)
	}
	l.StepStyle = plotter.PostStep
	l.Color = Blue
	l.Width = vg.Points(1.2)
	p := newPlot()
	p.Title.Text = title(r, "cumulative distribution of per-loop time", what(r))
	p.X.Label.Text = "time per loop (floor subtracted)"
	p.Y.Label.Text = "samples at or below"
	p.X.Tick.Marker = durationTicks{}
	p.Y.Tick.Marker = percentTicks{}
	p.Y.Min, p.Y.Max = 0, 1
	if err := addCIBand(p, r.Stats, 0, 1); err != nil {
		return nil, fmt.Errorf("plotting: ecdf: %w", err)
	}
	p.Add(l)
	p.Legend.Add("share of samples ≤ x", l)
	m := r.Stats.Median
	if err := addMedian(p, m, plotter.XYs{{X: m, Y: 0}, {X: m, Y: 0.5}}); err != nil {
		return nil, fmt.Errorf("plotting: ecdf: %w", err)
	}
	dot, err := plotter.NewScatter(plotter.XYs{{X: m, Y: 0.5}})
	if err != nil {
		return nil, fmt.Errorf("plotting: ecdf: %w", err)
	}
	dot.GlyphStyle = draw.GlyphStyle{Color: Vermillion, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	p.Add(dot)
	return p, nil
}
