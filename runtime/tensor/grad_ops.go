package tensor

// The gradient rule of every differentiable operation. Each grad* function
// is called by its operation when an operand carries a gradient record: it
// computes the operation on detached operands (so the operation's own
// helpers record nothing) and records how to turn the result's gradient g
// into its operands' gradients. Rules see the forward values through the
// detached operands and result, whatever they are by the time Backward
// runs (expressions, or buffers once realized). Broadcasting and dtype
// promotion are undone by Backward (fitGrad), so a rule may return a
// gradient of the result's shape.

import "slices"

func gradBinary(op Op, name string, t *Tensor, x any) *Tensor {
	a, b := t.Detach(), detachAny(x)
	out := binaryOp(op, name, a, b)
	if op.IsComparison() {
		return out
	}
	o := out.Detach()
	back := func(g *Tensor) []*Tensor {
		var ga, gb *Tensor
		switch op {
		case OpAdd:
			ga, gb = g, g
		case OpSub:
			ga, gb = g, g.Neg()
		case OpMul:
			ga, gb = g.Mul(b), g.Mul(a)
		case OpDiv:
			ga, gb = g.Div(b), g.Mul(o).Div(b).Neg() // d(a/b)/db = -(a/b)/b
		case OpPow:
			ga = g.Mul(b).Mul(a.Pow(minusOne(b)))
			gb = g.Mul(o).Mul(a.Log())
		case OpMax, OpMin:
			// The larger (smaller) operand takes the gradient; a tie
			// splits it, as tinygrad does.
			win := a.Gt(b)
			if op == OpMin {
				win = a.Lt(b)
			}
			share := win.castTo(g.l.dtype).Add(a.Eq(b).castTo(g.l.dtype).Mul(0.5))
			ga = g.Mul(share)
			gb = g.Sub(ga)
		}
		return []*Tensor{ga, gb}
	}
	return recordGrad(out, name, back, parentOf(t), parentOf(x))
}

// minusOne is b - 1 for an operand that is a tensor or a Go number.
func minusOne(b any) any {
	switch v := b.(type) {
	case *Tensor:
		return v.Sub(1)
	case int:
		return v - 1
	case int32:
		return v - 1
	case int64:
		return v - 1
	case float32:
		return v - 1
	case float64:
		return v - 1
	}
	return b // bool: its gradient is never asked for
}

func gradUnary(op Op, name string, t *Tensor, float bool) *Tensor {
	a := t.Detach()
	out := unary(op, name, a, float)
	o := out.Detach()
	back := func(g *Tensor) []*Tensor {
		var ga *Tensor
		switch op {
		case OpNeg:
			ga = g.Neg()
		case OpExp:
			ga = g.Mul(o)
		case OpLog:
			ga = g.Div(a)
		case OpSqrt:
			ga = g.Div(o.Mul(2))
		case OpSin:
			ga = g.Mul(a.Cos())
		case OpCos:
			ga = g.Mul(a.Sin()).Neg()
		case OpTanh:
			ga = g.Mul(o.Mul(o).Neg().Add(1))
		case OpSigmoid:
			ga = g.Mul(o.Mul(o.Neg().Add(1)))
		case OpRelu:
			ga = Where(a.Gt(0), g, 0)
		case OpAbs:
			ga = Where(a.Gt(0), g, Where(a.Lt(0), g.Neg(), 0))
		}
		return []*Tensor{ga}
	}
	return recordGrad(out, name, back, t)
}

func gradCast(t *Tensor, dt DType) *Tensor {
	out := t.Detach().castTo(dt)
	src := t.l.dtype
	return recordGrad(out, "Cast", func(g *Tensor) []*Tensor { return []*Tensor{g.castTo(src)} }, t)
}

func gradWhere(cond *Tensor, a, b any) *Tensor {
	c := cond.Detach()
	out := Where(c, detachAny(a), detachAny(b))
	back := func(g *Tensor) []*Tensor {
		return []*Tensor{Where(c, g, 0), Where(c, 0, g)}
	}
	return recordGrad(out, "Where", back, parentOf(a), parentOf(b))
}

// gradMove records a movement op whose gradient is another movement.
func gradMove(t *Tensor, name string, fwd func(x *Tensor) *Tensor, back func(g *Tensor) *Tensor) *Tensor {
	out := fwd(t.Detach())
	return recordGrad(out, name, func(g *Tensor) []*Tensor { return []*Tensor{back(g)} }, t)
}

func gradReshape(t *Tensor, shape []int) *Tensor {
	src := t.l.shape
	return gradMove(t, "Reshape", func(x *Tensor) *Tensor { return x.Reshape(shape...) },
		func(g *Tensor) *Tensor { return g.Reshape(src...) })
}

func gradPermute(t *Tensor, order []int) *Tensor {
	out := t.Detach().Permute(order...)
	inv := make([]int, len(order))
	for i, a := range order {
		if a < 0 {
			a += len(order)
		}
		inv[a] = i
	}
	return recordGrad(out, "Permute", func(g *Tensor) []*Tensor { return []*Tensor{g.Permute(inv...)} }, t)
}

func gradExpand(t *Tensor, shape []int) *Tensor {
	src := t.l.shape
	return gradMove(t, "Expand", func(x *Tensor) *Tensor { return x.Expand(shape...) },
		func(g *Tensor) *Tensor { return unbroadcast(g, src) })
}

