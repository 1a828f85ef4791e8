package tensor

// Inspection for %viz: how Realize would turn a tensor's lazy graph into
// kernels (Tensor.Plan), without allocating device memory or running
// anything, and the kernels a JIT captured (JITFunc.Plan). Both are plain
// data: the viz package draws them.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/runtime/device"
)

// GraphNode is one node of a plan's graph.
type GraphNode struct {
	ID     int
	Kind   string // "buffer" (realized data), "const", "op" (elementwise), "reduce", "view", "load" and "store" (JIT IR), "copy" (a JIT's captured transfer)
	Label  string // what to print: "mul", "sum over axes [1]", "permute", "buffer", ...
	Shape  []int
	DType  DType
	Device string
	Srcs   []int // ids of the nodes it reads
	// Kernel is the index in Plan.Kernels of the kernel this node is
	// computed in (fused into), or -1 for realized buffers, and for nodes
	// of the graph that are not needed.
	Kernel int
	// Also lists other kernels that recompute this node (an elementwise
	// node read by two kernels is inlined into both).
	Also []int
}

// PlannedKernel is one kernel of a plan.
type PlannedKernel struct {
	Name   string
	Device string
	Shape  []int  // iteration space
	Reduce string // "none", "sum", "max", "min"
	Output int    // the id of the node it computes
	// Reason says why this node is a kernel boundary (realize target,
	// reduce, read through a view, JIT capture).
	Reason string
	IR     string // the kernel's Key: tick's canonical IR text
	// Source is the generated source for the device's backend ("" when it
	// is not available without compiling; SourceNote then says why).
	Source, SourceNote string
	FLOPs, Bytes       int64 // estimates (Kernel.FLOPs, Kernel.Bytes)
	Cached             bool  // the device has already compiled it
	// Global and Local are the work sizes the device's backend chose for
	// the compiled kernel (host devices: output elements, split in whole
	// rows of Local; OpenCL: work items and work-group size); zero when it
	// is not compiled yet.
	Global, Local [3]int
	// Region is the Region a JIT's captured kernel was scheduled in
	// ("forward", "backward", "optimizer"; "" outside any).
	Region string
}

// Plan is a graph and the kernels it becomes.
type Plan struct {
	Title   string
	Nodes   []GraphNode
	Kernels []PlannedKernel
	Root    int // the id of the node the plan is for
	// Ordered says the kernels run one after the other in the order listed
	// (a JIT's captured launches): a drawing may stack them in that order.
	Ordered bool
}

// Plan returns how Realize would schedule t: its lazy graph (ops, shapes,
// dtypes, devices) and the kernels the scheduler makes of it, with which
// nodes each fuses and why each is a kernel. Nothing is computed, no
// device memory is allocated and t is not changed; an already realized t
// is a plan of no kernels. Generated source is shown when the backend can
// render it without compiling (CPU's C, GO's closure program) or the
// kernel is already compiled.
func (t *Tensor) Plan() *Plan {
	p := &Plan{Title: fmt.Sprintf("%v %s on %s", t.l.shape, t.l.dtype, t.l.dev.name)}
	ids := map[*lazy]int{}
	var add func(l *lazy) int
	add = func(l *lazy) int {
		if id, ok := ids[l]; ok {
			return id
		}
		srcs := make([]int, len(l.srcs))
		for i, s := range l.srcs {
			srcs[i] = add(s)
		}
		id := len(p.Nodes)
		ids[l] = id
		p.Nodes = append(p.Nodes, GraphNode{ID: id, Kind: lazyKindName(l), Label: lazyLabel(l), Shape: append([]int(nil), l.shape...),
			DType: l.dtype, Device: l.dev.name, Srcs: srcs, Kernel: -1})
		return id
	}
	p.Root = add(t.l)

	// Schedule a copy: the scheduler turns the nodes it realizes into
	// buffers, and t must stay unrealized.
	orig := map[*lazy]*lazy{}
	cp := copyGraph(t.l.base(), map[*lazy]*lazy{}, orig)
	s := &scheduler{dry: true}
	s.realize(cp)
	target := t.l.base()
	viewsOf := map[*lazy]string{} // a base → how a view reads it
	for l := range ids {
		if l.kind == kView {
			viewsOf[l.srcs[0]] = describeView(*l.view, l.srcs[0].shape)
		}
	}
	for ki, it := range s.items {
		root := orig[it.root]
		pk := PlannedKernel{Name: it.k.Name, Device: it.dev.name, Shape: append([]int(nil), it.k.Shape...),
			Reduce: it.k.Reduce.String(), Output: ids[root], Reason: boundaryReason(root, target, t.l, viewsOf[root]),
			IR: it.k.Key(), FLOPs: it.k.FLOPs(), Bytes: it.k.Bytes()}
		pk.Source, pk.SourceNote, pk.Cached = kernelSource(it.dev, it.k)
		if prog := it.dev.cached(it.k); prog != nil {
			pk.Global, pk.Local = prog.Dims().Global, prog.Dims().Local
		}
		p.Kernels = append(p.Kernels, pk)
		p.member(ids[root], ki)
		for c := range it.fused {
			o := orig[c]
			if o.kind == kElem || o.kind == kConst || o.kind == kView {
				p.member(ids[o], ki)
			}
		}
	}
	return p
}

