package tensor

// Assignment: writing a value into an existing buffer, as tinygrad's
// Tensor.assign does. An optimizer updates parameters this way, so a
// training step's kernels write into the same buffers on every call and a
// JIT's replay of the step reads and writes exactly what the captured call
// did: no new buffers, no allocation.

import "fmt"

// Assign makes t hold v (a tensor or a Go number, broadcast to t's shape
// and cast to its dtype) in t's own buffer, and returns t. Like every
// operation it is lazy: the kernel that writes the buffer runs when t is
// next realized (Realize, RealizeAll, or a read). t must be realized (a
// buffer, not a view of one); v may read t itself (p.Assign(p.Sub(g))).
//
// Everything built from t before the assignment reads t's buffer, so
// realize what must see the old value before realizing the assignment:
// an optimizer realizes all gradients first, then all updates.
func (t *Tensor) Assign(v any) *Tensor {
	defer graphTimer(monoNow())
	dst := t.l.buf
	switch {
	case t.l.kind == kBuffer:
	case t.l.kind == kElem && t.l.dst != nil: // an assignment not yet realized
		dst = t.l.dst
	default:
		opPanic("Assign", "the target is not a realized buffer: Realize it first (Assign writes into an existing buffer; a view or an unrealized expression has none)", t.l.shape)
	}
	x := operand("Assign", t, v)
	if x.l.dev != t.l.dev {
		opPanic("Assign", fmt.Sprintf("the value is on %s, the target on %s; move it with To", x.l.dev.name, t.l.dev.name), t.l.shape, x.l.shape)
	}
	if !equalInts(broadcast2("Assign", t.l.shape, x.l.shape), t.l.shape) {
		opPanic("Assign", "the value's shape does not broadcast to the target's", t.l.shape, x.l.shape)
	}
	src := shapedAs(x.l, t.l.dtype, t.l.shape)
	t.l = &lazy{kind: kElem, op: OpCast, dtype: t.l.dtype, shape: t.l.shape, dev: t.l.dev, srcs: []*lazy{src}, keep: true, dst: dst}
	return t
}

// guardAssign makes assignment l safe to compute in place: its kernel
// writes element i of the target after reading what element i needs, so
// it may read the target only at element i. A value that reads the
// target through another view (t.Assign(t.T())) is first computed into a
// buffer of its own.
func (s *scheduler) guardAssign(l *lazy) {
	if readsShifted(l.srcs[0], l.dst, l.shape, map[*lazy]bool{}) {
		c := contiguous(l.srcs[0])
		c.keep = true
		l.srcs = []*lazy{c}
	}
}

// readsShifted reports whether the kernel inlining n reads buffer b other
// than element for element over shape.
func readsShifted(n *lazy, b *Buffer, shape []int, seen map[*lazy]bool) bool {
	if seen[n] {
		return false
	}
	seen[n] = true
	switch n.kind {
	case kView:
		base := n.srcs[0]
		if (base.kind == kBuffer && base.buf == b) || base.dst == b {
			return !n.view.IsContiguous() || !equalInts(n.view.Shape, shape)
		}
	case kElem:
		if n.keep {
			return false // its own kernel, run first: read through its buffer element for element
		}
		for _, x := range n.srcs {
			if readsShifted(x, b, shape, seen) {
				return true
			}
		}
	}
	return false
}
