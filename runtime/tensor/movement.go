package tensor

// Movement ops (views, no copies where the layout allows), reductions and
// the composite ops built from them (Matmul, Softmax, Cat, Stack).

import (
	"fmt"
	"math"
)

func (t *Tensor) axis(op string, a int) int {
	n := len(t.l.shape)
	if a < 0 {
		a += n
	}
	if a < 0 || a >= n {
		opPanic(op, fmt.Sprintf("axis %d out of range for %d dimensions", a, n), t.l.shape)
	}
	return a
}

// Reshape returns t with a new shape of the same size; one size may be -1
// (inferred). It is a view when the layout allows, otherwise a copy.
func (t *Tensor) Reshape(shape ...int) *Tensor {
	if t.ag != nil {
		return gradReshape(t, shape)
	}
	defer graphTimer(monoNow())
	s := append([]int(nil), shape...)
	infer, known := -1, 1
	for i, n := range s {
		if n == -1 && infer < 0 {
			infer = i
		} else if n < 0 {
			opPanic("Reshape", fmt.Sprintf("to %v: sizes must be ≥ 0 with at most one -1", shape), t.l.shape)
		} else {
			known *= n
		}
	}
	if infer >= 0 {
		if known == 0 {
			opPanic("Reshape", fmt.Sprintf("to %v: cannot infer -1 next to a zero size", shape), t.l.shape)
		}
		s[infer] = t.Numel() / known
	}
	if prod(s) != t.Numel() {
		opPanic("Reshape", fmt.Sprintf("to %v: %d elements cannot become %d", shape, t.Numel(), prod(s)), t.l.shape)
	}
	return &Tensor{l: move(t.l, movement{kind: 'r', shape: s}, map[*lazy]*lazy{})}
}

// Flatten is Reshape(-1).
func (t *Tensor) Flatten() *Tensor { return t.Reshape(-1) }

// Unsqueeze inserts a size-1 axis at position a (negative counts from the end).
func (t *Tensor) Unsqueeze(a int) *Tensor {
	n := len(t.l.shape)
	if a < 0 {
		a += n + 1
	}
	if a < 0 || a > n {
		opPanic("Unsqueeze", fmt.Sprintf("axis %d out of range", a), t.l.shape)
	}
	s := append(append(append([]int(nil), t.l.shape[:a]...), 1), t.l.shape[a:]...)
	return t.Reshape(s...)
}

// Permute reorders the axes: result axis i is t's axis order[i].
func (t *Tensor) Permute(order ...int) *Tensor {
	if t.ag != nil {
		return gradPermute(t, order)
	}
	defer graphTimer(monoNow())
	if len(order) != len(t.l.shape) {
		opPanic("Permute", fmt.Sprintf("order %v must list each of the %d axes once", order, len(t.l.shape)), t.l.shape)
	}
	seen := make([]bool, len(order))
	o := make([]int, len(order))
	for i, a := range order {
		a = t.axis("Permute", a)
		if seen[a] {
			opPanic("Permute", fmt.Sprintf("order %v repeats axis %d", order, a), t.l.shape)
		}
		seen[a], o[i] = true, a
	}
	return &Tensor{l: move(t.l, movement{kind: 'p', order: o}, map[*lazy]*lazy{})}
}

// Transpose swaps axes a and b.
func (t *Tensor) Transpose(a, b int) *Tensor {
	a, b = t.axis("Transpose", a), t.axis("Transpose", b)
	o := make([]int, len(t.l.shape))
	for i := range o {
		o[i] = i
	}
	o[a], o[b] = o[b], o[a]
	return t.Permute(o...)
}

// T swaps the last two axes.
func (t *Tensor) T() *Tensor { return t.Transpose(-2, -1) }

