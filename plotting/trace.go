package plotting

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/tick-kernel/tick/timing"
)

var phaseOrder = []timing.CallPhase{timing.PhaseCold, timing.PhaseCapture, timing.PhaseWarmup, timing.PhaseCalibrate, timing.PhaseMeasured}

// Trace plots every timed interval of r in order — cold, capture, warm-up,
// calibration and measured samples, coloured by phase (the legend lists
// the phases present) — as time per loop, floor subtracted, on a log axis
// labelled in natural units, with the median of the measured samples as a
// line, so compilation, capture and drift are visible at once.
func Trace(r *timing.Result) (*plot.Plot, error) {
	if len(r.Samples) == 0 {
		return nil, fmt.Errorf("plotting: trace: the result has no samples")
	}
	byPhase := map[timing.CallPhase]plotter.XYs{}
	floorY := math.Log10(math.Max(1, 0.5*math.Max(r.Stats.Min, 1)))
	for i, s := range r.Samples {
		y := s.PerLoop() - r.Floor
		ly := floorY // log axis: an interval at or below the floor sits at the bottom
		if y > 0 {
			ly = math.Log10(y)
		}
		byPhase[s.Phase] = append(byPhase[s.Phase], plotter.XY{X: float64(i + 1), Y: ly})
	}
	p := newPlot()
	p.Title.Text = title(r, "every timed interval, in order", count(r.Repeats, "measured sample", "measured samples")+" × "+count(r.Loops, "loop", "loops"))
	p.X.Label.Text = "interval (1 = cold call)"
	p.Y.Label.Text = "time per loop (floor subtracted, log scale)"
	// The axis is linear in log10(time), labelled with times: gonum's
	// LogScale centres the axis label on the mean of the data values,
	// which on a log axis is near the top, and pads the chart for it.
	p.Y.Tick.Marker = logDurationTicks{}
	p.X.Tick.Marker = countTicks{}
	for _, ph := range phaseOrder {
		xys := byPhase[ph]
		if len(xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("plotting: trace: %w", err)
		}
		s.GlyphStyle.Color = PhaseColor(string(ph))
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Radius = vg.Points(2)
		p.Add(s)
		p.Legend.Add(string(ph), s)
	}
	if m := r.Stats.Median; m > 0 {
		y := math.Log10(m)
		if err := addMedian(p, m, plotter.XYs{{X: 1, Y: y}, {X: float64(len(r.Samples)), Y: y}}); err != nil {
			return nil, fmt.Errorf("plotting: trace: %w", err)
		}
	}
	return p, nil
}
