package plotting

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/tick-kernel/tick/timing"
)

// Box draws one box plot per result side by side (per-loop times, floor
// subtracted) for comparisons. Results are labelled by Label, or #1, #2….
func Box(results ...*timing.Result) (*plot.Plot, error) {
	if len(results) == 0 {
		return nil, fmt.Errorf("plotting: box: no results to compare")
	}
	ref := math.Inf(1)
	for _, r := range results {
		ref = math.Min(ref, r.Stats.Median)
	}
	name, div := unit(ref)
	p := plot.New()
	p.Title.Text = "per-loop time by statement\nbox: quartiles and median · whiskers: 1.5 IQR · floor subtracted"
	p.X.Label.Text = "statement (saved name or code)"
	p.Y.Label.Text = "time per loop (" + name + ")"
	var names []string
	for i, r := range results {
		xs := measured(r)
		if len(xs) == 0 {
			return nil, fmt.Errorf("plotting: box: result %d has no measured samples", i+1)
		}
		b, err := plotter.NewBoxPlot(vg.Points(40), float64(i), scaled(xs, div))
		if err != nil {
			return nil, fmt.Errorf("plotting: box: %w", err)
		}
		b.FillColor = plotutil.Color(i)
		p.Add(b)
		label := r.Label
		if label == "" {
			label = fmt.Sprintf("#%d", i+1)
		}
		names = append(names, label)
	}
	p.NominalX(names...)
	return p, nil
}
