// Package plotting draws charts of timing results with gonum/plot and
// renders them to memory as PNG or SVG bytes, ready for a display_data
// bundle. Each chart is a small file: Histogram, Trace, ECDF, Box and
// PhaseBar build a *plot.Plot; Render turns one plot into bytes and
// Figure renders the default pair (histogram and trace side by side).
// Legends are drawn in a strip beside the data area, so they never hide
// data; log axes always carry a few labelled values (see logTicks).
// Fonts are the Liberation fonts embedded in gonum/plot, so rendering
// works offline.
package plotting

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/tick-kernel/tick/timing"
)

// Format is an output format.
type Format string

// Formats Render supports.
const (
	PNG Format = "png"
	SVG Format = "svg"
)

// MIME returns the format's MIME type ("image/png", "image/svg+xml").
func (f Format) MIME() string {
	if f == SVG {
		return "image/svg+xml"
	}
	return "image/png"
}

// Default size of one chart.
const (
	Width  = 5 * vg.Inch
	Height = 3.5 * vg.Inch
)

func checkFormat(f Format) error {
	if f != PNG && f != SVG {
		return fmt.Errorf("plotting: unknown format %q: use png or svg", f)
	}
	return nil
}

// Render renders p at the default size in format f.
func Render(p *plot.Plot, f Format) ([]byte, error) {
	return RenderRow(f, p)
}

// RenderRow renders plots side by side, each at the default size, into
// one image.
func RenderRow(f Format, ps ...*plot.Plot) ([]byte, error) {
	if err := checkFormat(f); err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("plotting: nothing to render")
	}
	c, err := draw.NewFormattedCanvas(Width*vg.Length(len(ps)), Height, string(f))
	if err != nil {
		return nil, fmt.Errorf("plotting: %w", err)
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: len(ps), PadX: vg.Millimeter * 4, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	// Each chart is laid out in its own tile: plot.Align would line the
	// data areas up, but it does not know about the legend strip and the
	// title drawBesideLegend draws, and shifts the titles out of line.
	for i, p := range ps {
		drawBesideLegend(p, tiles.At(dc, i, 0))
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plotting: render %s: %w", f, err)
	}
	return buf.Bytes(), nil
}

// drawBesideLegend draws p into c with its title centred over the whole
// of c and its legend in a strip to the right of the data area, below the
// title, so the legend never hides data. p is restored afterwards.
func drawBesideLegend(p *plot.Plot, c draw.Canvas) {
	if p.Title.Text != "" {
		ttl := p.Title
		descent := ttl.TextStyle.FontExtents().Descent
		c.FillText(ttl.TextStyle, vg.Point{X: c.Center().X, Y: c.Max.Y + descent}, ttl.Text)
		c = draw.Crop(c, 0, 0, 0, -(ttl.TextStyle.Rectangle(ttl.Text).Size().Y + ttl.Padding))
		p.Title.Text = ""
		defer func() { p.Title = ttl }()
	}
	leg := p.Legend
	w := leg.Rectangle(c).Size().X
	if w == 0 { // no entries
		p.Draw(c)
		return
	}
	gap := vg.Millimeter * 2
	p.Legend = plot.NewLegend()
	p.Draw(draw.Crop(c, 0, -(w + gap), 0, 0))
	p.Legend = leg
	leg.Top, leg.Left = true, true
	leg.Draw(draw.Crop(c, c.Size().X-w, 0, 0, 0))
}

// title names what a chart shows and, when known, the statement measured,
// on two lines: "x*2+1: per-loop time" over detail. Long statements are
// shortened.
func title(r *timing.Result, what, detail string) string {
	if r.Label != "" {
		l := []rune(r.Label)
		if len(l) > 32 {
			l = append(l[:31], '…')
		}
		what = string(l) + ": " + what
	}
	if detail == "" {
		return what
	}
	return what + "\n" + detail
}

// Figure renders the default chart of a result: the histogram of per-loop
// times and the per-sample trace, side by side.
func Figure(r *timing.Result, f Format) ([]byte, error) {
	h, err := Histogram(r)
	if err != nil {
		return nil, err
	}
	t, err := Trace(r)
	if err != nil {
		return nil, err
	}
	return RenderRow(f, h, t)
}

// unit picks a time unit for values around ns nanoseconds.
func unit(ns float64) (name string, div float64) {
	a := math.Abs(ns)
	switch {
	case a >= 1e9:
		return "s", 1e9
	case a >= 1e6:
		return "ms", 1e6
	case a >= 1e3:
		return "µs", 1e3
	}
	return "ns", 1
}

// what describes a measurement for titles:
// "200 samples × 1,000 loops, synced per sample".
func what(r *timing.Result) string {
	h := r.Headline(3)
	if i := strings.Index(h, ", "); i >= 0 {
		return strings.TrimSuffix(h[i+2:], ")")
	}
	return h
}

// measured returns the floor-subtracted per-loop times of the measured
// samples in ns.
func measured(r *timing.Result) []float64 {
	xs := r.Measured()
	for i := range xs {
		xs[i] -= r.Floor
	}
	return xs
}

// scaled returns xs divided by div (a unit from unit) as plotter values.
func scaled(xs []float64, div float64) plotter.Values {
	vs := make(plotter.Values, len(xs))
	for i, x := range xs {
		vs[i] = x / div
	}
	return vs
}
