package viz

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// The layout of a plan, in two levels. Each kernel is a box (a cluster)
// holding the nodes fused into it, laid out in rows by their depth inside
// the kernel; every node outside a kernel (a realized buffer) is a box of
// its own. The boxes are then placed in rows by their depth in the graph
// of boxes (a box below every box it reads), side by side within a row,
// ordered by where what they read sits. Edges go from the bottom of a node
// to the top of the node that reads it. Boxes never overlap and a
// kernel's nodes never leave its box: the drawing is simpler than
// Graphviz's dot, and it builds with tick (no WebAssembly runtime to
// compile: docs/benchmarks.md, "Building tick").

// Sizes, in CSS pixels.
const (
	fontSize     = 11.0
	charWidth    = 6.3 // an average character of an 11px sans-serif
	lineHeight   = 14.0
	nodePadX     = 10.0
	nodePadY     = 6.0
	nodeGap      = 18.0 // between nodes of a row
	rowGap       = 28.0 // between rows of nodes inside a kernel
	clusterPad   = 12.0
	clusterGap   = 26.0 // between boxes of a row
	clusterRowGp = 40.0 // between rows of boxes
	titleHeight  = 24.0
	reasonWidth  = 60 // characters per line of a kernel's reason
	viewSlant    = 10 // a view's parallelogram leans this much
)

// node is a laid-out graph node: its box at (x, y) of size (w, h).
type node struct {
	tensor.GraphNode
	lines      []string
	x, y, w, h float64
	group      int
	row        int // depth inside its group
}

// group is a kernel's cluster, or a lone node outside every kernel.
type group struct {
	kernel     int // index in Plan.Kernels; -1 for a lone node
	nodes      []int
	label      []string
	x, y, w, h float64
	rank       int
}

// layout is a placed plan.
type layout struct {
	title  string
	nodes  []*node
	groups []*group
	w, h   float64
}

func textWidth(lines []string) float64 {
	w := 0.0
	for _, l := range lines {
		w = max(w, float64(len([]rune(l)))*charWidth)
	}
	return w
}

// nodeLines is what a node says: its op, shape and dtype, where a buffer
// lives, the other kernels that recompute it.
func nodeLines(n tensor.GraphNode) []string {
	lines := []string{n.Label, fmt.Sprintf("%v %s", n.Shape, n.DType)}
	if n.Kind == "buffer" {
		lines[1] += " on " + n.Device
	}
	if len(n.Also) > 0 {
		var ks []string
		for _, k := range n.Also {
			ks = append(ks, fmt.Sprint(k+1))
		}
		lines = append(lines, "(recomputed in kernel "+strings.Join(ks, ", ")+")")
	}
	return lines
}