// Expand broadcasts size-1 axes to shape (-1 keeps a size); leading axes may be added.
func (t *Tensor) Expand(shape ...int) *Tensor {
	if t.ag != nil {
		return gradExpand(t, shape)
	}
	defer graphTimer(monoNow())
	s := append([]int(nil), shape...)
	off := len(s) - len(t.l.shape)
	if off < 0 {
		opPanic("Expand", fmt.Sprintf("to %v has fewer axes", shape), t.l.shape)
	}
	for i := range s {
		if s[i] == -1 && i >= off {
			s[i] = t.l.shape[i-off]
		}
		if i >= off && t.l.shape[i-off] != 1 && t.l.shape[i-off] != s[i] {
			opPanic("Expand", fmt.Sprintf("to %v: only size-1 axes can be expanded (axis %d)", shape, i), t.l.shape)
		}
	}
	return t.broadcastTo(s)
}

// Shrink keeps [r[d][0], r[d][1]) along each axis d.
func (t *Tensor) Shrink(r [][2]int) *Tensor {
	if t.ag != nil {
		return gradShrink(t, r)
	}
	defer graphTimer(monoNow())
	if len(r) != len(t.l.shape) {
		opPanic("Shrink", fmt.Sprintf("needs one range per axis, got %d", len(r)), t.l.shape)
	}
	for d, lr := range r {
		if lr[0] < 0 || lr[1] < lr[0] || lr[1] > t.l.shape[d] {
			opPanic("Shrink", fmt.Sprintf("range %v out of bounds for axis %d", lr, d), t.l.shape)
		}
	}
	return &Tensor{l: move(t.l, movement{kind: 's', ranges: r}, map[*lazy]*lazy{})}
}

// Slice keeps [start, end) of one axis (negative indices count from the end).
func (t *Tensor) Slice(axis, start, end int) *Tensor {
	axis = t.axis("Slice", axis)
	n := t.l.shape[axis]
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	r := make([][2]int, len(t.l.shape))
	for d, m := range t.l.shape {
		r[d] = [2]int{0, m}
	}
	r[axis] = [2]int{start, end}
	return t.Shrink(r)
}

// Pad adds p[d][0] zeros before and p[d][1] zeros after each axis d.
func (t *Tensor) Pad(p [][2]int) *Tensor {
	if t.ag != nil {
		return gradPad(t, p)
	}
	defer graphTimer(monoNow())
	if len(p) != len(t.l.shape) {
		opPanic("Pad", fmt.Sprintf("needs one [before, after] pair per axis, got %d", len(p)), t.l.shape)
	}
	for _, lr := range p {
		if lr[0] < 0 || lr[1] < 0 {
			opPanic("Pad", fmt.Sprintf("padding %v is negative; use Shrink to cut", p), t.l.shape)
		}
	}
	return &Tensor{l: move(t.l, movement{kind: 'd', ranges: p}, map[*lazy]*lazy{})}
}

// Flip reverses the given axes (all axes when none are given).
func (t *Tensor) Flip(axes ...int) *Tensor {
	if t.ag != nil {
		return gradFlip(t, axes)
	}
	defer graphTimer(monoNow())
	if len(axes) == 0 {
		for i := range t.l.shape {
			axes = append(axes, i)
		}
	}
	a := make([]int, len(axes))
	for i, x := range axes {
		a[i] = t.axis("Flip", x)
	}
	return &Tensor{l: move(t.l, movement{kind: 'f', axes: a}, map[*lazy]*lazy{})}
}

// Contiguous returns a lazily copied tensor with a row-major layout: a
// kernel of its own (as tinygrad's contiguous), whose buffer its consumers
// read, so views of it (reshapes, permutes) never copy again and what
// feeds it is computed once.
func (t *Tensor) Contiguous() *Tensor {
	if t.ag != nil {
		return gradContiguous(t)
	}
	c := contiguous(t.l)
	c.keep = true
	return &Tensor{l: c}
}

