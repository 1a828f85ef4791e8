package gobackend

// Block evaluators of the GO backend. Each expression node compiles to a
// closure that fills a typed block of up to goBlock elements, so interface
// dispatch happens once per block and the per-element work is a tight loop
// over typed slices. Children are evaluated into their own scratch blocks;
// the root writes into the destination it is given.

import (
	"github.com/tick-kernel/tick/runtime/ir"
	"math"
)

type num interface{ ~float32 | ~float64 | ~int32 }

type flt interface{ ~float32 | ~float64 }

// evalFn fills (and returns) the values of a node for positions [g0, g0+n)
// of the kernel's iteration order. dst, when non-nil, is where the caller
// wants them; the result may be another slice (a buffer slice for a
// contiguous load) which the caller then copies.
type evalFn[T any] func(st *runState, g0, n int, dst []T) []T

// out returns dst, or the node's scratch block.
func out[T any](st *runState, slot, n int, dst []T) []T {
	if dst != nil {
		return dst[:n]
	}
	return st.scr[slot].([]T)[:n]
}

func constEval[T any](v T) evalFn[T] {
	// Filled here, read-only afterwards: the program's blocks run on
	// several goroutines at once (host.Split), and a block filled on first
	// use was written by one while another read it (a data race -race
	// reported for a comparison with a constant over 1 Mi elements).
	blk := make([]T, goBlock)
	for i := range blk {
		blk[i] = v
	}
	return func(st *runState, g0, n int, dst []T) []T {
		return blk[:n]
	}
}

func loadEval[T any](li int, buf int) evalFn[T] {
	return func(st *runState, g0, n int, dst []T) []T {
		src := st.bufs[buf].([]T)
		l := &st.p.loads[li]
		if l.dense {
			return src[l.offset+g0 : l.offset+g0+n]
		}
		o := out(st, l.slot, n, dst)
		if l.mask == nil {
			gatherRuns(o, src, l, st.p.shape, st.coords, g0)
			return o
		}
		idx := st.idx[li][:n]
		valid := st.valid[li][:n]
		var zero T
		for i, a := range idx {
			if valid[i] {
				o[i] = src[a]
			} else {
				o[i] = zero
			}
		}
		return o
	}
}

// gatherRuns fills o with an unmasked load's values at positions [g0,
// g0+len(o)) of shape (c: scratch coordinates), run by run along the
// innermost axis: a broadcast value (stride 0: softmax's row maximum and
// sum) filled, a contiguous run copied, any other stride stepped, and the
// outer axes carried once per run instead of once per element.
func gatherRuns[T any](o, src []T, l *goLoad, shape, c []int, g0 int) {
	last := len(shape) - 1
	if last < 0 {
		for i := range o {
			o[i] = src[l.offset]
		}
		return
	}
	rem := g0
	for d := last; d >= 0; d-- {
		if shape[d] > 0 {
			c[d] = rem % shape[d]
			rem /= shape[d]
		}
	}
	addr := l.offset
	for d, x := range c {
		addr += x * l.strides[d]
	}
	s := l.strides[last]
	for i := 0; i < len(o); {
		run := min(shape[last]-c[last], len(o)-i)
		seg := o[i : i+run]
		switch s {
		case 0:
			v := src[addr]
			for j := range seg {
				seg[j] = v
			}
		case 1:
			copy(seg, src[addr:addr+run])
		default:
			a := addr
			for j := range seg {
				seg[j] = src[a]
				a += s
			}
		}
		i += run
		c[last] += run
		addr += run * s
		for d := last; c[d] == shape[d] && d > 0; d-- {
			addr -= l.strides[d] * shape[d]
			c[d] = 0
			c[d-1]++
			addr += l.strides[d-1]
		}
	}
}

// binConst handles x op c, the most common case of a*2+1.
func binConst[T num](op ir.Op, a evalFn[T], c T, slot int) evalFn[T] {
	switch op {
	case ir.OpAdd:
		return func(st *runState, g0, n int, dst []T) []T {
			x := a(st, g0, n, nil)
			o := out(st, slot, n, dst)
			x = x[:len(o)]
			for i := range o {
				o[i] = x[i] + c
			}
			return o
		}
	case ir.OpMul:
		return func(st *runState, g0, n int, dst []T) []T {
			x := a(st, g0, n, nil)
			o := out(st, slot, n, dst)
			x = x[:len(o)]
			for i := range o {
				o[i] = x[i] * c
			}
			return o
		}
	case ir.OpSub:
		return binConst(ir.OpAdd, a, -c, slot)
	}
	return nil
}

