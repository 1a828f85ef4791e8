package tensor

// Elementwise operations with numpy broadcasting. Operands are tensors or Go
// numbers (int, int32, int64, float32, float64, bool), so a.Mul(2).Add(1)
// reads like a*2+1.

import (
	"fmt"
	"math"
)

// operand converts x to a tensor shaped for an operation with t.
func operand(name string, t *Tensor, x any) *Tensor {
	if v, ok := x.(*Tensor); ok {
		if v == nil {
			opPanic(name, "operand is a nil *Tensor", t.l.shape)
		}
		return v
	}
	return &Tensor{l: numberOperand(name, t, x)}
}

// numberOperand is the 0-d constant node of the Go number x (an operand of
// an operation with t), in t's dtype family: an integral number keeps an
// integer dtype, a fractional one makes it Float32, bool becomes Int32.
func numberOperand(name string, t *Tensor, x any) *lazy {
	l := &lazy{}
	setNumber(l, name, t, x)
	return l
}

// setNumber makes l, a new (zero) node, the constant node of numberOperand.
func setNumber(l *lazy, name string, t *Tensor, x any) {
	var v float64
	integral := true
	switch x := x.(type) {
	case int:
		v = float64(x)
	case int32:
		v = float64(x)
	case int64:
		v = float64(x)
	case float32:
		v = float64(x)
		integral = v == math.Trunc(v)
	case float64:
		v, integral = x, x == math.Trunc(x)
	case bool:
		if x {
			v = 1
		}
	default:
		opPanic(name, fmt.Sprintf("operand of type %T is not a *Tensor or a Go number", x), t.l.shape)
	}
	dt := t.l.dtype
	if !integral && !dt.IsFloat() {
		dt = Float32
	} else if dt == Bool {
		dt = Int32
	}
	// Field by field, not *l = lazy{...}: l is new and zero, and a
	// composite assignment writes all 27 words of the node through the
	// garbage collector's bulk write barrier (110 ns of a 3 µs eager op
	// while a collection runs).
	l.kind, l.dtype, l.dev, l.value = kConst, dt, t.l.dev, v
}

// broadcastShape is numpy's rule: align right, size-1 axes stretch. When
// the result equals one of the shapes, that slice is returned (shapes are
// never modified).
func broadcastShape(name string, shapes ...[]int) []int {
	if s, ok := sameOrScalar(shapes); ok {
		return s
	}
	nd := 0
	for _, s := range shapes {
		nd = max(nd, len(s))
	}
	out := make([]int, nd)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		for i, n := range s {
			d := nd - len(s) + i
			switch {
			case out[d] == n || n == 1:
			case out[d] == 1:
				out[d] = n
			default:
				opPanic(name, fmt.Sprintf("shapes cannot be broadcast together (axis %d: %d vs %d); reshape or expand one operand", d, out[d], n), shapes...)
			}
		}
	}
	return out
}

// sameOrScalar returns the shape all non-scalar shapes equal, if they do.
func sameOrScalar(shapes [][]int) ([]int, bool) {
	var s []int
	for _, x := range shapes {
		switch {
		case len(x) == 0:
		case s == nil:
			s = x
		case !equalInts(s, x):
			return nil, false
		}
	}
	return s, true
}

// broadcastTo reshapes (adding leading 1s) and expands t to shape.
func (t *Tensor) broadcastTo(shape []int) *Tensor {
	if equalInts(t.l.shape, shape) {
		return t
	}
	if t.l.kind == kConst { // a constant of any shape is the same node
		return &Tensor{l: &lazy{kind: kConst, shape: shape, dtype: t.l.dtype, dev: t.l.dev, value: t.l.value}}
	}
	r := t
	if len(t.l.shape) < len(shape) {
		s := make([]int, len(shape))
		for i := range s {
			s[i] = 1
		}
		copy(s[len(shape)-len(t.l.shape):], t.l.shape)
		r = r.apply(movement{kind: 'r', shape: s})
	}
	return r.apply(movement{kind: 'e', shape: shape})
}

func (t *Tensor) apply(m movement) *Tensor {
	if m.kind != 'r' && m.kind != 'e' && len(m.outShape(t.l.shape)) == 0 {
		return t
	}
	return &Tensor{l: move(t.l, m, map[*lazy]*lazy{})}
}

