package viz

import (
	"fmt"
	"html"
	"strings"
)

// svg draws a layout: the title, each kernel's cluster (a tinted rounded
// box with its label), the nodes (their shape by kind: a buffer is a
// cylinder, a view a parallelogram, a constant dashed, a reduce bold) and
// the edges as arrows. Elements carry Graphviz's class names (graph,
// cluster, node, edge) so pages and tests find them as before.
func (l *layout) svg() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" `+
		`font-family="Helvetica,Arial,'Liberation Sans',sans-serif" font-size="%.0f">`, l.w, l.h, l.w, l.h, fontSize)
	b.WriteString(`<defs><marker id="tick-viz-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">` +
		`<path d="M0,0 L10,5 L0,10 z" fill="#555555"/></marker></defs>`)
	fmt.Fprintf(&b, `<g class="graph"><title>%s</title>`, esc(l.title))
	text(&b, l.w/2, 16, []string{l.title})
	for _, g := range l.groups {
		if g.kernel < 0 {
			continue
		}
		fmt.Fprintf(&b, `<g class="cluster" id="cluster_k%d"><title>%s</title>`, g.kernel, esc(g.label[0]))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="8" fill="%s" stroke="#888888"/>`,
			g.x, g.y, g.w, g.h, clusterColors[g.kernel%len(clusterColors)])
		b.WriteString("</g>")
	}
	idx := map[int]*node{}
	for _, n := range l.nodes {
		idx[n.ID] = n
	}
	for _, n := range l.nodes {
		for _, s := range n.Srcs {
			src := idx[s]
			if src == nil {
				continue
			}
			// A curve leaving and entering vertically, as dot draws them.
			x0, y0, x1, y1 := src.x+src.w/2, src.y+src.h, n.x+n.w/2, n.y
			dy := max((y1-y0)/2, 10)
			fmt.Fprintf(&b, `<g class="edge"><path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" stroke="#555555" fill="none" marker-end="url(#tick-viz-arrow)"/></g>`,
				x0, y0, x0, y0+dy, x1, y1-dy, x1, y1)
		}
	}
	// The kernels' labels over the edges that cross them, each letter
	// edged in its box's colour so that it stays readable.
	for _, g := range l.groups {
		if g.kernel >= 0 {
			fmt.Fprintf(&b, `<g class="cluster-label" stroke="%s" stroke-width="3" paint-order="stroke">`, clusterColors[g.kernel%len(clusterColors)])
			text(&b, g.x+g.w/2, g.y+clusterPad+lineHeight*0.75, g.label)
			b.WriteString("</g>")
		}
	}
	for _, n := range l.nodes {
		fmt.Fprintf(&b, `<g class="node" id="n%d"><title>%s</title>`, n.ID, esc(strings.Join(n.lines, " ")))
		shape(&b, n)
		text(&b, n.x+n.w/2, n.y+nodePadY+lineHeight*0.75, n.lines)
		b.WriteString("</g>")
	}
	b.WriteString("</g></svg>")
	return []byte(b.String())
}

// shape draws n's outline by its kind.
func shape(b *strings.Builder, n *node) {
	x, y, w, h := n.x, n.y, n.w, n.h
	switch n.Kind {
	case "buffer": // a cylinder: the body, then the top ellipse
		ry := 5.0
		fmt.Fprintf(b, `<path d="M%.1f,%.1f L%.1f,%.1f A%.1f,%.1f 0 0 0 %.1f,%.1f L%.1f,%.1f A%.1f,%.1f 0 0 0 %.1f,%.1f z" fill="#EEEEEE" stroke="#333333"/>`,
			x, y+ry, x, y+h-ry, w/2, ry, x+w, y+h-ry, x+w, y+ry, w/2, ry, x, y+ry)
		fmt.Fprintf(b, `<ellipse cx="%.1f" cy="%.1f" rx="%.1f" ry="%.1f" fill="#EEEEEE" stroke="#333333"/>`, x+w/2, y+ry, w/2, ry)
	case "view": // a parallelogram inside the box (place widened it by viewSlant)
		fmt.Fprintf(b, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="#FFFFFF" stroke="#333333"/>`,
			x+viewSlant, y, x+w, y, x+w-viewSlant, y+h, x, y+h)
	default:
		attrs := `fill="#FFFFFF" stroke="#333333"`
		switch n.Kind {
		case "const":
			attrs += ` stroke-dasharray="4,3"`
		case "reduce":
			attrs += ` stroke-width="2"`
		}
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="8" %s/>`, x, y, w, h, attrs)
	}
}

// text writes lines centred on x, the first baseline at y.
func text(b *strings.Builder, x, y float64, lines []string) {
	for i, l := range lines {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#000000">%s</text>`, x, y+float64(i)*lineHeight, esc(l))
	}
}

func esc(s string) string { return html.EscapeString(s) }