func binNum[T num](op ir.Op, a, b evalFn[T], slot int, isInt bool) evalFn[T] {
	f := selectBinary[T](op)
	switch {
	case f != nil:
	case op == ir.OpAdd:
		f = func(o, x, y []T) {
			for i := range o {
				o[i] = x[i] + y[i]
			}
		}
	case op == ir.OpSub:
		f = func(o, x, y []T) {
			for i := range o {
				o[i] = x[i] - y[i]
			}
		}
	case op == ir.OpMul:
		f = func(o, x, y []T) {
			for i := range o {
				o[i] = x[i] * y[i]
			}
		}
	case op == ir.OpDiv:
		f = func(o, x, y []T) {
			for i := range o {
				if isInt && y[i] == 0 {
					o[i] = 0
					continue
				}
				o[i] = x[i] / y[i]
			}
		}
	case op == ir.OpMax:
		f = func(o, x, y []T) {
			for i := range o {
				if x[i] > y[i] || x[i] != x[i] {
					o[i] = x[i]
				} else {
					o[i] = y[i]
				}
			}
		}
	case op == ir.OpMin:
		f = func(o, x, y []T) {
			for i := range o {
				if x[i] < y[i] || x[i] != x[i] {
					o[i] = x[i]
				} else {
					o[i] = y[i]
				}
			}
		}
	case op == ir.OpPow:
		f = func(o, x, y []T) {
			for i := range o {
				o[i] = T(math.Pow(float64(x[i]), float64(y[i])))
			}
		}
	default:
		return nil
	}
	return func(st *runState, g0, n int, dst []T) []T {
		x := a(st, g0, n, nil)
		y := b(st, g0, n, nil)
		o := out(st, slot, n, dst)
		f(o, x[:len(o)], y[:len(o)])
		return o
	}
}

func cmpEval[T num](op ir.Op, a, b evalFn[T], slot int) evalFn[bool] {
	var f func(o []bool, x, y []T)
	switch op {
	case ir.OpLt:
		f = func(o []bool, x, y []T) {
			for i := range o {
				o[i] = x[i] < y[i]
			}
		}
	case ir.OpLe:
		f = func(o []bool, x, y []T) {
			for i := range o {
				o[i] = x[i] <= y[i]
			}
		}
	case ir.OpGt:
		f = func(o []bool, x, y []T) {
			for i := range o {
				o[i] = x[i] > y[i]
			}
		}
	case ir.OpGe:
		f = func(o []bool, x, y []T) {
			for i := range o {
				o[i] = x[i] >= y[i]
			}
		}
	case ir.OpEq:
		f = func(o []bool, x, y []T) {
			for i := range o {
				o[i] = x[i] == y[i]
			}
		}
	default:
		f = func(o []bool, x, y []T) {
			for i := range o {
				o[i] = x[i] != y[i]
			}
		}
	}
	return func(st *runState, g0, n int, dst []bool) []bool {
		x := a(st, g0, n, nil)
		y := b(st, g0, n, nil)
		o := out(st, slot, n, dst)
		f(o, x[:len(o)], y[:len(o)])
		return o
	}
}

func boolBin(op ir.Op, a, b evalFn[bool], slot int) evalFn[bool] {
	return func(st *runState, g0, n int, dst []bool) []bool {
		x := a(st, g0, n, nil)
		y := b(st, g0, n, nil)
		o := out(st, slot, n, dst)
		for i := range o {
			switch op {
			case ir.OpEq:
				o[i] = x[i] == y[i]
			case ir.OpNe, ir.OpLt, ir.OpGt:
				o[i] = x[i] != y[i] && (op == ir.OpNe || (op == ir.OpLt) == y[i])
			case ir.OpMax:
				o[i] = x[i] || y[i]
			case ir.OpMin:
				o[i] = x[i] && y[i]
			case ir.OpLe:
				o[i] = !x[i] || y[i]
			case ir.OpGe:
				o[i] = x[i] || !y[i]
			}
		}
		return o
	}
}

func unaryNum[T num](op ir.Op, a evalFn[T], slot int) evalFn[T] {
	f := selectUnary[T](op)
	switch {
	case f != nil:
	case op == ir.OpNeg:
		f = func(o, x []T) {
			for i := range o {
				o[i] = -x[i]
			}
		}
	case op == ir.OpRelu:
		f = func(o, x []T) {
			for i := range o {
				if x[i] > 0 {
					o[i] = x[i]
				} else {
					o[i] = 0
				}
			}
		}
	case op == ir.OpAbs:
		f = func(o, x []T) {
			for i := range o {
				if x[i] < 0 {
					o[i] = -x[i]
				} else {
					o[i] = x[i]
				}
			}
		}
	default:
		return nil
	}
	return func(st *runState, g0, n int, dst []T) []T {
		x := a(st, g0, n, nil)
		o := out(st, slot, n, dst)
		f(o, x[:len(o)])
		return o
	}
}