func elem(op Op, dt DType, srcs ...*Tensor) *Tensor {
	if len(srcs) <= 3 {
		var ls [3]*lazy
		for i, s := range srcs {
			ls[i] = s.l
		}
		return newElem(op, dt, srcs[0].l.shape, srcs[0].l.dev, ls[:len(srcs)]...)
	}
	ls := make([]*lazy, len(srcs))
	for i, s := range srcs {
		ls[i] = s.l
	}
	return newElem(op, dt, srcs[0].l.shape, srcs[0].l.dev, ls...)
}

func (t *Tensor) castTo(dt DType) *Tensor {
	if t.l.dtype == dt {
		return t
	}
	if t.l.kind == kConst {
		return &Tensor{l: &lazy{kind: kConst, shape: t.l.shape, dtype: dt, dev: t.l.dev, value: castValue(t.l.value, dt)}}
	}
	return elem(OpCast, dt, t)
}

func castValue(v float64, dt DType) float64 {
	switch dt {
	case Int32:
		return float64(int32(v))
	case Bool:
		if v != 0 {
			return 1
		}
		return 0
	case Float32:
		return float64(float32(v))
	}
	return v
}

func binaryOp(op Op, name string, t *Tensor, x any) *Tensor {
	if t.ag != nil || tracked(x) {
		return gradBinary(op, name, t, x)
	}
	defer graphTimer(monoNow())
	var o *lazy
	var node *elemConstNode // for a number: the result and its constant in one allocation
	if v, ok := x.(*Tensor); ok {
		if v == nil {
			opPanic(name, "operand is a nil *Tensor", t.l.shape)
		}
		o = v.l
	} else {
		node = &elemConstNode{}
		setNumber(&node.c, name, t, x)
		o = &node.c
	}
	if o.dev != t.l.dev {
		opPanic(name, fmt.Sprintf("operands are on devices %s and %s; move one with To", t.l.dev.name, o.dev.name), t.l.shape, o.shape)
	}
	shape := broadcast2(name, t.l.shape, o.shape)
	dt := promote(t.l.dtype, o.dtype)
	if (op == OpDiv || op == OpPow) && !dt.IsFloat() {
		dt = Float32
	}
	if dt == Bool && !op.IsComparison() && op != OpMax && op != OpMin {
		dt = Int32
	}
	rt := dt
	if op.IsComparison() {
		rt = Bool
	}
	a := shapedAs(t.l, dt, shape)
	if node == nil {
		return newElem(op, rt, shape, t.l.dev, a, shapedAs(o, dt, shape))
	}
	o.shape, o.dtype, o.value = shape, dt, castValue(o.value, dt) // the number's node is new: shape it in place
	return initElem(&node.n, op, rt, shape, t.l.dev, a, o)
}

// elemConstNode is an elementwise result with a number operand's constant
// node, in one allocation.
type elemConstNode struct {
	n tensorNode
	c lazy
}

// broadcast2 is broadcastShape of two shapes, without allocating when one
// is the result.
func broadcast2(name string, a, b []int) []int {
	switch {
	case len(b) == 0 || equalInts(a, b):
		return a
	case len(a) == 0:
		return b
	}
	return broadcastShape(name, a, b)
}

// shapedAs is l cast to dt and broadcast to shape; a constant stays one
// node.
func shapedAs(l *lazy, dt DType, shape []int) *lazy {
	if l.kind == kConst {
		if l.dtype == dt && equalInts(l.shape, shape) {
			return l
		}
		return &lazy{kind: kConst, shape: shape, dtype: dt, dev: l.dev, value: castValue(l.value, dt)}
	}
	return (&Tensor{l: l}).castTo(dt).broadcastTo(shape).l
}

// Add is t + x.
func (t *Tensor) Add(x any) *Tensor { return binaryOp(OpAdd, "Add", t, x) }

// Sub is t - x.
func (t *Tensor) Sub(x any) *Tensor { return binaryOp(OpSub, "Sub", t, x) }

// Mul is t * x.
func (t *Tensor) Mul(x any) *Tensor { return binaryOp(OpMul, "Mul", t, x) }

// Div is t / x (true division: integer operands give float32).
func (t *Tensor) Div(x any) *Tensor { return binaryOp(OpDiv, "Div", t, x) }

// Pow is t ** x (float).
func (t *Tensor) Pow(x any) *Tensor { return binaryOp(OpPow, "Pow", t, x) }

// Maximum is the elementwise maximum of t and x (NaN propagates).
func (t *Tensor) Maximum(x any) *Tensor { return binaryOp(OpMax, "Maximum", t, x) }

// Minimum is the elementwise minimum of t and x (NaN propagates).
func (t *Tensor) Minimum(x any) *Tensor { return binaryOp(OpMin, "Minimum", t, x) }

