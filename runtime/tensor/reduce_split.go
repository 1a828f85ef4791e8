package tensor

// Reductions are restructured before scheduling so that every kernel
// reads memory in order with vector accumulators (on devices that fold
// lanes, device.LaneFolder: the CPU, W its FoldLanes; the C renderer's
// layouts are in runtime/render/c.go and c_reduce.go):
//
//   - a sum of everything (n elements, n a multiple of W, at least 2W)
//     becomes [P, n/(P·W), W] folded over the middle axis: P contiguous
//     blocks, each folded into W interleaved partials (partial w of block
//     p folds elements p·n/P + k·W + w in k order); P is splitParts from
//     splitReduceMin elements on (the blocks are spread over workers), else
//     1 (one pass on the calling thread, no hand-off). With P > 1 the P
//     partials of each lane are folded next, then the W lanes; with P = 1
//     the W lanes;
//   - a max or min of everything is split the same way only from
//     splitReduceMin on, for the workers: the renderer folds a max or min
//     in any order (it is the same whatever the order), so a smaller one
//     stays one kernel, one pass with vector accumulators;
//   - a sum over trailing axes (R elements per output, R a multiple of W,
//     at least 2W: rows of a softmax, Sum(-1) of a matrix) becomes [rows,
//     R/W, W] folded over the middle axis, then over the W partials (the
//     renderer folds those through in-register transposes, a block of rows
//     at a time). Shorter or odd rows, and maxima and minima of rows, stay
//     one kernel, folded row by row in order by the same transposes (so a
//     row's max or min is the GO device's, bit for bit, signed zeros
//     included).
//
// Each first-stage kernel's innermost axis is W contiguous elements: the
// renderer's tile of W accumulators walks memory in order (the GO device
// folds the same lanes, W = 64 too, in its assembly folds). Devices that
// fold no lanes iterate reduced axes innermost, so they read memory in
// order when each partial is a contiguous row: there a full reduction
// becomes goSplitParts contiguous partial folds and trailing folds stay one
// kernel. The fold order is fixed by the shape, never by the machine's core
// count, so every device of the same W and every run gives the same bits
// (the CPU and GO devices' float32 sums are the same bits); it differs from
// a sequential fold by rounding only (sums of float32 are then more
// accurate, as with numpy's pairwise sums).

const (
	splitParts     = 8       // blocks of a large full reduction
	splitReduceMin = 1 << 17 // full reductions from this size on are split into blocks (spread over workers)
	splitRowMin    = 2       // trailing reductions of fewer than this many lanes (R/W) stay one kernel
	goSplitParts   = 256     // contiguous partial folds of a full reduction on devices without lanes
)

// splitReduce returns the restructured reduction of src over rax (kshape:
// src's shape with the reduced axes set to 1), or nil when it does not
// apply: too small, not evenly divisible, or a reshape that would copy.
func splitReduce(src *Tensor, rop ReduceOp, kshape, rax []int) *Tensor {
	n := src.Numel()
	shape := src.l.shape
	W := src.l.dev.lanes // interleaved partials per block or row
	if W <= 0 {
		return splitRows(src, rop, kshape)
	}
	if prod(kshape) == 1 {
		switch {
		case n >= splitReduceMin && n%(splitParts*W) == 0:
			return splitFold(src, rop, []int{splitParts}, n/(splitParts*W), W, kshape)
		case rop == ReduceSum && n >= 2*W && n%W == 0: // one block: W accumulators instead of one
			return splitFold(src, rop, []int{1}, n/W, W, kshape)
		}
		return nil
	}
	// Trailing axes only: rax must be a suffix of the axes.
	nd := len(shape)
	if len(rax) == 0 || rax[len(rax)-1] != nd-1 {
		return nil
	}
	for i, a := range rax {
		if a != nd-len(rax)+i {
			return nil
		}
	}
	R := prod(shape[nd-len(rax):])
	if rop != ReduceSum || R < splitRowMin*W || R%W != 0 {
		return nil
	}
	return splitFold(src, rop, shape[:nd-len(rax)], R/W, W, kshape)
}

// splitFold folds src, reshaped to [lead..., k, W], over k and then over
// the W lanes, and reshapes the result to kshape.
func splitFold(src *Tensor, rop ReduceOp, lead []int, k, W int, kshape []int) *Tensor {
	s3 := append(append([]int(nil), lead...), k, W)
	if !reshapeIsFree(src.l, s3) {
		return nil
	}
	nd := len(s3)
	pshape := append(append([]int(nil), lead...), 1, W)
	parts := &lazy{kind: kReduce, shape: pshape, dtype: src.l.dtype, dev: src.l.dev, rop: rop, axes: []int{nd - 2},
		srcs: []*lazy{src.Reshape(s3...).l}}
	axes := []int{nd - 1}
	if len(kshape) == 0 || prod(kshape) == 1 {
		axes = make([]int, nd) // everything: the partials of every block
		for i := range axes {
			axes[i] = i
		}
		if rop == ReduceSum && len(lead) == 1 && lead[0] > 1 {
			// The blocks' partials lane by lane first (a vector fold), so
			// the last fold is over W values, not P·W.
			lanes := &lazy{kind: kReduce, shape: []int{1, 1, W}, dtype: src.l.dtype, dev: src.l.dev, rop: rop, axes: []int{0},
				srcs: []*lazy{parts}}
			all := &lazy{kind: kReduce, shape: []int{1, 1, 1}, dtype: src.l.dtype, dev: src.l.dev, rop: rop, axes: axes, srcs: []*lazy{lanes}}
			return (&Tensor{l: all}).Reshape(kshape...)
		}
	}
	oshape := append([]int(nil), pshape...)
	for _, a := range axes {
		oshape[a] = 1
	}
	all := &lazy{kind: kReduce, shape: oshape, dtype: src.l.dtype, dev: src.l.dev, rop: rop, axes: axes, srcs: []*lazy{parts}}
	return (&Tensor{l: all}).Reshape(kshape...)
}

// reshapeIsFree reports whether reshaping l to shape moves no data: every
// view it reads (through elementwise ops) can express the new shape.
func reshapeIsFree(l *lazy, shape []int) bool {
	switch l.kind {
	case kView:
		_, ok := l.view.Reshape(shape)
		return ok
	case kElem:
		if l.keep {
			return true // its own contiguous buffer
		}
		for _, s := range l.srcs {
			if !reshapeIsFree(s, shape) {
				return false
			}
		}
	}
	return true
}

// splitRows turns a full reduction into goSplitParts contiguous partial
// folds, then a fold of those, or returns nil.
func splitRows(src *Tensor, rop ReduceOp, kshape []int) *Tensor {
	n := src.Numel()
	if prod(kshape) != 1 || n < splitReduceMin || n%goSplitParts != 0 || !reshapeIsFree(src.l, []int{goSplitParts, n / goSplitParts}) {
		return nil
	}
	parts := &lazy{kind: kReduce, shape: []int{goSplitParts, 1}, dtype: src.l.dtype, dev: src.l.dev, rop: rop, axes: []int{1},
		srcs: []*lazy{src.Reshape(goSplitParts, n/goSplitParts).l}}
	all := &lazy{kind: kReduce, shape: []int{1, 1}, dtype: src.l.dtype, dev: src.l.dev, rop: rop, axes: []int{0, 1}, srcs: []*lazy{parts}}
	return (&Tensor{l: all}).Reshape(kshape...)
}
