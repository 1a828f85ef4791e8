// Package plotting draws charts of timing results with gonum/plot and
// renders them to memory as PNG or SVG bytes, ready for a display_data
// bundle. Each chart is a small file: Histogram, Trace, ECDF, Box and
// PhaseBar build a *plot.Plot; Render turns one plot into bytes and
// Figure renders the default pair (histogram and trace side by side).
// Legends are drawn in a strip beside the data area, so they never hide
// data; log axes always carry a few labelled values (see logTicks); every
// axis has one number format, durations in their natural unit (axes.go);
// colours come from the Okabe–Ito palette, one role each (palette.go).
// Text is Liberation Sans (embedded in gonum/plot, so PNGs render
// offline); SVGs name Arial, Helvetica and sans-serif after it, so they
// render with the same metrics on machines without Liberation fonts.
package plotting

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

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

// Chart sizes. Every image a magic shows is RowWidth wide (960 CSS
// pixels, the timeline's width too), whatever it holds: one chart (a
// comparison's box plots, %time's phase bar) or Width-wide charts side by
// side (%timeit's histogram and trace); more than two share
// max(RowWidth, n·MinWidth). Height is one chart's.
const (
	Width    = 5 * vg.Inch
	Height   = 3.5 * vg.Inch
	RowWidth = 2 * Width
	MinWidth = 4 * vg.Inch
)

// rowWidth is the width of an image of n charts side by side.
func rowWidth(n int) vg.Length { return max(RowWidth, MinWidth*vg.Length(n)) }

func checkFormat(f Format) error {
	if f != PNG && f != SVG {
		return fmt.Errorf("plotting: unknown format %q: use png or svg", f)
	}
	return nil
}

// Render renders p at the default size in format f (PNG at Density).
func Render(p *plot.Plot, f Format) ([]byte, error) {
	return RenderRow(f, p)
}

// Density is the pixel density of PNG charts: twice the layout size, so
// lines and text stay sharp on HiDPI screens when the front end shows the
// image at its layout size (RenderPNG's width and height).
const Density = 2

// cssDPI is the resolution of a CSS pixel: layout sizes are in these.
const cssDPI = 96

// RenderRow renders plots side by side, sharing one image rowWidth wide:
// PNG at Density, or SVG.
func RenderRow(f Format, ps ...*plot.Plot) ([]byte, error) {
	if err := checkFormat(f); err != nil {
		return nil, err
	}
	if f == PNG {
		b, _, _, err := RenderPNG(Density, ps...)
		return b, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("plotting: nothing to render")
	}
	c := vgsvg.New(rowWidth(len(ps)), Height)
	b, err := drawRow(c, ps)
	if err != nil {
		return nil, err
	}
	return svgFonts(b), nil
}

// RenderPNG renders plots side by side, sharing rowWidth, as a PNG
// of density pixels per CSS pixel. width and height are the layout size
// in CSS pixels (for the display metadata: front ends then show the image
// at that size).
func RenderPNG(density int, ps ...*plot.Plot) (img []byte, width, height int, err error) {
	if len(ps) == 0 {
		return nil, 0, 0, fmt.Errorf("plotting: nothing to render")
	}
	if density < 1 {
		density = 1
	}
	w, h := rowWidth(len(ps)), Height
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(cssDPI*density))
	b, err := drawRow(vgimg.PngCanvas{Canvas: c}, ps)
	if err != nil {
		return nil, 0, 0, err
	}
	return b, int(math.Round(w.Points() / 72 * cssDPI)), int(math.Round(h.Points() / 72 * cssDPI)), nil
}

// svgFonts makes an SVG name fallbacks after Liberation Sans: Arial and
// Helvetica have its metrics, so text keeps its place, and sans-serif
// stands in anywhere.
func svgFonts(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
}

// drawRow draws ps side by side on c and returns c's bytes.
func drawRow(c interface {
	vg.CanvasSizer
	io.WriterTo
}, ps []*plot.Plot) ([]byte, error) {
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
		return nil, fmt.Errorf("plotting: render: %w", err)
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

// what describes a measurement for titles:
// "200 samples × 1,000 loops, synced per sample".
func what(r *timing.Result) string {
	sync := "synced per sample"
	switch r.Sync {
	case timing.SyncIter:
		sync = "synced per call"
	case timing.SyncNone:
		sync = "not synced"
	}
	return fmt.Sprintf("%s × %s, %s", count(r.Repeats, "sample", "samples"), count(r.Loops, "loop", "loops"), sync)
}

// count formats n with thousands separators and its noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s + " " + many
}

// measured returns the floor-subtracted per-loop times of the measured
// samples in ns (at least 0, as in the result's statistics).
func measured(r *timing.Result) []float64 {
	xs, _ := r.NetOfFloor()
	return xs
}
