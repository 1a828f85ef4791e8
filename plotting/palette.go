package plotting

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"

	"github.com/tick-kernel/tick/timing"
)

// The Okabe–Ito palette: eight colours that stay distinct for readers with
// any common form of colour blindness (Okabe & Ito, "Color Universal
// Design", 2008). Charts take their colours from here, always in the same
// role, so a colour means the same thing on every chart.
var (
	Black         = color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xff}
	Orange        = color.RGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff}
	SkyBlue       = color.RGBA{R: 0x56, G: 0xb4, B: 0xe9, A: 0xff}
	BluishGreen   = color.RGBA{R: 0x00, G: 0x9e, B: 0x73, A: 0xff}
	Yellow        = color.RGBA{R: 0xf0, G: 0xe4, B: 0x42, A: 0xff}
	Blue          = color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}
	Vermillion    = color.RGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff}
	ReddishPurple = color.RGBA{R: 0xcc, G: 0x79, B: 0xa7, A: 0xff}
	// Grey marks what is not data proper: overflow bins, "other" time.
	Grey      = color.RGBA{R: 0x99, G: 0x99, B: 0x99, A: 0xff}
	LightGrey = color.RGBA{R: 0xd0, G: 0xd0, B: 0xd0, A: 0xff}
)

// statementColors colour statements in comparisons, by position: the
// baseline (first) is always Blue, the second Orange, and so on, so a
// statement keeps its colour between %timeit --vs and %compare of the same
// pair.
var statementColors = []color.Color{Blue, Orange, BluishGreen, Vermillion, ReddishPurple, SkyBlue, Yellow, Black}

// StatementColor returns the colour of the i-th statement of a comparison.
func StatementColor(i int) color.Color { return statementColors[i%len(statementColors)] }

// callPhaseColors colour timed intervals by call phase.
var callPhaseColors = map[timing.CallPhase]color.Color{
	timing.PhaseCold:      Vermillion,
	timing.PhaseCapture:   Orange,
	timing.PhaseWarmup:    ReddishPurple,
	timing.PhaseCalibrate: Grey,
	timing.PhaseMeasured:  Blue,
}

// runtimePhaseColors give every runtime phase of %time its own colour.
var runtimePhaseColors = map[string]color.Color{
	timing.PhaseGraph:    SkyBlue,
	timing.PhaseSchedule: BluishGreen,
	timing.PhaseCodegen:  Yellow,
	timing.PhaseCompile:  Vermillion,
	timing.PhaseAlloc:    ReddishPurple,
	timing.PhaseTransfer: Black,
	timing.PhaseLaunch:   Orange,
	timing.PhaseDevice:   Blue,
	timing.PhaseWait:     Grey,
	"other":              LightGrey,
}

// PhaseColor returns the colour of a call phase ("cold", "measured", …) or
// a runtime phase ("compilation", "other", …); unknown names share Grey.
func PhaseColor(name string) color.Color {
	if c, ok := callPhaseColors[timing.CallPhase(name)]; ok {
		return c
	}
	if c, ok := runtimePhaseColors[name]; ok {
		return c
	}
	return Grey
}

// sans is the typeface of every chart: Liberation Sans, metric-compatible
// with Arial and Helvetica, which SVG viewers without it substitute (see
// svgFonts).
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot returns a plot whose text is all in sans.
func newPlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle.Font = font.From(sans, 11)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 10)
		a.Tick.Label.Font = font.From(sans, 9)
	}
	p.Legend.TextStyle.Font = font.From(sans, 9)
	return p
}

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}
