// Package plotting draws charts of timing results with gonum/plot and
// renders them to memory as PNG or SVG bytes, ready for a display_data
// bundle. Each chart is a small file: Histogram, Trace, ECDF, Box and
// PhaseBar build a *plot.Plot; Render turns one plot into bytes and
// Figure renders the default pair (histogram and trace side by side).
// Fonts are the Liberation fonts embedded in gonum/plot, so rendering
// works offline.
package plotting

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tick/timing"
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
	cs := plot.Align([][]*plot.Plot{ps}, tiles, dc)
	for i, p := range ps {
		p.Draw(cs[0][i])
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plotting: render %s: %w", f, err)
	}
	return buf.Bytes(), nil
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
