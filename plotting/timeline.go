package plotting

import (
	"bytes"
	"fmt"
	"image/color"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/tick-kernel/tick/profile"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

// Timeline sizes: the chart is wide (time is the axis to read) and grows a
// row per lane.
const (
	TimelineWidth = 10 * vg.Inch
	timelineRow   = 0.55 * vg.Inch
	timelineTop   = 1.4 * vg.Inch
)

// denseSpans is the number of spans in a lane above which the lane is
// aggregated: drawn as timelineBins columns whose height is the share of
// the column's time the lane was busy, coloured by what took most of it.
// Ten thousand kernels would otherwise be a smear narrower than a pixel
// each.
const (
	denseSpans   = 1500
	timelineBins = 500
)

// The Okabe–Ito palette: distinguishable with the common colour-vision
// deficiencies.
var (
	okOrange    = color.RGBA{0xE6, 0x9F, 0x00, 0xff}
	okSky       = color.RGBA{0x56, 0xB4, 0xE9, 0xff}
	okGreen     = color.RGBA{0x00, 0x9E, 0x73, 0xff}
	okYellow    = color.RGBA{0xF0, 0xE4, 0x42, 0xff}
	okBlue      = color.RGBA{0x00, 0x72, 0xB2, 0xff}
	okVermilion = color.RGBA{0xD5, 0x5E, 0x00, 0xff}
	okPurple    = color.RGBA{0xCC, 0x79, 0xA7, 0xff}
	okGrey      = color.RGBA{0x99, 0x99, 0x99, 0xff}
	okLight     = color.RGBA{0xDD, 0xDD, 0xDD, 0xff}
)

// hostColors colour host spans by kind: compile (vermilion) and launch
// (orange) stand out, waiting is pale; blues and greens are left to the
// kernels.
var hostColors = map[tensor.EventKind]color.Color{
	tensor.EventGraph: okPurple, tensor.EventSchedule: okYellow, tensor.EventCodegen: color.RGBA{0xE3, 0xB5, 0xCE, 0xff},
	tensor.EventCompile: okVermilion, tensor.EventAlloc: color.RGBA{0x66, 0x66, 0x66, 0xff}, tensor.EventTransfer: color.Black,
	tensor.EventLaunch: okOrange, tensor.EventSync: okLight,
}

// jitColors colour JIT calls by phase: light tints, the row is context.
var jitColors = map[string]color.Color{
	"cold": color.RGBA{0xF2, 0xB4, 0x8C, 0xff}, "capture": color.RGBA{0xF5, 0xD7, 0x8E, 0xff}, "replay": color.RGBA{0x8F, 0xD3, 0xBE, 0xff},
}

// kernelColors colour the kernels with the most device time (the rest are
// grey): blues and greens, Okabe–Ito's and darker shades of them.
var kernelColors = []color.Color{okBlue, okGreen, okSky, color.RGBA{0x00, 0x4D, 0x80, 0xff}, color.RGBA{0x00, 0x6B, 0x4E, 0xff}, color.RGBA{0x2F, 0x7F, 0xA8, 0xff}}

// span is one rectangle of the timeline: [x0, x1] on row, in the chart's
// time unit.
type span struct {
	x0, x1 float64
	row    int
	key    string // the legend entry it belongs to
	c      color.Color
	frac   float64 // aggregated: the bin's busy share (0 = a plain span)
}

// timelineData is a custom gonum plotter drawing spans as rectangles.
type timelineData struct {
	spans      []span
	rows       int
	xMin, xMax float64
}

// Plot draws each span as a rectangle at least half a point wide, so a
// kernel of a few hundred nanoseconds in a millisecond is still visible.
func (t *timelineData) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	minW := vg.Points(0.5)
	for _, s := range t.spans {
		x0, x1 := trX(s.x0), trX(s.x1)
		if x1-x0 < minW {
			x1 = x0 + minW
		}
		h := 0.36
		y0, y1 := trY(float64(s.row)-h), trY(float64(s.row)+h)
		if s.frac > 0 {
			y1 = y0 + (y1-y0)*vg.Length(s.frac)
		}
		c.FillPolygon(s.c, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
}

// DataRange makes the axes span the profile and the rows.
func (t *timelineData) DataRange() (xmin, xmax, ymin, ymax float64) {
	return t.xMin, t.xMax, -0.6, float64(t.rows) - 0.4
}

// swatch is a legend thumbnail: a filled square, a point short of its
// row at top and bottom so that the swatches of adjacent entries stay
// apart.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	lo, hi := c.Min.Y+vg.Points(1), c.Max.Y-vg.Points(1)
	c.FillPolygon(s.c, []vg.Point{{X: c.Min.X, Y: lo}, {X: c.Max.X, Y: lo}, {X: c.Max.X, Y: hi}, {X: c.Min.X, Y: hi}})
}

// Timeline draws a profile on one time axis: a row of the statement's
// calls (and the JIT phase of each JIT call), the host's spans coloured by
// what the runtime was doing, and one row per device worker with its
// kernels coloured by kernel (the six with the most device time; the rest
// grey). Lanes with more than denseSpans spans are aggregated into
// columns whose height is the busy share. The title carries the overlap
// numbers.
func Timeline(p *profile.Profile) (*plot.Plot, error) {
	return TimelineWindow(p, 0, p.Overlap().Wall)
}

// TimelineWindow is Timeline drawing only [from, to] of the profile (spans
// are clipped to it).
func TimelineWindow(p *profile.Profile, from, to time.Duration) (*plot.Plot, error) {
	if len(p.Events) == 0 {
		return nil, fmt.Errorf("plotting: timeline: the profile has no events")
	}
	if to <= from {
		return nil, fmt.Errorf("plotting: timeline: empty window [%v, %v]", from, to)
	}
	o := p.Overlap()
	uname, div := unit(float64(to - from))
	x := func(d time.Duration) float64 { return float64(min(max(d, from), to)) / div }

	lanes := p.Lanes()
	devRow := map[string]int{}
	// Rows from the bottom: devices (last lane lowest), host, JIT, calls.
	names := make([]string, 0, len(lanes)+2)
	for i := len(lanes) - 1; i >= 1; i-- {
		devRow[lanes[i]] = len(names)
		names = append(names, laneName(lanes[i], p.Clocked(lanes[i])))
	}
	hostRow := len(names)
	names = append(names, "host")
	var hasJIT, hasMarks bool
	for _, e := range p.Events {
		hasJIT = hasJIT || e.Kind == tensor.EventJIT
		hasMarks = hasMarks || e.Kind == tensor.EventMark
	}
	jitRow, markRow := -1, -1
	if hasJIT {
		jitRow = len(names)
		names = append(names, "JIT calls")
	}
	if hasMarks {
		markRow = len(names)
		names = append(names, "statement")
	}

	kcol := map[string]color.Color{}
	var legendKernels []string
	for i, r := range p.KernelTable() {
		if i < len(kernelColors) {
			kcol[r.ID] = kernelColors[i]
			legendKernels = append(legendKernels, fmt.Sprintf("%s %s (%.0f%%)", r.Name, r.Device, 100*r.Share))
		}
	}

	perRow := map[int][]span{}
	marks := 0
	for _, e := range p.Events {
		if e.End < from || e.Start > to {
			continue
		}
		s := span{x0: x(e.Start), x1: x(e.End)}
		switch e.Kind {
		case tensor.EventKernel:
			s.row = devRow[e.Device]
			s.key = profile.KernelID(e)
			if c, ok := kcol[s.key]; ok {
				s.c = c
			} else {
				s.c = okGrey
			}
		case tensor.EventCopy: // a device's transfers lane
			s.row, s.key, s.c = devRow[profile.Lane(e)], "copy", copyColor
		case tensor.EventJIT:
			s.row, s.key, s.c = jitRow, "JIT "+e.Name, jitColors[e.Name]
		case tensor.EventMark:
			marks++
			s.row, s.key = markRow, "call"
			s.c = okGrey
			if marks%2 == 0 {
				s.c = okLight
			}
		default:
			c, ok := hostColors[e.Kind]
			if !ok {
				continue
			}
			s.row, s.key, s.c = hostRow, e.Kind.String(), c
		}
		perRow[s.row] = append(perRow[s.row], s)
	}
	data := &timelineData{rows: len(names), xMin: x(from), xMax: x(to)}
	var dense []string
	for row := 0; row < len(names); row++ {
		ss := perRow[row]
		// Long spans first, so the short ones inside them stay visible.
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].x1-ss[i].x0 > ss[j].x1-ss[j].x0 })
		if len(ss) > denseSpans {
			dense = append(dense, fmt.Sprintf("%s: %d spans", names[row], len(ss)))
			ss = aggregate(ss, data.xMin, data.xMax, row)
		}
		data.spans = append(data.spans, ss...)
	}

	plt := newPlot() // the fonts of the other charts
	plt.Title.Text = timelineTitle(p, o, dense)
	plt.X.Label.Text = "time since the profile started (" + uname + ")"
	if from > 0 || to < o.Wall {
		plt.Title.Text = fmt.Sprintf("the same, zoomed to the warm calls: %s – %s", timing.FormatDuration(float64(from), 3),
			timing.FormatDuration(float64(to), 3))
	}
	plt.X.Min = x(from)
	plt.Add(data)
	plt.NominalY(names...)
	plt.Y.Padding = 0
	plt.Legend.Padding = vg.Points(2) // between entries: the names must not touch
	seen := map[string]bool{}
	addLegend := func(name string, c color.Color) {
		if !seen[name] {
			seen[name] = true
			plt.Legend.Add(name, swatch{c})
		}
	}
	for _, ph := range []string{"cold", "capture", "replay"} {
		if p.JITCalls()[ph] > 0 {
			addLegend("JIT "+ph, jitColors[ph])
		}
	}
	phases := p.Phases()
	for k := tensor.EventGraph; k <= tensor.EventSync; k++ {
		if _, ok := phases[k]; ok {
			name := k.String()
			if k == tensor.EventSync {
				name = "sync wait"
			}
			addLegend(name, hostColors[k])
		}
	}
	for i, name := range legendKernels {
		addLegend(name, kernelColors[i])
	}
	if len(p.KernelTable()) > len(kernelColors) {
		addLegend("other kernels", okGrey)
	}
	return plt, nil
}

