package gobackend

// Float32 folds of the GO device. Accumulators are float32, rounded at
// every step as the IR's reference (irtest.Eval) and the CPU device's C
// do, so the GO device's sums are the CPU device's bits. Where the
// assembly folds run (fold_amd64.s, AVX2) lanes are folded eight at a time;
// each lane is still a sequential fold, so the results do not depend on
// them.

import (
	"math"

	"github.com/tick-kernel/tick/runtime/ir"
)

// fold32 is one step of rop: acc combined with x (max and min: the first
// NaN is kept, ties take x, as the C renderer's tick_maxf).
func fold32(rop ir.ReduceOp, acc, x float32) float32 {
	switch rop {
	case ir.ReduceMax:
		if !(acc > x || acc != acc) {
			return x
		}
		return acc
	case ir.ReduceMin:
		if !(acc < x || acc != acc) {
			return x
		}
		return acc
	}
	return acc + x
}

// init32 is the identity of rop.
func init32(rop ir.ReduceOp) float32 {
	switch rop {
	case ir.ReduceMax:
		return float32(math.Inf(-1))
	case ir.ReduceMin:
		return float32(math.Inf(1))
	}
	return 0
}

// foldLanes32 folds v[i] into acc[i] for every i < len(acc).
func foldLanes32(rop ir.ReduceOp, acc, v []float32) {
	v = v[:len(acc)]
	n := 0
	if haveFold && len(acc) >= 8 {
		n = len(acc) &^ 7
		switch rop {
		case ir.ReduceSum:
			addLanes32(&acc[0], &v[0], n)
		case ir.ReduceMax:
			maxLanes32(&acc[0], &v[0], n)
		case ir.ReduceMin:
			minLanes32(&acc[0], &v[0], n)
		}
	}
	for i := n; i < len(acc); i++ {
		acc[i] = fold32(rop, acc[i], v[i])
	}
}

// foldRows32 folds rows rows of len(acc) values into acc lane by lane, in
// row order; row r starts at x[r*stride]. Where the assembly runs the lanes
// go 64 at a time, in eight registers through a band of rows (about
// foldBand bytes, so the band's rows are read as a few streams and stay in
// cache while its column blocks are folded), then the next 64 lanes, then
// the next band; each lane still folds its rows in order.
func foldRows32(rop ir.ReduceOp, acc, x []float32, rows, stride int) {
	if rows <= 0 || len(acc) == 0 {
		return
	}
	_ = x[(rows-1)*stride+len(acc)-1]
	c := 0
	if haveFold && len(acc) >= 64 && stride >= 64 {
		band := max(8, foldBand/(4*stride))
		c = len(acc) &^ 63
		for r0 := 0; r0 < rows; r0 += band {
			n := min(band, rows-r0)
			for c0 := 0; c0 < c; c0 += 64 {
				rows64(rop, acc[c0:c0+64], x[r0*stride+c0:], n, stride)
			}
		}
	}
	if c == len(acc) {
		return
	}
	for r := 0; r < rows; r++ {
		foldLanes32(rop, acc[c:], x[r*stride+c:r*stride+len(acc)])
	}
}

// foldBand is the bytes of rows foldRows32 folds per pass over the lanes.
const foldBand = 64 << 10

// rows64 folds rows rows of 64 lanes (stride floats apart) into acc[:64]
// in the assembly: a max or min with one instruction per vector, folded
// again with the scalar rules (NaN kept) when it saw a NaN.
func rows64(rop ir.ReduceOp, acc, x []float32, rows, stride int) {
	var keep [64]float32
	switch rop {
	case ir.ReduceSum:
		sumRows64(&acc[0], &x[0], rows, stride)
	case ir.ReduceMax:
		copy(keep[:], acc)
		if maxRows64f(&acc[0], &x[0], rows, stride) {
			copy(acc, keep[:])
			maxRows64(&acc[0], &x[0], rows, stride)
		}
	case ir.ReduceMin:
		copy(keep[:], acc)
		if minRows64f(&acc[0], &x[0], rows, stride) {
			copy(acc, keep[:])
			minRows64(&acc[0], &x[0], rows, stride)
		}
	}
}