// Cat concatenates tensors along axis; all other sizes must match.
func Cat(axis int, ts ...*Tensor) *Tensor {
	if len(ts) == 0 {
		panic(&OpError{Op: "Cat", Msg: "needs at least one tensor"})
	}
	axis = ts[0].axis("Cat", axis)
	total := 0
	for _, t := range ts {
		if len(t.l.shape) != len(ts[0].l.shape) {
			opPanic("Cat", "tensors have different numbers of axes", ts[0].l.shape, t.l.shape)
		}
		for d := range t.l.shape {
			if d != axis && t.l.shape[d] != ts[0].l.shape[d] {
				opPanic("Cat", fmt.Sprintf("sizes differ on axis %d (only axis %d may differ)", d, axis), ts[0].l.shape, t.l.shape)
			}
		}
		total += t.l.shape[axis]
	}
	var out *Tensor
	at := 0
	for _, t := range ts {
		p := make([][2]int, len(t.l.shape))
		p[axis] = [2]int{at, total - at - t.l.shape[axis]}
		at += t.l.shape[axis]
		x := t.Pad(p)
		if out == nil {
			out = x
		} else {
			out = out.Add(x)
		}
	}
	return out
}

// Stack joins tensors of one shape along a new axis.
func Stack(axis int, ts ...*Tensor) *Tensor {
	us := make([]*Tensor, len(ts))
	for i, t := range ts {
		us[i] = t.Unsqueeze(axis)
	}
	return Cat(axis, us...)
}

// reduce folds axes (all when none); keep keeps them as size 1.
func (t *Tensor) reduce(name string, rop ReduceOp, keep bool, axes []int) *Tensor {
	if t.ag != nil {
		return gradReduce(t, name, rop, keep, axes)
	}
	defer graphTimer(monoNow())
	red := make([]bool, len(t.l.shape))
	if len(axes) == 0 {
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		red[t.axis(name, a)] = true
	}
	var rax, kshape, oshape []int
	for d, n := range t.l.shape {
		if red[d] {
			rax = append(rax, d)
			kshape = append(kshape, 1)
		} else {
			kshape = append(kshape, n)
			oshape = append(oshape, n)
		}
	}
	src := t
	if src.l.dtype == Bool {
		src = src.castTo(Int32)
	}
	r := &Tensor{l: &lazy{kind: kReduce, shape: kshape, dtype: src.l.dtype, dev: t.l.dev, rop: rop, axes: rax, srcs: []*lazy{src.l}}}
	// A contraction (Matmul) stays one reduce kernel, which backends run as
	// a GEMM; other long folds are split into interleaved partials.
	if name != "Matmul" {
		if s := splitReduce(src, rop, kshape, rax); s != nil {
			r = s
		}
	}
	if len(rax) == 0 {
		r = src
	}
	if keep {
		return r
	}
	return r.Reshape(oshape...)
}

// Sum adds over axes (all when none), dropping them.
func (t *Tensor) Sum(axes ...int) *Tensor { return t.reduce("Sum", ReduceSum, false, axes) }

// SumKeepDim is Sum keeping the reduced axes as size 1.
func (t *Tensor) SumKeepDim(axes ...int) *Tensor { return t.reduce("Sum", ReduceSum, true, axes) }

// Max is the maximum over axes (all when none).
func (t *Tensor) Max(axes ...int) *Tensor { return t.reduce("Max", ReduceMax, false, axes) }

// MaxKeepDim is Max keeping the reduced axes as size 1.
func (t *Tensor) MaxKeepDim(axes ...int) *Tensor { return t.reduce("Max", ReduceMax, true, axes) }

// Min is the minimum over axes (all when none).
func (t *Tensor) Min(axes ...int) *Tensor { return t.reduce("Min", ReduceMin, false, axes) }

// MinKeepDim is Min keeping the reduced axes as size 1.
func (t *Tensor) MinKeepDim(axes ...int) *Tensor { return t.reduce("Min", ReduceMin, true, axes) }

// Mean is the average over axes (all when none); integers give float32.
func (t *Tensor) Mean(axes ...int) *Tensor { return t.mean(false, axes) }

// MeanKeepDim is Mean keeping the reduced axes as size 1.
func (t *Tensor) MeanKeepDim(axes ...int) *Tensor { return t.mean(true, axes) }