// place lays p out.
func place(p *tensor.Plan) *layout {
	l := &layout{title: p.Title}
	byKernel := map[int]int{}
	for _, gn := range p.Nodes {
		n := &node{GraphNode: gn, lines: nodeLines(gn)}
		n.w, n.h = textWidth(n.lines)+2*nodePadX, float64(len(n.lines))*lineHeight+2*nodePadY
		if gn.Kind == "view" {
			n.w += 2 * viewSlant
		}
		if gn.Kernel >= 0 && gn.Kernel < len(p.Kernels) {
			g, ok := byKernel[gn.Kernel]
			if !ok {
				g = len(l.groups)
				byKernel[gn.Kernel] = g
				k := p.Kernels[gn.Kernel]
				label := []string{fmt.Sprintf("kernel %d: %s on %s", gn.Kernel+1, k.Name, k.Device)}
				label = append(label, strings.Split(wrap(k.Reason, reasonWidth), "\n")...)
				l.groups = append(l.groups, &group{kernel: gn.Kernel, label: label})
			}
			n.group = g
		} else {
			n.group = len(l.groups)
			l.groups = append(l.groups, &group{kernel: -1})
		}
		l.groups[n.group].nodes = append(l.groups[n.group].nodes, len(l.nodes))
		l.nodes = append(l.nodes, n)
	}
	// Node ids are in an order where a node's sources come first (the plan
	// is built depth first), so one pass in id order gives depths.
	idx := map[int]int{}
	for i, n := range l.nodes {
		idx[n.ID] = i
	}
	for _, n := range l.nodes {
		for _, s := range n.Srcs {
			src := l.nodes[idx[s]]
			if src.group == n.group {
				n.row = max(n.row, src.row+1)
			}
		}
	}
	// Group ranks: below every group they read (repeated until settled;
	// the graph of groups has no cycles, so at most one pass per group).
	for range l.groups {
		changed := false
		for _, n := range l.nodes {
			for _, s := range n.Srcs {
				src := l.nodes[idx[s]]
				if src.group != n.group && l.groups[n.group].rank < l.groups[src.group].rank+1 {
					l.groups[n.group].rank = l.groups[src.group].rank + 1
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	for _, g := range l.groups {
		l.layoutGroup(g, idx)
	}
	l.placeGroups(idx)
	return l
}

// layoutGroup places g's nodes relative to g's corner and sizes g.
func (l *layout) layoutGroup(g *group, idx map[int]int) {
	if g.kernel < 0 {
		n := l.nodes[g.nodes[0]]
		g.w, g.h = n.w, n.h
		return
	}
	rows := map[int][]*node{}
	depth := 0
	for _, i := range g.nodes {
		n := l.nodes[i]
		rows[n.row] = append(rows[n.row], n)
		depth = max(depth, n.row)
	}
	top := clusterPad + float64(len(g.label))*lineHeight + 6
	width := textWidth(g.label)
	// First the rows' widths, then each row centred in the widest; a row
	// in the order of the centres of its nodes' sources above it.
	y := top
	for r := 0; r <= depth; r++ {
		ns := rows[r]
		bary := func(n *node) float64 {
			sum, k := 0.0, 0
			for _, s := range n.Srcs {
				if src := l.nodes[idx[s]]; src.group == n.group && src.row < n.row {
					sum += src.x + src.w/2
					k++
				}
			}
			if k == 0 {
				return float64(n.ID)
			}
			return sum / float64(k)
		}
		sort.SliceStable(ns, func(i, j int) bool { return bary(ns[i]) < bary(ns[j]) })
		x, rowH := 0.0, 0.0
		for _, n := range ns {
			n.x, n.y = x, y
			x += n.w + nodeGap
			rowH = max(rowH, n.h)
		}
		width = max(width, x-nodeGap)
		y += rowH + rowGap
	}
	g.w = width + 2*clusterPad
	g.h = y - rowGap + clusterPad
	for r := 0; r <= depth; r++ {
		ns := rows[r]
		if len(ns) == 0 {
			continue
		}
		last := ns[len(ns)-1]
		shift := clusterPad + (width-(last.x+last.w))/2
		for _, n := range ns {
			n.x += shift
		}
	}
}

// placeGroups places the groups in rows by rank, each row centred, and
// turns the nodes' positions absolute.
func (l *layout) placeGroups(idx map[int]int) {
	ranks := map[int][]*group{}
	maxRank := 0
	for _, g := range l.groups {
		ranks[g.rank] = append(ranks[g.rank], g)
		maxRank = max(maxRank, g.rank)
	}
	// The x of a group's sources, once placed: rows are ordered by it.
	centre := func(g *group) float64 {
		sum, k := 0.0, 0
		for _, i := range g.nodes {
			for _, s := range l.nodes[i].Srcs {
				if src := l.nodes[idx[s]]; src.group != l.nodes[i].group {
					sg := l.groups[src.group]
					sum += sg.x + sg.w/2
					k++
				}
			}
		}
		if k == 0 {
			return float64(g.nodes[0])
		}
		return sum / float64(k)
	}
	var rowW []float64
	y := titleHeight
	for r := 0; r <= maxRank; r++ {
		gs := ranks[r]
		sort.SliceStable(gs, func(i, j int) bool { return centre(gs[i]) < centre(gs[j]) })
		x, rowH := 0.0, 0.0
		for _, g := range gs {
			g.x, g.y = x, y
			x += g.w + clusterGap
			rowH = max(rowH, g.h)
		}
		rowW = append(rowW, max(x-clusterGap, 0))
		y += rowH + clusterRowGp
	}
	l.w = max(textWidth([]string{l.title}), 0)
	for _, w := range rowW {
		l.w = max(l.w, w)
	}
	l.w += 2 * clusterPad
	l.h = y - clusterRowGp + clusterPad
	for r := 0; r <= maxRank; r++ {
		shift := clusterPad + (l.w-2*clusterPad-rowW[r])/2
		for _, g := range ranks[r] {
			g.x += shift
		}
	}
	for _, g := range l.groups {
		for _, i := range g.nodes {
			n := l.nodes[i]
			if g.kernel < 0 {
				n.x, n.y = g.x, g.y
				continue
			}
			n.x += g.x
			n.y += g.y
		}
	}
}
