package viz

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// The summary speaks the timing text's units (MFLOP, kB) and keeps every
// line within the width Notebook 6 shows, however long the kernel's
// reason or its list of fused ops.
func TestText(t *testing.T) {
	x := tensor.Rand(256, 256).Realize()
	w := tensor.Rand(256, 256).Realize()
	p := x.Matmul(w).Relu().Mul(0.5).Plan()
	p.Title = "x.Matmul(w).Relu().Mul(0.5): " + p.Title
	text := Text(p)
	for _, want := range []string{": 2 kernels\n", "  kernel 1  R_256_256_r256 on CPU, shape [256 256 256]\n", "fuses: ", "why a kernel: a reduce",
		"estimated 33.6 MFLOP, 786 kB per launch"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	for i, l := range strings.Split(text, "\n") {
		if n := len([]rune(l)); n > textCols {
			t.Errorf("line %d is %d characters wide (limit %d): %q", i+1, n, textCols, l)
		}
	}
}

// The drawing is well-formed SVG with a cluster per kernel; no two boxes
// (kernels, and nodes outside them) overlap, every node sits inside its
// kernel's box, and no two nodes overlap.
func TestSVGLayout(t *testing.T) {
	x := tensor.Rand(64, 64).Realize()
	w := tensor.Rand(64, 64).Realize()
	for name, p := range map[string]*tensor.Plan{
		"matmul":    x.Matmul(w).Relu().Mul(0.5).Plan(),
		"4 kernels": x.Sub(x.Sum(1).Div(16)).Exp().Add(w.Max(0)).Plan(),
		"realized":  x.Plan(),
	} {
		svg, err := SVG(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(svg, new(struct{})); err != nil {
			t.Errorf("%s: not XML: %v", name, err)
		}
		if n := strings.Count(string(svg), `<g class="cluster"`); n != len(p.Kernels) {
			t.Errorf("%s: %d clusters, %d kernels", name, n, len(p.Kernels))
		}
		l := place(p)
		overlap := func(ax, ay, aw, ah, bx, by, bw, bh float64) bool {
			return ax < bx+bw && bx < ax+aw && ay < by+bh && by < ay+ah
		}
		for i, a := range l.groups {
			for _, b := range l.groups[i+1:] {
				if overlap(a.x, a.y, a.w, a.h, b.x, b.y, b.w, b.h) {
					t.Errorf("%s: boxes of kernels %d and %d overlap", name, a.kernel, b.kernel)
				}
			}
		}
		for i, a := range l.nodes {
			g := l.groups[a.group]
			if a.x < g.x || a.y < g.y || a.x+a.w > g.x+g.w+0.01 || a.y+a.h > g.y+g.h+0.01 {
				t.Errorf("%s: node %q is outside its box", name, a.Label)
			}
			if a.x < 0 || a.y < 0 || a.x+a.w > l.w || a.y+a.h > l.h {
				t.Errorf("%s: node %q is outside the drawing", name, a.Label)
			}
			for _, b := range l.nodes[i+1:] {
				if overlap(a.x, a.y, a.w, a.h, b.x, b.y, b.w, b.h) {
					t.Errorf("%s: nodes %q and %q overlap", name, a.Label, b.Label)
				}
			}
		}
	}
}