// member records that node id is computed in kernel ki.
func (p *Plan) member(id, ki int) {
	n := &p.Nodes[id]
	switch {
	case n.Kernel < 0:
		n.Kernel = ki
	case n.Kernel != ki:
		for _, a := range n.Also {
			if a == ki {
				return
			}
		}
		n.Also = append(n.Also, ki)
	}
}

// copyGraph deep-copies the graph at l (memo: old → new), recording each
// copy's original in orig. Realized buffers are copied as nodes too: the
// scheduler does not change them, but the copy keeps ids one-to-one.
func copyGraph(l *lazy, memo, orig map[*lazy]*lazy) *lazy {
	if c, ok := memo[l]; ok {
		return c
	}
	c := *l
	c.inl = [3]*lazy{}
	c.srcs = make([]*lazy, len(l.srcs))
	for i, s := range l.srcs {
		c.srcs[i] = copyGraph(s, memo, orig)
	}
	memo[l], orig[&c] = &c, l
	return &c
}

func lazyKindName(l *lazy) string {
	return [...]string{kBuffer: "buffer", kConst: "const", kElem: "op", kReduce: "reduce", kView: "view"}[l.kind]
}

func lazyLabel(l *lazy) string {
	switch l.kind {
	case kBuffer:
		return "buffer"
	case kConst:
		return "const " + strconv.FormatFloat(l.value, 'g', 6, 64)
	case kElem:
		if l.dst != nil {
			return "assign (in place)"
		}
		if l.op == OpCast && len(l.srcs) == 1 && l.srcs[0].dtype == l.dtype {
			return "contiguous copy"
		}
		if l.op == OpCast {
			return "cast to " + l.dtype.String()
		}
		return l.op.String()
	case kReduce:
		return fmt.Sprintf("%s over axes %v", l.rop, l.axes)
	case kView:
		return "view: " + describeView(*l.view, l.srcs[0].shape)
	}
	return "?"
}

// describeView names what a view does to its base: "permute", "pad",
// "broadcast", "shrink", "flip", "reshape" (several, comma-separated).
func describeView(v View, base []int) string {
	var what []string
	if v.Mask != nil {
		what = append(what, "pad (masked)")
	}
	zero, neg, permuted := false, false, false
	last := int(^uint(0) >> 1)
	for d, st := range v.Strides {
		if v.Shape[d] == 1 {
			continue
		}
		switch {
		case st == 0:
			zero = true
		case st < 0:
			neg = true
		default:
			if st > last {
				permuted = true
			}
			last = st
		}
	}
	if zero {
		what = append(what, "broadcast (expand)")
	}
	if neg {
		what = append(what, "flip")
	}
	if permuted {
		what = append(what, "permute (transpose)")
	}
	if v.Offset != 0 || prod(v.Shape) < prod(base) && !zero {
		what = append(what, "shrink (slice)")
	}
	if len(what) == 0 {
		what = append(what, "reshape")
	}
	return strings.Join(what, ", ")
}

// boundaryReason says why root became a kernel of its own instead of being
// fused into the kernel that reads it.
func boundaryReason(root, target, top *lazy, view string) string {
	if root == target {
		if top.kind == kView {
			return "the realize target (the tensor's base; the tensor itself is a view of it)"
		}
		return "the realize target: the tensor asked for"
	}
	if root.kind == kReduce {
		return "a reduce whose result another kernel reads: a kernel folds at most one reduction, at its end"
	}
	if view == "" {
		view = "a view"
	}
	return "read through " + view + ": its consumer reads it at other indices than it is computed at, so it is materialized first"
}

// kernelSource returns the source the device's backend generates for k:
// its compiled program's when cached, else the rendering of a backend that
// can render without compiling (device.Renderer: C for CPU; GO and NULL
// compile cheaply in memory).
func kernelSource(d *Dev, k *Kernel) (src, note string, cached bool) {
	if p := d.cached(k); p != nil {
		return p.Source(), "", true
	}
	if r, ok := d.dev.(device.Renderer); ok {
		src, err := r.Render(k)
		if err != nil {
			return "", "not generated: " + err.Error(), false
		}
		return src, "", false
	}
	return "", "not compiled yet: realize it once to see the " + d.name + " backend's source", false
}