// TimelineSize is the size of one timeline panel of p.
func TimelineSize(p *profile.Profile) (w, h vg.Length) {
	rows := len(p.Lanes()) + 2
	return TimelineWidth, timelineTop + timelineRow*vg.Length(rows)
}

// WarmWindow is the part of p after its cold start, when the cold start
// (compiling, the JIT's cold and capture calls) takes most of the wall
// time and would squeeze the warm calls into a sliver: from the first JIT
// replay (or the end of the last compile) to the end. ok is false when the
// whole profile reads well on its own.
func WarmWindow(p *profile.Profile) (from, to time.Duration, ok bool) {
	wall := p.Overlap().Wall
	from = -1
	for _, e := range p.Events {
		if e.Kind == tensor.EventJIT && e.Name == "replay" && (from < 0 || e.Start < from) {
			from = e.Start
		}
	}
	if from < 0 {
		for _, e := range p.Events {
			if e.Kind == tensor.EventCompile && e.Detail != "memory cache" {
				from = max(from, e.End)
			}
		}
	}
	if from <= 0 || float64(from) < 0.3*float64(wall) {
		return 0, wall, false
	}
	for _, e := range p.Events {
		if e.Kind == tensor.EventKernel && e.Start >= from {
			return from, wall, true
		}
	}
	return 0, wall, false
}

