package gobackend

import (
	"fmt"
	"github.com/tick-kernel/tick/runtime/ir"
)

// goCompiler turns a kernel's expression DAG into block closures.
type goCompiler struct {
	p       *goProgram
	memo    map[*ir.Node]any
	refs    map[*ir.Node]int
	loadIdx map[*ir.Node]int
	perm    []int // iteration order: kept axes, then reduced axes (or memory order for a lane fold)
	err     error
}

// layout computes the permuted, merged iteration shape and every load's
// strides in it.
func (c *goCompiler) layout() {
	k := c.p.k
	red := map[int]bool{}
	for _, a := range k.ReduceAxes {
		red[a] = true
	}
	if c.p.lane = laneFoldOf(k); c.p.lane != nil { // memory order (go_lanes.go)
		for d := range k.Shape {
			c.perm = append(c.perm, d)
		}
	} else {
		for d := range k.Shape {
			if !red[d] {
				c.perm = append(c.perm, d)
			}
		}
		c.perm = append(c.perm, k.ReduceAxes...)
	}
	shape := make([]int, len(c.perm))
	for i, d := range c.perm {
		shape[i] = k.Shape[d]
	}
	masked := false
	var loads []*ir.Node
	ir.Walk(k.Expr, func(n *ir.Node) {
		if n.Op == ir.OpLoad {
			loads = append(loads, n)
			if n.View.Mask != nil {
				masked = true
			}
		}
	})
	strides := make([][]int, len(loads))
	for i, n := range loads {
		strides[i] = make([]int, len(c.perm))
		for j, d := range c.perm {
			strides[i][j] = n.View.Strides[d]
		}
	}
	if !masked { // drop size-1 axes and merge axes every load walks in order
		var ms []int
		ls := make([][]int, len(loads))
		for j, n := range shape {
			if n == 1 {
				continue
			}
			last := len(ms) - 1
			merge := last >= 0
			for i := range loads {
				if merge && strides[i][j]*n != ls[i][last] {
					merge = false
				}
			}
			if merge {
				ms[last] *= n
				for i := range loads {
					ls[i][last] = strides[i][j]
				}
				continue
			}
			ms = append(ms, n)
			for i := range loads {
				ls[i] = append(ls[i], strides[i][j])
			}
		}
		if len(ms) == 0 || ir.Prod(shape) == 0 {
			ms = []int{ir.Prod(shape)}
			for i := range loads {
				ls[i] = []int{1}
			}
		}
		shape, strides = ms, ls
	}
	c.p.shape = shape
	cs := ir.ContiguousStrides(shape)
	for i, n := range loads {
		l := goLoad{buf: n.Buf, strides: strides[i], offset: n.View.Offset, slot: -1}
		if n.View.Mask != nil {
			l.mask = make([][2]int, len(c.perm))
			for j, d := range c.perm {
				l.mask[j] = n.View.Mask[d]
			}
		} else {
			l.dense = true
			for d, s := range l.strides {
				if shape[d] != 1 && s != cs[d] {
					l.dense = false
				}
			}
		}
		if !l.dense {
			l.slot = c.slot(n.DType)
		}
		c.loadIdx[n] = len(c.p.loads)
		c.p.loads = append(c.p.loads, l)
	}
}

func (c *goCompiler) slot(dt ir.DType) int {
	c.p.slots = append(c.p.slots, dt)
	return len(c.p.slots) - 1
}

// node compiles n (memoized); shared non-leaf nodes are evaluated once per block.
func (c *goCompiler) node(n *ir.Node) any {
	if f, ok := c.memo[n]; ok {
		return f
	}
	f := c.build(n)
	if f == nil && c.err == nil {
		c.err = fmt.Errorf("GO backend cannot compile %s on %s", n.Op, n.DType)
	}
	if c.refs[n] > 1 && n.Arity() > 0 && f != nil {
		m := c.p.nmemo
		c.p.nmemo++
		switch n.DType {
		case ir.Float32:
			f = memoEval(f.(evalFn[float32]), m)
		case ir.Float64:
			f = memoEval(f.(evalFn[float64]), m)
		case ir.Int32:
			f = memoEval(f.(evalFn[int32]), m)
		case ir.Bool:
			f = memoEval(f.(evalFn[bool]), m)
		}
	}
	c.memo[n] = f
	return f
}