// Plan returns the kernels the JIT captured (on its second call), drawn
// as their IR: each kernel's expression (loads, constants, ops) in its
// cluster, reading and writing the buffers between them — or, for more
// than compactKernels kernels (a training step's), each kernel as one
// node naming its ops, so the drawing stays readable. Before the capture
// there is nothing to draw: the plan has no kernels and its Title says
// which call comes next.
func (j *JITFunc) Plan() *Plan {
	st := j.State()
	p := &Plan{Title: fmt.Sprintf("JIT: %d captured kernels (calls so far %d, next: %s)", len(j.launches), j.calls, st.Phase), Root: -1, Ordered: true}
	bufNode := map[*Buffer]int{}
	inputs := map[*Buffer]int{}
	for i, b := range j.inputs {
		inputs[b] = i
	}
	outputs := map[*Buffer]int{}
	for i, o := range j.outs {
		outputs[o.buf] = i
	}
	state := j.updatedState()
	written := map[*Buffer]bool{} // buffers drawn again as a launch wrote them
	buffer := func(b *Buffer) int {
		if id, ok := bufNode[b]; ok {
			return id
		}
		id := len(p.Nodes)
		label := "buffer"
		if i, ok := inputs[b]; ok {
			label = fmt.Sprintf("JIT input %d", i)
		} else if i, ok := outputs[b]; ok {
			label = fmt.Sprintf("JIT output %d", i)
		} else if upd, ok := state[b]; ok {
			label = "state (read only)"
			if upd {
				label = "state (updated in place)"
			}
		}
		if written[b] {
			label = "new value of " + label
		}
		p.Nodes = append(p.Nodes, GraphNode{ID: id, Kind: "buffer", Label: label, Shape: []int{b.n}, DType: b.dtype, Device: b.dev.name, Kernel: -1})
		bufNode[b] = id
		return id
	}
	// write is the node of b as a launch writes it: a new node when b
	// was read or written before (a parameter updated in place), so the
	// drawing has no cycles and later reads see the new value.
	write := func(b *Buffer) int {
		if _, ok := bufNode[b]; ok {
			delete(bufNode, b)
			written[b] = true
		}
		return buffer(b)
	}
	for ki, cl := range j.launches {
		if cl.l.xfer != nil { // a captured transfer: a node between its buffers
			id := len(p.Nodes)
			p.Nodes = append(p.Nodes, GraphNode{ID: id, Kind: "copy", Label: cl.l.name(), Shape: []int{cl.l.bufs[0].n},
				DType: cl.l.bufs[0].dtype, Device: cl.dev.name, Srcs: []int{buffer(cl.l.bufs[1])}, Kernel: -1})
			out := write(cl.l.bufs[0])
			p.Nodes[out].Srcs = append(p.Nodes[out].Srcs, id)
			continue
		}
		if len(j.launches) > compactKernels {
			p.Kernels = append(p.Kernels, capturedKernel(ki, cl, compactKernel(p, ki, cl, buffer, write)))
			continue
		}
		k := cl.l.k
		ids := map[*Node]int{}
		var add func(n *Node) int
		add = func(n *Node) int {
			if id, ok := ids[n]; ok {
				return id
			}
			var srcs []int
			if n.Op == OpLoad {
				srcs = []int{buffer(cl.l.bufs[n.Buf])}
			}
			for _, s := range n.Src {
				srcs = append(srcs, add(s))
			}
			id := len(p.Nodes)
			ids[n] = id
			g := GraphNode{ID: id, Kind: "op", Label: n.Op.String(), Shape: append([]int(nil), k.Shape...), DType: n.DType,
				Device: cl.dev.name, Srcs: srcs, Kernel: ki}
			switch n.Op {
			case OpLoad:
				g.Kind, g.Label = "load", fmt.Sprintf("load b%d", n.Buf)
				if !n.View.IsContiguous() {
					g.Label += " via " + describeView(n.View, []int{cl.l.bufs[n.Buf].n})
				}
			case OpConst:
				g.Kind, g.Label = "const", "const "+strconv.FormatFloat(n.Value, 'g', 6, 64)
			}
			p.Nodes = append(p.Nodes, g)
			return id
		}
		top := add(k.Expr)
		if k.Reduce != ReduceNone {
			id := len(p.Nodes)
			p.Nodes = append(p.Nodes, GraphNode{ID: id, Kind: "reduce", Label: fmt.Sprintf("%s over axes %v", k.Reduce, k.ReduceAxes),
				Shape: k.OutShape(), DType: k.Bufs[0].DType, Device: cl.dev.name, Srcs: []int{top}, Kernel: ki})
			top = id
		}
		out := write(cl.l.bufs[0])
		p.Nodes[out].Srcs = append(p.Nodes[out].Srcs, top)
		p.Kernels = append(p.Kernels, capturedKernel(ki, cl, out))
	}
	if n := len(j.outs); n > 0 {
		if id, ok := bufNode[j.outs[0].buf]; ok {
			p.Root = id
		}
	}
	return p
}
