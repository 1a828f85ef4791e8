package plotting

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/tick-kernel/tick/timing"
)

// phaseColors colour the trace by call phase.
var phaseColors = map[timing.CallPhase]color.Color{
	timing.PhaseCold:      color.RGBA{R: 214, G: 39, B: 40, A: 255},
	timing.PhaseCapture:   color.RGBA{R: 255, G: 127, B: 14, A: 255},
	timing.PhaseWarmup:    color.RGBA{R: 148, G: 103, B: 189, A: 255},
	timing.PhaseCalibrate: color.RGBA{R: 127, G: 127, B: 127, A: 255},
	timing.PhaseMeasured:  color.RGBA{R: 31, G: 119, B: 180, A: 255},
}

var phaseOrder = []timing.CallPhase{timing.PhaseCold, timing.PhaseCapture, timing.PhaseWarmup, timing.PhaseCalibrate, timing.PhaseMeasured}

// Trace plots every timed interval of r in order — cold, capture, warm-up,
// calibration and measured samples, coloured by phase — as time per loop
// on a log axis, so compilation, capture and drift are visible at once.
func Trace(r *timing.Result) (*plot.Plot, error) {
	if len(r.Samples) == 0 {
		return nil, fmt.Errorf("plotting: trace: the result has no samples")
	}
	name, div := unit(r.Stats.Median + r.Floor)
	byPhase := map[timing.CallPhase]plotter.XYs{}
	for i, s := range r.Samples {
		y := s.PerLoop() / div
		if y <= 0 {
			y = 1 / div // log axis: show a zero-length interval at 1 ns
		}
		byPhase[s.Phase] = append(byPhase[s.Phase], plotter.XY{X: float64(i), Y: math.Log10(y)})
	}
	p := plot.New()
	p.Title.Text = title(r, "every timed interval, in order", fmt.Sprintf("%d measured samples × %d loops", r.Repeats, r.Loops))
	p.X.Label.Text = "interval number (cold call first)"
	p.Y.Label.Text = "time per loop (" + name + ", log scale)"
	// The axis is linear in log10(time), labelled with times: gonum's
	// LogScale centres the axis label on the mean of the data values,
	// which on a log axis is near the top, and pads the chart for it.
	p.Y.Tick.Marker = log10Axis{}
	for _, ph := range phaseOrder {
		xys := byPhase[ph]
		if len(xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("plotting: trace: %w", err)
		}
		s.GlyphStyle.Color = phaseColors[ph]
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Radius = vg.Points(2)
		p.Add(s)
		p.Legend.Add(string(ph), s)
	}
	return p, nil
}
