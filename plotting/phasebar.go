package plotting

import (
	"fmt"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"tick/timing"
)

// PhaseBar draws %time's phase breakdown as one stacked bar: each runtime
// phase a segment, plus "other" for wall time no phase accounts for.
func PhaseBar(o *timing.Once) (*plot.Plot, error) {
	phases := append([]timing.PhaseTime(nil), o.Phases...)
	var sum float64
	for _, ph := range phases {
		sum += float64(ph.Time)
	}
	if other := float64(o.Wall) - sum; other > 0 {
		phases = append(phases, timing.PhaseTime{Name: "other", Time: o.Wall - time.Duration(sum)})
	}
	if len(phases) == 0 {
		return nil, fmt.Errorf("plotting: phase bar: no phases to draw (the target has no probe)")
	}
	name, div := unit(float64(o.Wall))
	p := plot.New()
	p.Title.Text = "where one run's time went (wall " + timing.FormatDuration(float64(o.Wall), 3) + ")"
	p.X.Label.Text = "time (" + name + ")"
	var below *plotter.BarChart
	for i, ph := range phases {
		b, err := plotter.NewBarChart(plotter.Values{float64(ph.Time) / div}, vg.Points(40))
		if err != nil {
			return nil, fmt.Errorf("plotting: phase bar: %w", err)
		}
		b.Horizontal = true
		b.Color = plotutil.Color(i)
		b.LineStyle.Width = 0
		if below != nil {
			b.StackOn(below)
		}
		below = b
		p.Add(b)
		p.Legend.Add(ph.Name, b)
	}
	p.NominalY("run")
	p.Legend.Top = true
	return p, nil
}