// RenderTimeline renders p's timeline in format f: the whole profile and,
// when its cold start dominates (WarmWindow), a second panel below zoomed
// to the warm calls.
func RenderTimeline(p *profile.Profile, f Format) ([]byte, error) {
	full, err := Timeline(p)
	if err != nil {
		return nil, err
	}
	panels := []*plot.Plot{full}
	if from, to, ok := WarmWindow(p); ok {
		warm, err := TimelineWindow(p, from, to)
		if err != nil {
			return nil, err
		}
		panels = append(panels, warm)
	}
	w, h := TimelineSize(p)
	return renderColumn(f, w, h, panels...)
}

// renderColumn renders plots one above the other, each w × h, legends
// beside their data.
func renderColumn(f Format, w, h vg.Length, ps ...*plot.Plot) ([]byte, error) {
	if err := checkFormat(f); err != nil {
		return nil, err
	}
	c, err := draw.NewFormattedCanvas(w, h*vg.Length(len(ps)), string(f))
	if err != nil {
		return nil, fmt.Errorf("plotting: %w", err)
	}
	pad := vg.Millimeter * 2
	tiles := draw.Tiles{Rows: len(ps), Cols: 1, PadY: vg.Millimeter * 4, PadTop: pad, PadBottom: pad, PadLeft: pad, PadRight: pad}
	dc := draw.New(c)
	for i, p := range ps {
		drawBesideLegend(p, tiles.At(dc, 0, i))
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plotting: render %s: %w", f, err)
	}
	return buf.Bytes(), nil
}