func gradShrink(t *Tensor, r [][2]int) *Tensor {
	src := t.l.shape
	return gradMove(t, "Shrink", func(x *Tensor) *Tensor { return x.Shrink(r) }, func(g *Tensor) *Tensor {
		p := make([][2]int, len(r))
		for d, lr := range r {
			p[d] = [2]int{lr[0], src[d] - lr[1]}
		}
		return g.Pad(p)
	})
}

func gradPad(t *Tensor, p [][2]int) *Tensor {
	src := t.l.shape
	return gradMove(t, "Pad", func(x *Tensor) *Tensor { return x.Pad(p) }, func(g *Tensor) *Tensor {
		r := make([][2]int, len(p))
		for d, lr := range p {
			r[d] = [2]int{lr[0], lr[0] + src[d]}
		}
		return g.Shrink(r)
	})
}

func gradFlip(t *Tensor, axes []int) *Tensor {
	out := t.Detach().Flip(axes...)
	var all []int // the axes Flip flipped, resolved
	if len(axes) == 0 {
		for d := range t.l.shape {
			all = append(all, d)
		}
	} else {
		for _, a := range axes {
			all = append(all, t.axis("Flip", a))
		}
	}
	return recordGrad(out, "Flip", func(g *Tensor) []*Tensor {
		if len(all) == 0 {
			return []*Tensor{g}
		}
		return []*Tensor{g.Flip(all...)}
	}, t)
}

func gradContiguous(t *Tensor) *Tensor {
	return gradMove(t, "Contiguous", func(x *Tensor) *Tensor { return x.Contiguous() }, func(g *Tensor) *Tensor { return g })
}

func gradTo(t *Tensor, device string) *Tensor {
	src := t.l.dev.name
	return gradMove(t, "To", func(x *Tensor) *Tensor { return x.To(device) }, func(g *Tensor) *Tensor { return g.To(src) })
}

// gradReduce records a reduction: Sum spreads the gradient over the
// reduced axes; Max and Min give it to the elements equal to the result,
// split evenly between ties.
func gradReduce(t *Tensor, name string, rop ReduceOp, keep bool, axes []int) *Tensor {
	a := t.Detach()
	out := a.reduce(name, rop, keep, axes)
	o := out.Detach()
	src := t.l.shape
	kshape := slices.Clone(src)
	var rax []int
	for d := range src {
		if len(axes) == 0 || slices.ContainsFunc(axes, func(x int) bool { return t.axis(name, x) == d }) {
			kshape[d] = 1
			rax = append(rax, d)
		}
	}
	back := func(g *Tensor) []*Tensor {
		gk := g.Reshape(kshape...)
		if rop == ReduceSum || len(rax) == 0 {
			return []*Tensor{gk.Expand(src...)}
		}
		hit := a.Eq(o.Reshape(kshape...)).castTo(g.l.dtype)
		count := hit.SumKeepDim(rax...)
		return []*Tensor{hit.Mul(gk.Div(count))}
	}
	return recordGrad(out, name, back, t)
}

// gradMatmul records a matrix product: dA = g·Bᵀ and dB = Aᵀ·g (with 1-D
// operands as a row or a column, and batch axes summed where an operand
// was broadcast).
func gradMatmul(t, x *Tensor) *Tensor {
	a, b := gemmOperand(t.Detach()), gemmOperand(x.Detach())
	out := a.Matmul(b)
	back := func(g *Tensor) []*Tensor {
		a2, b2 := a, b
		if a2.Ndim() == 1 {
			a2 = a2.Unsqueeze(0)
		}
		if b2.Ndim() == 1 {
			b2 = b2.Unsqueeze(1)
		}
		batch := broadcastShape("Matmul", a2.l.shape[:a2.Ndim()-2], b2.l.shape[:b2.Ndim()-2])
		oshape := append(slices.Clone(batch), a2.l.shape[a2.Ndim()-2], b2.l.shape[b2.Ndim()-1])
		g2 := gemmOperand(g.Reshape(oshape...))
		ga := unbroadcast(g2.Matmul(b2.T()), a2.l.shape).Reshape(a.l.shape...)
		gb := unbroadcast(a2.T().Matmul(g2), b2.l.shape).Reshape(b.l.shape...)
		return []*Tensor{ga, gb}
	}
	return recordGrad(out, "Matmul", back, parentOf(t), parentOf(x))
}

// gemmOperand makes an operand of a differentiated matrix product that is
// an elementwise expression a kernel of its own, so the product reads it
// from memory and backends run it as a GEMM (ir.MatchGemm wants loads)
// instead of recomputing the expression K times per output element.
// (In a training step the products' operands are activations and
// gradients: relu(x·W + b), the masked gradient of a hidden layer.)
func gemmOperand(t *Tensor) *Tensor {
	if t.l.kind == kElem {
		t.l.keep = true
	}
	return t
}

func gradSoftmax(t *Tensor, axis int) *Tensor {
	out := t.Detach().Softmax(axis)
	s := out.Detach()
	return recordGrad(out, "Softmax", func(g *Tensor) []*Tensor {
		return []*Tensor{s.Mul(g.Sub(g.Mul(s).SumKeepDim(axis)))}
	}, t)
}

func gradLogSoftmax(t *Tensor, axis int) *Tensor {
	out := t.Detach().LogSoftmax(axis)
	o := out.Detach()
	return recordGrad(out, "LogSoftmax", func(g *Tensor) []*Tensor {
		return []*Tensor{g.Sub(o.Exp().Mul(g.SumKeepDim(axis)))}
	}, t)
}