func (c *goCompiler) build(n *ir.Node) any {
	switch n.Op {
	case ir.OpConst:
		switch n.DType {
		case ir.Float32:
			return constEval(float32(n.Value))
		case ir.Float64:
			return constEval(n.Value)
		case ir.Int32:
			return constEval(int32(n.Value))
		default:
			return constEval(n.Value != 0)
		}
	case ir.OpLoad:
		li := c.loadIdx[n]
		switch n.DType {
		case ir.Float32:
			return loadEval[float32](li, n.Buf)
		case ir.Float64:
			return loadEval[float64](li, n.Buf)
		case ir.Int32:
			return loadEval[int32](li, n.Buf)
		default:
			return loadEval[bool](li, n.Buf)
		}
	}
	srcs := make([]any, len(n.Src))
	for i, s := range n.Src {
		srcs[i] = c.node(s)
		if srcs[i] == nil {
			return nil
		}
	}
	slot := c.slot(n.DType)
	switch {
	case n.Op == ir.OpCast:
		return castEval(n.Src[0].DType, n.DType, srcs[0], slot)
	case n.Op == ir.OpNot:
		return notEval(srcs[0].(evalFn[bool]), slot)
	case n.Op == ir.OpWhere:
		cond := srcs[0].(evalFn[bool])
		switch n.DType {
		case ir.Float32:
			return whereEval(cond, srcs[1].(evalFn[float32]), srcs[2].(evalFn[float32]), slot)
		case ir.Float64:
			return whereEval(cond, srcs[1].(evalFn[float64]), srcs[2].(evalFn[float64]), slot)
		case ir.Int32:
			return whereEval(cond, srcs[1].(evalFn[int32]), srcs[2].(evalFn[int32]), slot)
		default:
			return whereEval(cond, srcs[1].(evalFn[bool]), srcs[2].(evalFn[bool]), slot)
		}
	case n.Op.Arity() == 1:
		switch n.DType {
		case ir.Float32:
			return nilIfNil(unaryFloat(n.Op, srcs[0].(evalFn[float32]), slot))
		case ir.Float64:
			return nilIfNil(unaryFloat(n.Op, srcs[0].(evalFn[float64]), slot))
		case ir.Int32:
			return nilIfNil(unaryNum(n.Op, srcs[0].(evalFn[int32]), slot))
		}
		return nil
	case n.Op.IsComparison():
		switch n.Src[0].DType {
		case ir.Float32:
			return cmpEval(n.Op, srcs[0].(evalFn[float32]), srcs[1].(evalFn[float32]), slot)
		case ir.Float64:
			return cmpEval(n.Op, srcs[0].(evalFn[float64]), srcs[1].(evalFn[float64]), slot)
		case ir.Int32:
			return cmpEval(n.Op, srcs[0].(evalFn[int32]), srcs[1].(evalFn[int32]), slot)
		default:
			return boolBin(n.Op, srcs[0].(evalFn[bool]), srcs[1].(evalFn[bool]), slot)
		}
	}
	switch n.DType {
	case ir.Float32:
		return binary32(c, n, srcs, slot)
	case ir.Float64:
		return nilIfNil(binNum(n.Op, srcs[0].(evalFn[float64]), srcs[1].(evalFn[float64]), slot, false))
	case ir.Int32:
		return nilIfNil(binNum(n.Op, srcs[0].(evalFn[int32]), srcs[1].(evalFn[int32]), slot, true))
	case ir.Bool:
		if n.Op == ir.OpMax || n.Op == ir.OpMin {
			return boolBin(n.Op, srcs[0].(evalFn[bool]), srcs[1].(evalFn[bool]), slot)
		}
	}
	return nil
}

// binary32 specializes float32 ops with a constant right operand.
func binary32(c *goCompiler, n *ir.Node, srcs []any, slot int) any {
	a := srcs[0].(evalFn[float32])
	if f := affine32(c, n, slot); f != nil {
		return f
	}
	if r := n.Src[1]; r.Op == ir.OpConst {
		if f := binConst(n.Op, a, float32(r.Value), slot); f != nil {
			return f
		}
	}
	if l := n.Src[0]; l.Op == ir.OpConst && (n.Op == ir.OpAdd || n.Op == ir.OpMul) {
		if f := binConst(n.Op, srcs[1].(evalFn[float32]), float32(l.Value), slot); f != nil {
			return f
		}
	}
	return nilIfNil(binNum(n.Op, a, srcs[1].(evalFn[float32]), slot, false))
}

// nilIfNil turns a typed nil closure into an untyped nil.
func nilIfNil[T any](f evalFn[T]) any {
	if f == nil {
		return nil
	}
	return f
}

func castEval(from, to ir.DType, a any, slot int) any {
	switch from {
	case ir.Float32:
		return castFrom(a.(evalFn[float32]), to, slot)
	case ir.Float64:
		return castFrom(a.(evalFn[float64]), to, slot)
	case ir.Int32:
		return castFrom(a.(evalFn[int32]), to, slot)
	}
	b := a.(evalFn[bool])
	switch to {
	case ir.Float32:
		return castFromBool[float32](b, slot)
	case ir.Float64:
		return castFromBool[float64](b, slot)
	case ir.Int32:
		return castFromBool[int32](b, slot)
	}
	return b
}

func castFrom[F num](a evalFn[F], to ir.DType, slot int) any {
	switch to {
	case ir.Float32:
		return castNum[F, float32](a, slot)
	case ir.Float64:
		return castNum[F, float64](a, slot)
	case ir.Int32:
		return castNum[F, int32](a, slot)
	}
	return castToBool(a, slot)
}

// affine32 compiles (x*m)+a and (x*m)-a with constants m, a, where x*m is
// used only here, as one pass (each step still rounds to float32, as if
// evaluated separately): the scale-and-shift of a*2+1 reads its input once.
func affine32(c *goCompiler, n *ir.Node, slot int) any {
	r, l := n.Src[1], n.Src[0]
	if (n.Op != ir.OpAdd && n.Op != ir.OpSub) || r.Op != ir.OpConst || l.Op != ir.OpMul || l.Src[1].Op != ir.OpConst || c.refs[l] > 1 {
		return nil
	}
	m, a := float32(l.Src[1].Value), float32(r.Value)
	if n.Op == ir.OpSub {
		a = -a
	}
	x := c.node(l.Src[0]).(evalFn[float32])
	return evalFn[float32](func(st *runState, g0, n int, dst []float32) []float32 {
		v := x(st, g0, n, nil)
		o := out(st, slot, n, dst)
		v = v[:len(o)]
		for i := range o {
			o[i] = float32(v[i]*m) + a
		}
		return o
	})
}
