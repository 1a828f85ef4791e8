package gobackend

// Lane folds of the GO backend. A reduce over one axis followed by kept
// axes (Sum(0) of a matrix: [K, W] folded over K) is evaluated in memory
// order, not with the reduced axis innermost: for each of the K positions
// the kernel's expression fills a contiguous block of up to W outputs'
// values (dense loads, no gather), folded into one accumulator per output.
// Each output still folds its values in k order, so results are the same as
// the generic path's.

import (
	"github.com/tick-kernel/tick/runtime/ir"
	"math"
)

// goLane describes a kernel of shape [lead..., K, W...] reducing axis K.
type goLane struct {
	lead, K, W int
}

// goLaneMin is the number of kept outputs after the reduced axis from which
// a lane fold beats gathering (each evaluation covers at least this many).
const goLaneMin = 64

// laneFoldOf returns the lane layout of k, or nil when k reduces several
// axes, nothing follows its reduced axis, or too little does.
func laneFoldOf(k *ir.Kernel) *goLane {
	if k.Reduce == ir.ReduceNone || len(k.ReduceAxes) != 1 {
		return nil
	}
	r := k.ReduceAxes[0]
	if r >= len(k.Shape)-1 {
		return nil
	}
	l := &goLane{lead: ir.Prod(k.Shape[:r]), K: k.Shape[r], W: ir.Prod(k.Shape[r+1:])}
	if l.W < goLaneMin || l.K == 0 {
		return nil
	}
	return l
}

// makeLaneRun returns the run function of a lane-folded kernel: outputs
// [start, end), row by row of W outputs.
func makeLaneRun[T num](root evalFn[T], rop ir.ReduceOp, l *goLane) func(st *runState, start, end int) {
	init := 0.0
	switch rop {
	case ir.ReduceMax:
		init = math.Inf(-1)
	case ir.ReduceMin:
		init = math.Inf(1)
	}
	return func(st *runState, start, end int) {
		o := st.bufs[0].([]T)
		if len(st.acc) < l.W {
			st.acc = make([]float64, l.W)
		}
		for li := start / l.W; li*l.W < end; li++ {
			lo, hi := max(start-li*l.W, 0), min(end-li*l.W, l.W)
			acc := st.acc[lo:hi]
			for i := range acc {
				acc[i] = init
			}
			l.foldRowBlocks(st, li, lo, hi, func(c0, n, g int) { foldLanes(rop, st.acc[c0:c0+n], root(st, g, n, nil)) })
			for i, a := range acc {
				o[li*l.W+lo+i] = T(clampInit[T](a))
			}
		}
	}
}

// foldLanes folds v[i] into acc[i], as foldSeg folds one value.
func foldLanes[T num](rop ir.ReduceOp, acc []float64, v []T) {
	v = v[:len(acc)]
	switch rop {
	case ir.ReduceSum:
		for i, x := range v {
			acc[i] += float64(x)
		}
	case ir.ReduceMax:
		for i, x := range v {
			if f, a := float64(x), acc[i]; !(a > f || a != a) {
				acc[i] = f
			}
		}
	case ir.ReduceMin:
		for i, x := range v {
			if f, a := float64(x), acc[i]; !(a < f || a != a) {
				acc[i] = f
			}
		}
	}
}

// makeLaneRun32 is makeLaneRun for float32: float32 accumulators, fold.go's
// lane folds, whole rows of W evaluated several at a time (up to goBlock
// values per evaluation), and a kernel that only reads one buffer in order
// folded from it in place.
func makeLaneRun32(root evalFn[float32], rop ir.ReduceOp, l *goLane, dense *goLoad) func(st *runState, start, end int) {
	init := init32(rop)
	return func(st *runState, start, end int) {
		o := st.bufs[0].([]float32)
		if len(st.acc32) < l.W {
			st.acc32 = make([]float32, l.W)
		}
		for li := start / l.W; li*l.W < end; li++ {
			lo, hi := max(start-li*l.W, 0), min(end-li*l.W, l.W)
			if nb := (end - li*l.W) / 64; dense != nil && rop == ir.ReduceSum && haveFold && l.W == 64 && lo == 0 && nb > 0 {
				// Whole rows of 64 lanes (a split sum's first stage): nb of
				// them folded in one call, each from zero in its registers.
				src := st.bufs[dense.buf].([]float32)
				b := dense.offset + li*l.K*64
				_, _ = src[b+nb*l.K*64-1], o[(li+nb)*64-1]
				sumBlocks64(&o[li*64], &src[b], nb, l.K)
				li += nb - 1
				continue
			}
			acc := st.acc32[lo:hi]
			for i := range acc {
				acc[i] = init
			}
			switch {
			case dense != nil:
				src := st.bufs[dense.buf].([]float32)
				foldRows32(rop, acc, src[dense.offset+li*l.K*l.W+lo:], l.K, l.W)
			case lo == 0 && hi == l.W && l.W <= goBlock:
				per := goBlock / l.W // rows per evaluation
				for k := 0; k < l.K; k += per {
					rows := min(per, l.K-k)
					g := (li*l.K + k) * l.W
					st.prepare(g, rows*l.W)
					v := root(st, g, rows*l.W, nil)
					for r := 0; r < rows; r++ {
						foldLanes32(rop, acc, v[r*l.W:(r+1)*l.W])
					}
				}
			default:
				l.foldRowBlocks(st, li, lo, hi, func(c0, n, g int) { foldLanes32(rop, st.acc32[c0:c0+n], root(st, g, n, nil)) })
			}
			copy(o[li*l.W+lo:li*l.W+hi], acc)
		}
	}
}

// foldRowBlocks calls fold for each row k of lane row li, in k order, on
// blocks of up to goBlock of its lanes [lo, hi): c0 is the first lane, n
// the block's length and g its first position, prepared for evaluation.
func (l *goLane) foldRowBlocks(st *runState, li, lo, hi int, fold func(c0, n, g int)) {
	for k := 0; k < l.K; k++ {
		for c0 := lo; c0 < hi; c0 += goBlock {
			n := min(goBlock, hi-c0)
			g := (li*l.K+k)*l.W + c0
			st.prepare(g, n)
			fold(c0, n, g)
		}
	}
}
