// Package viz draws a tensor plan (tensor.Plan: the lazy graph, the
// kernels the scheduler makes of it, or a JIT's captured kernels) as an
// SVG graph, laid out by tick itself (layout.go, svg.go: no Graphviz to
// install or compile), and as HTML with each kernel's IR and generated
// source in collapsible sections; DOT returns the Graphviz source too.
// The kernels are clusters: the nodes inside a cluster are fused into that
// kernel; its label says why it is a kernel of its own.
package viz

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/tick-kernel/tick/internal/units"
	"github.com/tick-kernel/tick/runtime/tensor"
)

// Cluster fill colours, in kernel order (light tints of the Okabe–Ito
// palette, so node text stays readable).
var clusterColors = []string{"#D6EAF5", "#FCE8C3", "#CDEBE1", "#F4DCE8", "#FBF6C8", "#F6D7C3", "#E3E3E3"}

// DOT returns the Graphviz source of p.
func DOT(p *tensor.Plan) string {
	var b strings.Builder
	b.WriteString("digraph plan {\n")
	b.WriteString("  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, nodesep=0.25, ranksep=0.35, labelloc=t];\n")
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=10, margin=\"0.08,0.04\"];\n")
	b.WriteString("  edge [color=\"#555555\", arrowsize=0.6];\n")
	fmt.Fprintf(&b, "  label=%s;\n", quote(p.Title))
	inKernel := map[int][]tensor.GraphNode{}
	for _, n := range p.Nodes {
		if n.Kernel >= 0 {
			inKernel[n.Kernel] = append(inKernel[n.Kernel], n)
		}
	}
	for ki, k := range p.Kernels {
		fmt.Fprintf(&b, "  subgraph cluster_k%d {\n", ki)
		fmt.Fprintf(&b, "    style=\"rounded,filled\"; fillcolor=%q; color=\"#888888\"; fontsize=10;\n", clusterColors[ki%len(clusterColors)])
		fmt.Fprintf(&b, "    label=%s;\n", quote(fmt.Sprintf("kernel %d: %s on %s\n%s", ki+1, k.Name, k.Device, wrap(k.Reason, 60))))
		for _, n := range inKernel[ki] {
			writeNode(&b, n, "    ")
		}
		b.WriteString("  }\n")
	}
	for _, n := range p.Nodes {
		if n.Kernel < 0 {
			writeNode(&b, n, "  ")
		}
	}
	for _, n := range p.Nodes {
		for _, s := range n.Srcs {
			fmt.Fprintf(&b, "  n%d -> n%d;\n", s, n.ID)
		}
	}
	if p.Ordered { // stack the kernels in launch order: a step reads top to bottom
		prev := -1
		for ki := range p.Kernels {
			if ns := inKernel[ki]; len(ns) > 0 {
				if prev >= 0 {
					fmt.Fprintf(&b, "  n%d -> n%d [style=invis, weight=20];\n", prev, ns[0].ID)
				}
				prev = ns[len(ns)-1].ID
			}
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func writeNode(b *strings.Builder, n tensor.GraphNode, indent string) {
	label := fmt.Sprintf("%s\n%v %s", n.Label, n.Shape, n.DType)
	if n.Kind == "buffer" {
		label += " on " + n.Device
	}
	if len(n.Also) > 0 {
		var ks []string
		for _, k := range n.Also {
			ks = append(ks, fmt.Sprint(k+1))
		}
		label += "\n(recomputed in kernel " + strings.Join(ks, ", ") + ")"
	}
	attrs := ""
	switch n.Kind {
	case "buffer":
		attrs = `, shape=cylinder, style=filled, fillcolor="#EEEEEE"`
	case "const":
		attrs = `, style="rounded,filled,dashed"`
	case "view":
		attrs = `, shape=parallelogram, style=filled, fillcolor="#FFFFFF"`
	case "reduce":
		attrs = `, penwidth=2`
	case "copy":
		attrs = `, shape=cds, style=filled, fillcolor="#E6F2FA"`
	}
	fmt.Fprintf(b, "%sn%d [label=%s%s];\n", indent, n.ID, quote(label), attrs)
}

// quote is a DOT string literal.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// wrap breaks s into lines of about width characters at spaces.
func wrap(s string, width int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// SVG lays p out (layout.go: kernels as boxes of their fused nodes, in
// rows by depth) and returns it as SVG. The DOT source (DOT) is still
// published beside it, for Graphviz users.
func SVG(p *tensor.Plan) ([]byte, error) {
	return place(p).svg(), nil
}

// textCols is the widest line Text writes: what Notebook 6 shows in an
// output area without cutting or wrapping (the timing text's width).
const textCols = 100

// Text summarizes p for consoles: each kernel, what it fuses, why it is a
// kernel and its estimated work, in lines of at most textCols characters
// (long items continue under themselves).
func Text(p *tensor.Plan) string {
	var b strings.Builder
	kernels := fmt.Sprintf("%d kernels", len(p.Kernels))
	if len(p.Kernels) == 1 {
		kernels = "1 kernel"
	}
	item(&b, "", "  ", p.Title+": "+kernels)
	const indent = "            "
	for ki, k := range p.Kernels {
		var ops []string
		for _, n := range p.Nodes {
			if n.Kernel == ki && n.Kind != "buffer" {
				ops = append(ops, n.Label)
			}
		}
		item(&b, fmt.Sprintf("  kernel %-3d", ki+1), indent, fmt.Sprintf("%s on %s, shape %v", k.Name, k.Device, k.Shape))
		item(&b, indent, indent+"  ", "fuses: "+strings.Join(ops, ", "))
		item(&b, indent, indent+"  ", "why a kernel: "+k.Reason)
		item(&b, indent, indent+"  ", fmt.Sprintf("estimated %s, %s per launch",
			units.Quantity(float64(k.FLOPs), "FLOP"), units.Quantity(float64(k.Bytes), "B")))
	}
	if len(p.Kernels) == 0 {
		item(&b, "  ", "  ", "nothing to run: the tensor is realized (or the JIT has not captured yet)")
	}
	return strings.TrimRight(b.String(), "\n")
}

// item writes s after first, wrapped at spaces to textCols, its further
// lines after indent (a word longer than a line stays whole).
func item(b *strings.Builder, first, indent, s string) {
	lines := strings.Split(wrap(s, textCols-len(first)), "\n")
	b.WriteString(first + lines[0] + "\n")
	if len(lines) > 1 {
		for _, l := range strings.Split(wrap(strings.Join(lines[1:], " "), textCols-len(indent)), "\n") {
			b.WriteString(indent + l + "\n")
		}
	}
}

// HTML is the graph's SVG inline, scaled down to the output's width when
// wider, then the summary (Text) and one collapsible section per kernel
// with its IR and generated source. The graph comes first: Notebook 6
// puts a tall output in a scrolled box, and the graph is what the magic
// is for.
func HTML(p *tensor.Plan, svg []byte) string {
	var b strings.Builder
	b.WriteString(`<div class="tick-viz">`)
	fmt.Fprintf(&b, `<div>%s</div>`, bytes.Replace(svg, []byte("<svg "), []byte(`<svg style="max-width:100%;height:auto" `), 1))
	fmt.Fprintf(&b, "<pre>%s</pre>", html.EscapeString(Text(p)))
	for ki, k := range p.Kernels {
		fmt.Fprintf(&b, "<details><summary>kernel %d: %s on %s — IR and generated source</summary>", ki+1, html.EscapeString(k.Name), html.EscapeString(k.Device))
		fmt.Fprintf(&b, "<p>IR (the kernel's key):</p><pre>%s</pre>", html.EscapeString(k.IR))
		switch {
		case k.Source != "":
			fmt.Fprintf(&b, "<p>generated source for %s:</p><pre>%s</pre>", html.EscapeString(k.Device), html.EscapeString(k.Source))
		case k.SourceNote != "":
			fmt.Fprintf(&b, "<p>%s</p>", html.EscapeString(k.SourceNote))
		}
		b.WriteString("</details>")
	}
	b.WriteString("</div>")
	return b.String()
}