func (t *Tensor) mean(keep bool, axes []int) *Tensor {
	x := t
	if !x.l.dtype.IsFloat() {
		x = x.castTo(Float32)
	}
	s := x.reduce("Mean", ReduceSum, keep, axes)
	n := t.Numel() / max(1, s.Numel())
	if n == 0 {
		return s.Mul(math.NaN())
	}
	return s.Mul(1 / float64(n))
}

// Argmax is the index (int32) of the first maximum along axis.
func (t *Tensor) Argmax(axis int) *Tensor {
	axis = t.axis("Argmax", axis)
	n := t.l.shape[axis]
	rev := make([]int32, n)
	for i := range rev {
		rev[i] = int32(n - i)
	}
	shape := make([]int, len(t.l.shape))
	for i := range shape {
		shape[i] = 1
	}
	shape[axis] = n
	idx := fromBytes(t.l.dev, sliceBytes(rev), shape, Int32)
	hit := t.Eq(t.MaxKeepDim(axis))
	best := Where(hit, idx, int32(0)).Max(axis)
	return FullOf(float64(n), Int32).onDev(t.l.dev).Sub(best)
}

func (t *Tensor) onDev(d *Dev) *Tensor {
	if t.l.kind == kConst {
		t.l.dev = d
	}
	return t
}

// Matmul is the matrix product over the last two axes, with numpy batch
// broadcasting; 1-D operands are treated as a row (left) or column (right).
func (t *Tensor) Matmul(x *Tensor) *Tensor {
	if t.ag != nil || (x != nil && x.ag != nil) {
		return gradMatmul(t, x)
	}
	defer graphTimer(monoNow())
	a, b := t, x
	if len(a.l.shape) == 0 || len(b.l.shape) == 0 {
		opPanic("Matmul", "needs tensors with at least one axis", t.l.shape, x.l.shape)
	}
	va, vb := len(a.l.shape) == 1, len(b.l.shape) == 1
	if va {
		a = a.Unsqueeze(0)
	}
	if vb {
		b = b.Unsqueeze(1)
	}
	k := a.l.shape[len(a.l.shape)-1]
	if b.l.shape[len(b.l.shape)-2] != k {
		opPanic("Matmul", fmt.Sprintf("inner sizes differ (%d vs %d); the last axis of the left operand must equal the second-to-last of the right", k, b.l.shape[len(b.l.shape)-2]), t.l.shape, x.l.shape)
	}
	dt := promote(a.l.dtype, b.l.dtype)
	a, b = a.castTo(dt), b.castTo(dt)
	// a: [..., M, 1, K]; b: [..., 1, N, K]; product summed over K.
	a = a.Unsqueeze(-2)
	b = b.T().Unsqueeze(-3)
	out := a.Mul(b).reduce("Matmul", ReduceSum, false, []int{-1})
	if va {
		out = out.Reshape(append(out.Shape()[:out.Ndim()-2], out.l.shape[out.Ndim()-1])...)
	}
	if vb {
		out = out.Reshape(out.Shape()[:out.Ndim()-1]...)
	}
	return out
}

// softmaxKeepMin is the size from which Softmax computes exp once into a
// buffer (one more kernel, one more pass over memory) instead of twice.
const softmaxKeepMin = 1 << 12

// Softmax is exp(t - max) / sum(exp(t - max)) along axis.
func (t *Tensor) Softmax(axis int) *Tensor {
	if t.ag != nil {
		return gradSoftmax(t, axis)
	}
	e := t.Sub(t.MaxKeepDim(axis)).Exp()
	if e.l.kind == kElem && e.Numel() >= softmaxKeepMin {
		e.l.keep = true // exp once, read by the sum and the division
	}
	return e.Div(e.SumKeepDim(axis))
}

// LogSoftmax is t - max - log(sum(exp(t - max))) along axis.
func (t *Tensor) LogSoftmax(axis int) *Tensor {
	if t.ag != nil {
		return gradLogSoftmax(t, axis)
	}
	s := t.Sub(t.MaxKeepDim(axis))
	return s.Sub(s.Exp().SumKeepDim(axis).Log())
}
