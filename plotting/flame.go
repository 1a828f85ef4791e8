package plotting

import (
	"fmt"
	"html"
	"strings"

	"github.com/tick-kernel/tick/profile"
)

// Flame graph geometry (SVG user units = CSS pixels).
const (
	flameWidth    = 1000.0
	flameRow      = 17.0
	flameMaxDepth = 48
	flameCharW    = 6.4 // average width of an 11px character
)

// FlameGraph draws a profile tree as an SVG icicle chart: the root on top,
// callees below their callers, each frame as wide as its share of the
// total. Colours say whose code a frame is: tick's runtime (blue), the
// interpreted cell code (purple), C kernels and cgo (vermilion), Go's
// runtime (grey), the rest of Go (orange). Each frame has a tooltip with
// its value; frames narrower than half a pixel are left out. unit names
// the value ("CPU time", "allocated bytes"); format renders a value.
func FlameGraph(t *profile.Node, title, unit string, format func(int64) string) []byte {
	depth := treeDepth(t, 0)
	h := 40 + flameRow*float64(min(depth, flameMaxDepth)+1) + 24
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="Liberation Sans, Arial, sans-serif" font-size="11">`,
		flameWidth, h, flameWidth, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`)
	fmt.Fprintf(&b, `<text x="%.0f" y="18" font-size="14" text-anchor="middle">%s</text>`, flameWidth/2, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%.0f" y="34" font-size="11" text-anchor="middle" fill="#555">width = share of %s · hover a frame for its value · blue tick runtime · purple interpreted cell code · vermilion C kernels/cgo · grey Go runtime</text>`,
		flameWidth/2, html.EscapeString(unit))
	if t.Value > 0 {
		drawFrame(&b, t, 0, flameWidth, 0, t.Value, unit, format)
	}
	if depth > flameMaxDepth {
		fmt.Fprintf(&b, `<text x="4" y="%.0f" fill="#555">stacks deeper than %d frames are cut</text>`, h-8, flameMaxDepth)
	}
	b.WriteString("</svg>")
	return []byte(b.String())
}

func treeDepth(n *profile.Node, d int) int {
	m := d
	for _, c := range n.Children {
		m = max(m, treeDepth(c, d+1))
	}
	return m
}

func drawFrame(b *strings.Builder, n *profile.Node, x, w float64, depth int, total int64, unit string, format func(int64) string) {
	if w < 0.5 || depth > flameMaxDepth {
		return
	}
	y := 40 + flameRow*float64(depth)
	share := 100 * float64(n.Value) / float64(total)
	fmt.Fprintf(b, `<g><title>%s — %s (%.1f%% of %s)</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s" stroke="#fff" stroke-width="0.5"/>`,
		html.EscapeString(n.Name), html.EscapeString(format(n.Value)), share, html.EscapeString(unit), x, y, w, flameRow-1, frameColor(n.Name, depth))
	if chars := int((w - 6) / flameCharW); chars >= 3 {
		label := shortFrame(n.Name)
		if r := []rune(label); len(r) > chars {
			label = string(r[:chars-1]) + "…"
		}
		fmt.Fprintf(b, `<text x="%.2f" y="%.1f" fill="%s">%s</text>`, x+3, y+12, textColor(n.Name, depth), html.EscapeString(label))
	}
	b.WriteString("</g>")
	cx := x
	for _, c := range n.Children {
		cw := w * float64(c.Value) / float64(n.Value)
		drawFrame(b, c, cx, cw, depth+1, total, unit, format)
		cx += cw
	}
}

// shortFrame drops the module path of tick's own packages, so frames read
// "runtime/tensor.(*Dev).run".
func shortFrame(name string) string {
	return strings.TrimPrefix(name, "github.com/tick-kernel/tick/")
}

func frameColor(name string, depth int) string {
	switch {
	case depth <= 1:
		return "#555555"
	case name == profile.InterpretedFrame:
		return "#CC79A7"
	case strings.Contains(name, "tick-kernel/tick/"):
		return "#0072B2"
	case strings.HasPrefix(name, "_Cfunc_") || strings.Contains(name, "cgocall") || strings.HasPrefix(name, "runtime.asmcgocall"):
		return "#D55E00"
	case strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "internal/") || strings.HasPrefix(name, "sync."):
		return "#BBBBBB"
	}
	return "#E69F00"
}

func textColor(name string, depth int) string {
	switch frameColor(name, depth) {
	case "#555555", "#0072B2", "#D55E00":
		return "#ffffff"
	}
	return "#000000"
}
