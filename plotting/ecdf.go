package plotting

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/tick-kernel/tick/timing"
)

// ECDF plots the empirical cumulative distribution of per-loop times of
// r's measured samples (floor subtracted): the fraction of samples at or
// below each time.
func ECDF(r *timing.Result) (*plot.Plot, error) {
	xs := measured(r)
	if len(xs) == 0 {
		return nil, fmt.Errorf("plotting: ecdf: the result has no measured samples")
	}
	slices.Sort(xs)
	name, div := unit(r.Stats.Median)
	pts := make(plotter.XYs, 0, len(xs)+1)
	pts = append(pts, plotter.XY{X: xs[0] / div, Y: 0})
	for i, x := range xs {
		pts = append(pts, plotter.XY{X: x / div, Y: float64(i+1) / float64(len(xs))})
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("plotting: ecdf: %w", err)
	}
	l.StepStyle = plotter.PostStep
	p := plot.New()
	p.Title.Text = title(r, "ECDF of per-loop time", what(r))
	p.X.Label.Text = "time per loop (" + name + ")"
	p.Y.Label.Text = "fraction of samples ≤ x"
	p.Y.Min, p.Y.Max = 0, 1
	p.Add(l)
	return p, nil
}