// Lt is t < x (bool).
func (t *Tensor) Lt(x any) *Tensor { return binaryOp(OpLt, "Lt", t, x) }

// Le is t <= x (bool).
func (t *Tensor) Le(x any) *Tensor { return binaryOp(OpLe, "Le", t, x) }

// Gt is t > x (bool).
func (t *Tensor) Gt(x any) *Tensor { return binaryOp(OpGt, "Gt", t, x) }

// Ge is t >= x (bool).
func (t *Tensor) Ge(x any) *Tensor { return binaryOp(OpGe, "Ge", t, x) }

// Eq is t == x (bool).
func (t *Tensor) Eq(x any) *Tensor { return binaryOp(OpEq, "Eq", t, x) }

// Ne is t != x (bool).
func (t *Tensor) Ne(x any) *Tensor { return binaryOp(OpNe, "Ne", t, x) }

func unary(op Op, name string, t *Tensor, float bool) *Tensor {
	if t.ag != nil {
		return gradUnary(op, name, t, float)
	}
	defer graphTimer(monoNow())
	dt := t.l.dtype
	if float && !dt.IsFloat() {
		dt = Float32
	}
	if !float && dt == Bool && op != OpNot {
		dt = Int32
	}
	if op == OpNot {
		dt = Bool
	}
	return elem(op, dt, t.castTo(dt))
}

// Neg is -t.
func (t *Tensor) Neg() *Tensor { return unary(OpNeg, "Neg", t, false) }

// Exp is e**t.
func (t *Tensor) Exp() *Tensor { return unary(OpExp, "Exp", t, true) }

// Log is the natural logarithm.
func (t *Tensor) Log() *Tensor { return unary(OpLog, "Log", t, true) }

// Sqrt is the square root.
func (t *Tensor) Sqrt() *Tensor { return unary(OpSqrt, "Sqrt", t, true) }

// Sin is the sine.
func (t *Tensor) Sin() *Tensor { return unary(OpSin, "Sin", t, true) }

// Cos is the cosine.
func (t *Tensor) Cos() *Tensor { return unary(OpCos, "Cos", t, true) }

// Tanh is the hyperbolic tangent.
func (t *Tensor) Tanh() *Tensor { return unary(OpTanh, "Tanh", t, true) }

// Sigmoid is 1/(1+e**-t).
func (t *Tensor) Sigmoid() *Tensor { return unary(OpSigmoid, "Sigmoid", t, true) }

// Relu is max(t, 0).
func (t *Tensor) Relu() *Tensor { return unary(OpRelu, "Relu", t, false) }

// Abs is |t|.
func (t *Tensor) Abs() *Tensor { return unary(OpAbs, "Abs", t, false) }

// Not is the logical not of t != 0 (bool).
func (t *Tensor) Not() *Tensor { return unary(OpNot, "Not", t.castTo(Bool), false) }

// Cast converts to dt (float→int truncates; bool is x != 0).
func (t *Tensor) Cast(dt DType) *Tensor {
	if t.ag != nil {
		return gradCast(t, dt)
	}
	defer graphTimer(monoNow())
	return t.castTo(dt)
}

// Where is cond ? a : b elementwise, with broadcasting; cond is cast to bool.
func Where(cond *Tensor, a, b any) *Tensor {
	if tracked(a) || tracked(b) {
		return gradWhere(cond, a, b)
	}
	defer graphTimer(monoNow())
	x := operand("Where", cond, a)
	y := operand("Where", cond, b)
	if _, ok := a.(*Tensor); !ok {
		if yt, ok := b.(*Tensor); ok {
			x = operand("Where", yt, a)
		}
	}
	if _, ok := b.(*Tensor); !ok {
		y = operand("Where", x, b)
	}
	shape := broadcastShape("Where", cond.l.shape, x.l.shape, y.l.shape)
	dt := promote(x.l.dtype, y.l.dtype)
	return elem(OpWhere, dt, cond.castTo(Bool).broadcastTo(shape), x.castTo(dt).broadcastTo(shape), y.castTo(dt).broadcastTo(shape))
}

// Where is Where(t, a, b).
func (t *Tensor) Where(a, b any) *Tensor { return Where(t, a, b) }

// promote returns the dtype of a binary operation on a and b (numpy-like:
// bool < int32 < float32 < float64).
func promote(a, b DType) DType {
	rank := func(d DType) int {
		switch d {
		case Bool:
			return 0
		case Int32:
			return 1
		case Float32:
			return 2
		}
		return 3
	}
	if rank(a) >= rank(b) {
		return a
	}
	return b
}
