package plotting

import (
	"fmt"
	"math"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/tick-kernel/tick/timing"
)

// PhaseBar draws %time's phase breakdown as stacked bars: the phases run
// on the calling goroutine (disjoint, see timing.Overlap) plus "other" for
// wall time no phase accounts for, on one bar that adds up to the wall
// time; nested phases (allocation, already inside those) and concurrent
// ones (device execution, on device workers) each on a bar of their own,
// so nothing is counted twice.
func PhaseBar(o *timing.Once) (*plot.Plot, error) {
	type seg struct {
		name string
		time time.Duration
		row  int
	}
	rows := []string{"calling\ngoroutine"}
	var segs []seg
	var sum time.Duration
	for _, ph := range o.Phases {
		if ph.Time <= 0 {
			continue // nothing to draw: the legend lists only phases present
		}
		switch kind, _ := timing.Overlap(ph.Name); kind {
		case timing.Sequential:
			segs = append(segs, seg{ph.Name, ph.Time, 0})
			sum += ph.Time
		case timing.Nested:
			rows = append(rows, ph.Name+"\n(nested, inside\nthe bar below)")
			segs = append(segs, seg{ph.Name, ph.Time, len(rows) - 1})
		default:
			rows = append(rows, ph.Name+"\n(concurrent,\nother goroutines)")
			segs = append(segs, seg{ph.Name, ph.Time, len(rows) - 1})
		}
	}
	if other := o.Wall - sum; other > 0 {
		segs = append(segs, seg{"other", other, 0})
	}
	if len(o.Phases) == 0 {
		return nil, fmt.Errorf("plotting: phase bar: no phases to draw (the target has no probe)")
	}
	div := 1.0 // ns
	p := newPlot()
	p.Title.Text = "%time: where one run's time went (wall " + timing.FormatDuration(float64(o.Wall), 3) + ")"
	p.X.Label.Text = "time"
	p.X.Tick.Marker = durationTicks{}
	p.X.Min = 0
	var below *plotter.BarChart
	for _, s := range segs {
		vs := make(plotter.Values, len(rows))
		vs[s.row] = float64(s.time) / div
		b, err := plotter.NewBarChart(vs, vg.Points(22))
		if err != nil {
			return nil, fmt.Errorf("plotting: phase bar: %w", err)
		}
		b.Horizontal = true
		b.Color = PhaseColor(s.name)
		b.LineStyle.Width = 0
		if below != nil {
			b.StackOn(below)
		}
		below = b
		p.Add(b)
		p.Legend.Add(s.name, b)
	}
	wall, err := plotter.NewLine(plotter.XYs{{X: float64(o.Wall) / div, Y: -0.5}, {X: float64(o.Wall) / div, Y: float64(len(rows)) - 0.5}})
	if err != nil {
		return nil, fmt.Errorf("plotting: phase bar: %w", err)
	}
	wall.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(wall)
	p.Legend.Add("wall time", wall)
	p.NominalY(rows...)
	p.X.Max = math.Max(p.X.Max, 1.08*float64(o.Wall)/div) // room right of the wall line
	return p, nil
}