func timelineTitle(p *profile.Profile, o profile.Overlap, dense []string) string {
	label := p.Label
	if l := []rune(label); len(l) > 48 {
		label = string(append(l[:47], '…'))
	}
	if label != "" {
		label += ": "
	}
	t := fmt.Sprintf("%stimeline of %d kernels in %s", label, p.Kernels(), timing.FormatDuration(float64(o.Wall), 3))
	if p.Debug >= 2 {
		t += fmt.Sprintf(" (DEBUG=%d: forced waits)", p.Debug)
	}
	t += fmt.Sprintf("\ndevice busy %.0f%% of wall · %.0f%% of host work ran while a device was busy",
		100*o.DeviceUtilization(), 100*o.HostHidden())
	if c, n := p.Compiling(); o.Wall > 0 && float64(c) > profile.CompileDominates*float64(o.Wall) {
		t += fmt.Sprintf(" · compiling %d kernels: %.0f%% of wall", n, 100*float64(c)/float64(o.Wall))
	}
	if len(dense) > 0 {
		t += "\naggregated (bar height = busy share of each column): "
		for i, d := range dense {
			if i > 0 {
				t += ", "
			}
			t += d
		}
	}
	return t
}

// aggregate bins a dense row's spans into timelineBins columns.
func aggregate(ss []span, xMin, xMax float64, row int) []span {
	if xMax <= xMin {
		return ss
	}
	w := (xMax - xMin) / timelineBins
	type bin struct {
		busy  float64
		byKey map[string]float64
		col   map[string]color.Color
	}
	bins := make([]bin, timelineBins)
	for _, s := range ss {
		for b := max(int((s.x0-xMin)/w), 0); b < timelineBins && xMin+float64(b)*w < s.x1; b++ {
			lo, hi := max(s.x0, xMin+float64(b)*w), min(s.x1, xMin+float64(b+1)*w)
			if hi <= lo {
				continue
			}
			if bins[b].byKey == nil {
				bins[b].byKey, bins[b].col = map[string]float64{}, map[string]color.Color{}
			}
			bins[b].busy += hi - lo
			bins[b].byKey[s.key] += hi - lo
			bins[b].col[s.key] = s.c
		}
	}
	var out []span
	for i, b := range bins {
		if b.busy <= 0 {
			continue
		}
		best, bestT := "", -1.0
		for k, t := range b.byKey {
			if t > bestT || t == bestT && k < best {
				best, bestT = k, t
			}
		}
		out = append(out, span{x0: xMin + float64(i)*w, x1: xMin + float64(i+1)*w, row: row, key: best, c: b.col[best],
			frac: max(min(b.busy/w, 1), 0.04)})
	}
	return out
}

// copyColor draws the copies on a device's transfers lane: black, as the
// host's transfer spans.
var copyColor = color.Black

// laneName labels a device lane: "device CPU", "CL transfers", and a
// device drawn by its own clock "device CL (own clock)".
func laneName(lane string, ownClock bool) string {
	switch {
	case strings.HasSuffix(lane, profile.TransfersSuffix):
		return lane
	case ownClock:
		return "device " + lane + " (own clock)"
	}
	return "device " + lane
}