// foldSeg32 folds seg into acc in order. A max or min of 64 values or
// more runs vectorized in any order first: when the result is neither NaN
// nor zero it is the only value that compares so (no other bits compare
// equal to it), so it is the sequential fold's; otherwise (a NaN, whose
// payload, or a tie of +0 and -0, whose sign, depends on the order) the
// fold runs again in order.
func foldSeg32(rop ir.ReduceOp, acc float32, seg []float32) float32 {
	if rop == ir.ReduceSum {
		for _, x := range seg {
			acc += x
		}
		return acc
	}
	if acc != acc {
		return acc
	}
	if haveFold && len(seg) >= 64 {
		n := len(seg) &^ 31
		var lanes [8]float32
		var nan bool
		if rop == ir.ReduceMax {
			nan = maxAny32(&seg[0], n, &lanes)
		} else {
			nan = minAny32(&seg[0], n, &lanes)
		}
		if !nan {
			m := lanes[0]
			for _, x := range lanes[1:] {
				m = fold32(rop, m, x)
			}
			for _, x := range seg[n:] {
				m = fold32(rop, m, x)
			}
			if m == m && m != 0 {
				return fold32(rop, acc, m)
			}
		}
	}
	for _, x := range seg {
		acc = fold32(rop, acc, x)
	}
	return acc
}

// sumRows32 sets out[i] to the in-order float32 sum of x[i*r:(i+1)*r]
// for every i < len(out): eight rows at a time where the assembly runs
// (rows of a multiple of 8 through in-register transposes, others through
// gathers).
func sumRows32(out, x []float32, r int) {
	rows := len(out)
	if rows == 0 {
		return
	}
	_ = x[rows*r-1]
	done := 0
	if haveFold && r > 0 && rows >= 8 && int64(rows)*int64(r) < 1<<31 {
		done = rows &^ 7
		if r%8 == 0 { // eight columns at a time through a transpose
			sumSeqRowsT(&out[0], &x[0], done, r)
		} else {
			sumSeqRows(&out[0], &x[0], done, r)
		}
	}
	for i := done; i < rows; i++ {
		out[i] = foldSeg32(ir.ReduceSum, 0, x[i*r:(i+1)*r])
	}
}

// foldRowsAny32 sets out[i] to the max or min (rop) of row i of x, rows of
// r floats, through the any-order assembly (one call for all the rows),
// then folds again in order (foldSeg32) the rows where the order could
// show: every row when a NaN was seen, else a row whose result is ±0 (a
// tie of signed zeros). Any other result is the row's unique extreme
// value, the in-order fold's bits. It reports false, doing nothing,
// without the assembly, when r is not a multiple of 8, or outside [64,
// 128]: a shorter row is mostly the fold across its lanes, which the
// scalar loop does faster; a longer one is a chain of dependent VMAXPS on
// one register, where foldSeg32's maxAny32 keeps four (rows of 512, a
// split max's first stage, took 3× longer through here).
func foldRowsAny32(rop ir.ReduceOp, out, x []float32, r int) bool {
	if !haveFold || rop == ir.ReduceSum || r < 64 || r > 128 || r%8 != 0 || len(out) == 0 {
		return false
	}
	x = x[:len(out)*r]
	var nan bool
	if rop == ir.ReduceMax {
		nan = maxRowsAny32(&out[0], &x[0], len(out), r)
	} else {
		nan = minRowsAny32(&out[0], &x[0], len(out), r)
	}
	init := init32(rop)
	for i, m := range out {
		if nan || m == 0 {
			out[i] = foldSeg32(rop, init, x[i*r:(i+1)*r])
		}
	}
	return true
}