func unaryFloat[T flt](op ir.Op, a evalFn[T], slot int) evalFn[T] {
	var f func(o, x []T)
	switch op {
	case ir.OpExp:
		f = func(o, x []T) {
			for i := range o {
				o[i] = T(math.Exp(float64(x[i])))
			}
		}
		if f32, ok := any(exp32s).(func(o, x []T)); ok { // float32: go_exp.go
			f = f32
		}
	case ir.OpLog:
		f = func(o, x []T) {
			for i := range o {
				o[i] = T(math.Log(float64(x[i])))
			}
		}
	case ir.OpSqrt:
		f = func(o, x []T) {
			for i := range o {
				o[i] = T(math.Sqrt(float64(x[i])))
			}
		}
	case ir.OpSin:
		f = func(o, x []T) {
			for i := range o {
				o[i] = T(math.Sin(float64(x[i])))
			}
		}
	case ir.OpCos:
		f = func(o, x []T) {
			for i := range o {
				o[i] = T(math.Cos(float64(x[i])))
			}
		}
	case ir.OpTanh:
		f = func(o, x []T) {
			for i := range o {
				o[i] = T(math.Tanh(float64(x[i])))
			}
		}
	case ir.OpSigmoid:
		f = func(o, x []T) {
			for i := range o {
				o[i] = T(1 / (1 + math.Exp(-float64(x[i]))))
			}
		}
	default:
		return unaryNum(op, a, slot)
	}
	return func(st *runState, g0, n int, dst []T) []T {
		x := a(st, g0, n, nil)
		o := out(st, slot, n, dst)
		f(o, x[:len(o)])
		return o
	}
}

func whereEval[T any](c evalFn[bool], a, b evalFn[T], slot int) evalFn[T] {
	sel := selectWhere[T]()
	return func(st *runState, g0, n int, dst []T) []T {
		m := c(st, g0, n, nil)
		x := a(st, g0, n, nil)
		y := b(st, g0, n, nil)
		o := out(st, slot, n, dst)
		if sel != nil {
			sel(o, m, x, y)
			return o
		}
		m, x, y = m[:len(o)], x[:len(o)], y[:len(o)]
		for i := range o {
			if m[i] {
				o[i] = x[i]
			} else {
				o[i] = y[i]
			}
		}
		return o
	}
}

func castNum[F, T num](a evalFn[F], slot int) evalFn[T] {
	return func(st *runState, g0, n int, dst []T) []T {
		x := a(st, g0, n, nil)
		o := out(st, slot, n, dst)
		x = x[:len(o)]
		for i := range o {
			o[i] = T(x[i])
		}
		return o
	}
}

func castToBool[F num](a evalFn[F], slot int) evalFn[bool] {
	return func(st *runState, g0, n int, dst []bool) []bool {
		x := a(st, g0, n, nil)
		o := out(st, slot, n, dst)
		x = x[:len(o)]
		for i := range o {
			o[i] = x[i] != 0
		}
		return o
	}
}

func castFromBool[T num](a evalFn[bool], slot int) evalFn[T] {
	return func(st *runState, g0, n int, dst []T) []T {
		x := a(st, g0, n, nil)
		o := out(st, slot, n, dst)
		x = x[:len(o)]
		for i := range o {
			if x[i] {
				o[i] = 1
			} else {
				o[i] = 0
			}
		}
		return o
	}
}

func notEval(a evalFn[bool], slot int) evalFn[bool] {
	return func(st *runState, g0, n int, dst []bool) []bool {
		x := a(st, g0, n, nil)
		o := out(st, slot, n, dst)
		x = x[:len(o)]
		for i := range o {
			o[i] = !x[i]
		}
		return o
	}
}

// memoEval evaluates a shared node once per block.
func memoEval[T any](f evalFn[T], m int) evalFn[T] {
	return func(st *runState, g0, n int, dst []T) []T {
		if st.memoG[m] == g0 && st.memoN[m] == n {
			return st.memoV[m].([]T)
		}
		v := f(st, g0, n, nil)
		st.memoG[m], st.memoN[m], st.memoV[m] = g0, n, v
		return v
	}
}
