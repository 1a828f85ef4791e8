package render

// Three reduce layouts besides c.go's tile of accumulators along a
// contiguous output axis:
//
//   - a whole max or min (one output, every element folded) runs with eight
//     vector accumulators over the flattened input, combined at the end
//     (fullFold). A max or min is the same whatever the order (NaN still
//     propagates; only which of +0 and -0 a tie of zeros returns can
//     differ from a sequential fold), so it needs no restructuring by the
//     runtime, and a small one is one pass with no second kernel. It folds
//     with the CPU's max/min instruction and again with the exact select
//     only when a value was NaN (reduceVector's quick fold);
//   - a max or min along a contiguous axis of rows of at least rowFoldMin
//     (Max(1) of a matrix) reads each row in order into a few vector
//     accumulators with the CPU's max/min instruction and finds the two
//     cases where the bits depend on the order, a NaN and a result of
//     zero, with a scan of that row (reduceRows): bit for bit the
//     in-order fold, at the speed of a whole max;
//   - any other fold along a contiguous axis into outputs that are not
//     contiguous in the input (the rows of a matrix: Sum(1), the per-row
//     partials of a split sum, short rows' maxima) loads blocks of LN rows × LN
//     columns (LN vector lanes), transposes them in registers and folds
//     column after column into one vector whose lane l is row l
//     (reduceTransposed): each row is folded in the IR's order, so results
//     are bit for bit the scalar loop's, at vector speed, reading every row
//     in order.

import (
	"fmt"
	"strings"

	"github.com/tick-kernel/tick/runtime/ir"
)

// vectorOps reports whether every node of e is one the vector helpers
// compute lane for lane like the scalar code, all of dtype dt.
func vectorOps(e *ir.Node, dt ir.DType) bool {
	ok := true
	ir.Walk(e, func(n *ir.Node) {
		ok = ok && (n.Op == ir.OpLoad || vectorOp(n.Op, dt)) && n.DType == dt
	})
	return ok
}

// vectorOp reports whether the vector helpers compute op on dtype dt lane
// for lane like the scalar code: +, -, *, /, negation, max, min, relu and
// constants, and float32 exp and sigmoid (tick_vf_exp, c_exp.go).
func vectorOp(op ir.Op, dt ir.DType) bool {
	switch op {
	case ir.OpConst, ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpNeg, ir.OpMax, ir.OpMin, ir.OpRelu:
		return true
	case ir.OpExp, ir.OpSigmoid:
		return dt == ir.Float32
	}
	return false
}

// vecOf is the vector type of a float dtype.
func vecOf(dt ir.DType) string {
	if dt == ir.Float64 {
		return "tick_vd"
	}
	return "tick_vf"
}

// fullFold renders k as fullFold's eight-accumulator max or min and
// returns true, or returns false (nothing written) when k is not one: a
// float max or min of the vector ops into one output whose loads are each
// contiguous over the whole iteration space (in row-major order) or
// constant, unmasked.
func (r *cRender) fullFold(sb *strings.Builder, symbol string) bool {
	k := r.k
	dt := k.Expr.DType
	if (k.Reduce != ir.ReduceMax && k.Reduce != ir.ReduceMin) || !dt.IsFloat() || k.Bufs[0].DType != dt ||
		k.OutSize() != 1 || !vectorOps(k.Expr, dt) {
		return false
	}
	n := ir.Prod(k.Shape)
	cs := ir.ContiguousStrides(k.Shape)
	flat := map[*ir.Node]bool{} // true: contiguous; false: constant
	for _, li := range r.list {
		contig, constant := true, true
		for d, s := range k.Shape {
			if s == 1 {
				continue
			}
			contig = contig && li.strides[d] == cs[d]
			constant = constant && li.strides[d] == 0
			if !li.fullMask(d, s) {
				return false
			}
		}
		if !contig && !constant {
			return false
		}
		flat[li.n] = contig
	}
	vec := vecOf(dt)
	lanes := fmt.Sprintf("(int64_t)(TICK_VB / %d)", dt.Size())
	fmt.Fprintf(sb, "void %s(void **bufs, int64_t start, int64_t end) {\n", symbol)
	r.bufDecls(sb)
	fmt.Fprintf(sb, "\tif (start >= end) return;\n\tconst int64_t N = %d, LN = %s;\n", n, lanes)
	vi := "tick_vfi"
	if vec == "tick_vd" {
		vi = "tick_vdi"
	}
	fmt.Fprintf(sb, "\t%s a[8];\n\tint64_t j = 0;\n", vec)
	initAcc := fmt.Sprintf("\tfor (int u = 0; u < 8; u++) a[u] = TICK_VBCAST(%s, %s);\n\tj = 0;\n", vec, r.identity())
	// step folds the value at index at into acc: exactly (quick false), or
	// with the CPU's max/min noting a NaN (quick true; see reduceVector).
	step := func(acc, at string, quick bool) {
		r.vec, r.temps = vec, map[*ir.Node]string{}
		r.body.Reset()
		for _, li := range r.list {
			if flat[li.n] {
				r.temps[li.n] = fmt.Sprintf("%s_ld(&b%d[%d + %s])", vec, li.n.Buf, li.n.View.Offset, at)
			} else {
				r.temps[li.n] = fmt.Sprintf("TICK_VBCAST(%s, b%d[%d])", vec, li.n.Buf, li.n.View.Offset)
			}
		}
		v := r.expr(k.Expr)
		sb.WriteString(r.body.String())
		if quick { // q(acc, v) is NaN exactly when v is: MAXPS returns its second operand on NaN
			fmt.Fprintf(sb, "\t\t\t%s = %s(%s, %s);\n\t\t\ttick_nan |= (%s)(%s != %s);\n", acc, r.quickFold(vec), acc, v, vi, acc, acc)
			return
		}
		fmt.Fprintf(sb, "\t\t\t%s = %s;\n", acc, r.fold(acc, v))
	}
	loops := func(quick bool) {
		sb.WriteString(initAcc)
		sb.WriteString("\tfor (; j + 8 * LN <= N; j += 8 * LN)\n\t\tfor (int u = 0; u < 8; u++) {\n\t\t\tconst int64_t jj = j + u * LN;\n")
		step("a[u]", "jj", quick)
		sb.WriteString("\t\t}\n\tfor (; j + LN <= N; j += LN) {\n")
		step("a[0]", "j", quick)
		sb.WriteString("\t}\n")
	}
	// The quick fold first where the target has one; again exactly if a
	// value was NaN (the same accumulators, so the same bits either way).
	fmt.Fprintf(sb, "\tint tick_exact = 1;\n#ifdef TICK_IEEE_MINMAX\n\t{\n\t%s tick_nan = {};\n", vi)
	loops(true)
	sb.WriteString("\ttick_exact = 0;\n\tfor (int64_t l = 0; l < LN; l++) tick_exact |= tick_nan[l] != 0;\n\t}\n#endif\n\tif (tick_exact) {\n")
	loops(false)
	sb.WriteString("\t}\n")
	fmt.Fprintf(sb, "\tfor (int u = 1; u < 8; u++) a[0] = %s;\n", r.fold("a[0]", "a[u]"))
	// The lanes, then the tail, in scalar code.
	r.vec, r.temps = "", map[*ir.Node]string{}
	r.body.Reset()
	acc := cTypes[dt]
	fmt.Fprintf(sb, "\t%s acc = %s;\n\tfor (int64_t l = 0; l < LN; l++) acc = %s;\n", acc, r.identity(), r.fold("acc", "a[0][l]"))
	for _, li := range r.list {
		if flat[li.n] {
			r.temps[li.n] = fmt.Sprintf("b%d[%d + j]", li.n.Buf, li.n.View.Offset)
		} else {
			r.temps[li.n] = fmt.Sprintf("b%d[%d]", li.n.Buf, li.n.View.Offset)
		}
	}
	v := r.expr(k.Expr)
	fmt.Fprintf(sb, "\tfor (; j < N; j++) {\n%s\t\tacc = %s;\n\t}\n", r.body.String(), r.fold("acc", v))
	fmt.Fprintf(sb, "\tb0[0] = %s;\n}\n", r.store("acc"))
	r.temps = map[*ir.Node]string{}
	r.body.Reset()
	return true
}

// transposable returns the vector type reduceTransposed can use for a fold
// with outputs along axis L, or "": a float fold of the vector ops over
// one axis a, every load either contiguous along a (any stride along L:
// the rows, transposed in blocks) or constant along a (a value per output,
// stride 0 or any along L), unmasked on L and a.
func (r *cRender) transposable(L int) string {
	k := r.k
	dt := k.Expr.DType
	if L < 0 || len(k.ReduceAxes) != 1 || !dt.IsFloat() || k.Bufs[0].DType != dt || !vectorOps(k.Expr, dt) {
		return ""
	}
	a := k.ReduceAxes[0]
	rows := false
	for _, li := range r.list {
		if !li.fullMask(L, k.Shape[L]) || !li.fullMask(a, k.Shape[a]) {
			return ""
		}
		switch li.strides[a] {
		case 1:
			rows = rows || li.strides[L] != 0
		case 0:
		default:
			return ""
		}
	}
	if !rows { // nothing to transpose: the tile along L serves
		return ""
	}
	return vecOf(dt)
}

// reduceTransposed emits, inside tick_seg, the fold of the outputs j0..j1
// in blocks of LN (lanes): for each block, columns in groups of LN are
// loaded row by row, transposed (tick_tr) and folded in column order into
// one accumulator vector; remaining columns are gathered lane by lane.
// Outputs left over (fewer than LN) fall through to the scalar tile that
// follows, with j0 and i moved past the blocks done.
func (r *cRender) reduceTransposed(sb *strings.Builder, vec string, rowAxes []int, L int) {
	k := r.k
	a := k.ReduceAxes[0]
	R := k.Shape[a]
	sz := k.Expr.DType.Size()
	fmt.Fprintf(sb, "\t\t{\n\t\tconst int64_t LN = TICK_VB / %d;\n", sz)
	for i, li := range r.list {
		base := fmt.Sprint(li.n.View.Offset)
		for _, d := range rowAxes {
			if li.strides[d] != 0 {
				base += fmt.Sprintf(" + i%d*%d", d, li.strides[d])
			}
		}
		fmt.Fprintf(sb, "\t\tconst int64_t tb%d = %s;\n", i, base)
	}
	fmt.Fprintf(sb, "\t\tint64_t jb = j0;\n\t\tfor (; jb + LN <= j1; jb += LN) {\n")
	fmt.Fprintf(sb, "\t\t\t%s acc = TICK_VBCAST(%s, %s);\n", vec, vec, r.identity())
	// Values per output (constant along a), once per block.
	perRow := map[*ir.Node]string{}
	for i, li := range r.list {
		if li.strides[a] != 0 {
			continue
		}
		s := li.strides[L]
		name := fmt.Sprintf("pr%d", i)
		switch s {
		case 0:
			fmt.Fprintf(sb, "\t\t\tconst %s %s = TICK_VBCAST(%s, b%d[tb%d]);\n", vec, name, vec, li.n.Buf, i)
		case 1:
			fmt.Fprintf(sb, "\t\t\tconst %s %s = %s_ld(&b%d[tb%d + jb]);\n", vec, name, vec, li.n.Buf, i)
		default:
			fmt.Fprintf(sb, "\t\t\t%s %s;\n\t\t\tfor (int l = 0; l < LN; l++) %s[l] = b%d[tb%d + (jb + l) * %d];\n", vec, name, name, li.n.Buf, i, s)
		}
		perRow[li.n] = name
	}
	fold := func(bind func(i int, li *loadInfo) string, indent string) {
		r.vec, r.temps = vec, map[*ir.Node]string{}
		r.body.Reset()
		for i, li := range r.list {
			if p, ok := perRow[li.n]; ok {
				r.temps[li.n] = p
			} else {
				r.temps[li.n] = bind(i, li)
			}
		}
		v := r.expr(k.Expr)
		sb.WriteString(strings.ReplaceAll(r.body.String(), "\t\t\t", indent))
		fmt.Fprintf(sb, "%sacc = %s;\n", indent, r.fold("acc", v))
	}
	sb.WriteString("\t\t\tint64_t kk = 0;\n\t\t\tfor (; kk + LN <= " + fmt.Sprint(R) + "; kk += LN) {\n")
	for i, li := range r.list {
		if _, ok := perRow[li.n]; ok || li.strides[L] == 0 {
			continue
		}
		fmt.Fprintf(sb, "\t\t\t\t%s t%d[TICK_VB / %d];\n", vec, i, sz)
		fmt.Fprintf(sb, "\t\t\t\tfor (int l = 0; l < LN; l++) t%d[l] = %s_ld(&b%d[tb%d + (jb + l) * %d + kk]);\n", i, vec, li.n.Buf, i, li.strides[L])
		fmt.Fprintf(sb, "\t\t\t\t%s_tr(t%d);\n", vec, i)
	}
	sb.WriteString("\t\t\t\tfor (int m = 0; m < LN; m++) {\n")
	fold(func(i int, li *loadInfo) string {
		if li.strides[L] == 0 { // the same row for every output: a broadcast per column
			return fmt.Sprintf("TICK_VBCAST(%s, b%d[tb%d + kk + m])", vec, li.n.Buf, i)
		}
		return fmt.Sprintf("t%d[m]", i)
	}, "\t\t\t\t\t")
	sb.WriteString("\t\t\t\t}\n\t\t\t}\n\t\t\tfor (; kk < " + fmt.Sprint(R) + "; kk++) {\n")
	for i, li := range r.list {
		if _, ok := perRow[li.n]; ok || li.strides[L] == 0 {
			continue
		}
		fmt.Fprintf(sb, "\t\t\t\t%s c%d;\n\t\t\t\tfor (int l = 0; l < LN; l++) c%d[l] = b%d[tb%d + (jb + l) * %d + kk];\n", vec, i, i, li.n.Buf, i, li.strides[L])
	}
	fold(func(i int, li *loadInfo) string {
		if li.strides[L] == 0 {
			return fmt.Sprintf("TICK_VBCAST(%s, b%d[tb%d + kk])", vec, li.n.Buf, i)
		}
		return fmt.Sprintf("c%d", i)
	}, "\t\t\t\t")
	sb.WriteString("\t\t\t}\n")
	sb.WriteString("\t\t\t__builtin_memcpy(&b0[i + (jb - j0)], &acc, sizeof acc);\n\t\t}\n")
	sb.WriteString("\t\ti += jb - j0;\n\t\tj0 = jb;\n\t\t}\n")
	r.vec, r.temps = "", map[*ir.Node]string{}
	r.body.Reset()
}

// transposePrelude defines tick_vf_tr and tick_vd_tr: the in-register
// transpose of LN vectors of LN lanes (v[c][r] = v[r][c] afterwards), for
// each vector width TICK_VB may be. Stage s swaps bit s of the vector
// index with bit s of the lane index, with two-input shuffles the compiler
// maps to the target's permutes (vpermt2ps on AVX-512).
func transposePrelude() string {
	var sb strings.Builder
	for i, vb := range []int{64, 32, 16, 8} {
		if i == 0 {
			fmt.Fprintf(&sb, "#if TICK_VB == %d\n", vb)
		} else {
			fmt.Fprintf(&sb, "#elif TICK_VB == %d\n", vb)
		}
		for _, t := range []struct {
			vec, mask string
			size      int
		}{{"tick_vf", "tick_vfi", 4}, {"tick_vd", "tick_vdi", 8}} {
			transposeFunc(&sb, t.vec, t.mask, vb/t.size)
		}
	}
	sb.WriteString("#endif\n")
	return sb.String()
}

// transposeFunc writes the transpose of ln vectors of ln lanes.
func transposeFunc(sb *strings.Builder, vec, mask string, ln int) {
	fmt.Fprintf(sb, "static inline void %s_tr(%s *v) {\n", vec, vec)
	if ln == 1 {
		sb.WriteString("\t(void)v;\n}\n")
		return
	}
	fmt.Fprintf(sb, "\t%s t[%d];\n", vec, ln)
	src, dst := "v", "t"
	for s := 1; s < ln; s *= 2 {
		lo, hi := make([]string, ln), make([]string, ln)
		for p := 0; p < ln; p++ {
			off := 0
			if p&s != 0 {
				off = ln
			}
			lo[p] = fmt.Sprint(off + p&^s)
			hi[p] = fmt.Sprint(off + p | s)
		}
		ml, mh := strings.Join(lo, ","), strings.Join(hi, ",")
		for i := 0; i < ln; i++ {
			if i&s != 0 {
				continue
			}
			fmt.Fprintf(sb, "\t%s[%d] = __builtin_shuffle(%s[%d], %s[%d], (%s){%s});\n", dst, i, src, i, src, i+s, mask, ml)
			fmt.Fprintf(sb, "\t%s[%d] = __builtin_shuffle(%s[%d], %s[%d], (%s){%s});\n", dst, i+s, src, i, src, i+s, mask, mh)
		}
		src, dst = dst, src
	}
	if src != "v" {
		fmt.Fprintf(sb, "\tfor (int i = 0; i < %d; i++) v[i] = t[i];\n", ln)
	}
	sb.WriteString("}\n")
}

// rowFoldMin is the shortest row (reduced axis) a max or min along rows
// folds with reduceRows rather than reduceTransposed.
const rowFoldMin = 64

// rowFoldAcc is the number of vector accumulators reduceRows keeps per row.
const rowFoldAcc = 4

// rowFoldable reports whether reduceRows renders a transposable fold (vec,
// from transposable): a float max or min over rows of at least rowFoldMin.
func (r *cRender) rowFoldable(vec string) bool {
	k := r.k
	return vec != "" && (k.Reduce == ir.ReduceMax || k.Reduce == ir.ReduceMin) && k.Shape[k.ReduceAxes[0]] >= rowFoldMin
}

// reduceRows emits, inside tick_seg, a max or min of each output's row
// j0..j1 read in order with rowFoldAcc vector accumulators and the CPU's
// max/min instruction (the quick fold of reduceVector), no transposes, the
// accumulators folded at the end through hfoldPrelude's shuffles. The
// value of a max or min does not depend on the order; its bits do only in
// two cases, both found exactly afterwards:
//
//   - a NaN: the in-order fold returns the first NaN (the accumulator keeps
//     a NaN once it has one), so a row with any NaN is scanned from its
//     start for the first. The quick step acc = q(acc, x) is NaN exactly
//     when x is (x86's MAXPS returns its second operand on NaN; elsewhere
//     the select acc > x ? acc : x), so one compare of the accumulator
//     with itself per vector notes it;
//   - a maximum (minimum) of zero: the in-order fold keeps the later of
//     two equal values (acc > v ? acc : v), so the result is the row's last
//     zero, +0 or -0: a row whose result compares equal to 0 is scanned
//     from its end for the last zero.
//
// Any other result has one bit pattern, the in-order fold's.
func (r *cRender) reduceRows(sb *strings.Builder, vec string, rowAxes []int, L int) {
	k := r.k
	a := k.ReduceAxes[0]
	R := k.Shape[a]
	dt := k.Expr.DType
	sz := dt.Size()
	vi, q, cmp := "tick_vfi", "max", ">"
	if vec == "tick_vd" {
		vi = "tick_vdi"
	}
	if k.Reduce == ir.ReduceMin {
		q, cmp = "min", "<"
	}
	scalar := cTypes[dt]
	// TICK_QF: the quick fold, the CPU's instruction where it has the
	// semantics acc > v ? acc : v (not NaN's), else that select.
	fmt.Fprintf(sb, "#ifdef TICK_IEEE_MINMAX\n#define TICK_QF(a, b) %s_%sq(a, b)\n#else\n", vec, q)
	fmt.Fprintf(sb, "#define TICK_QF(a, b) TICK_VSEL(%s, %s, (a) %s (b), a, b)\n#endif\n", vec, vi, cmp)
	fmt.Fprintf(sb, "\t\t{\n\t\tconst int64_t LN = TICK_VB / %d, R = %d;\n", sz, R)
	for i, li := range r.list {
		base := fmt.Sprint(li.n.View.Offset)
		for _, d := range rowAxes {
			if li.strides[d] != 0 {
				base += fmt.Sprintf(" + i%d*%d", d, li.strides[d])
			}
		}
		fmt.Fprintf(sb, "\t\tconst int64_t tb%d = %s;\n", i, base)
	}
	sb.WriteString("\t\tfor (int64_t j = j0; j < j1; j++) {\n")
	// Each load's row (stride 1 along a) or value (stride 0) for output j.
	for i, li := range r.list {
		if li.strides[a] == 1 {
			fmt.Fprintf(sb, "\t\t\tconst %s *restrict rw%d = &b%d[tb%d + j * %d];\n", scalar, i, li.n.Buf, i, li.strides[L])
		} else {
			fmt.Fprintf(sb, "\t\t\tconst %s sv%d = b%d[tb%d + j * %d];\n", scalar, i, li.n.Buf, i, li.strides[L])
		}
	}
	// body binds the loads at column at (vector or scalar) and returns the
	// statements and the value's name.
	body := func(v, at, indent string) (string, string) {
		r.vec, r.temps = v, map[*ir.Node]string{}
		r.body.Reset()
		for i, li := range r.list {
			switch {
			case li.strides[a] == 1 && v != "":
				r.temps[li.n] = fmt.Sprintf("%s_ld(&rw%d[%s])", v, i, at)
			case li.strides[a] == 1:
				r.temps[li.n] = fmt.Sprintf("rw%d[%s]", i, at)
			case v != "":
				r.temps[li.n] = fmt.Sprintf("TICK_VBCAST(%s, sv%d)", v, i)
			default:
				r.temps[li.n] = fmt.Sprintf("sv%d", i)
			}
		}
		x := r.expr(k.Expr)
		typ := v
		if v == "" {
			typ = scalar
		}
		fmt.Fprintf(&r.body, "\t\t\tconst %s x = %s;\n", typ, x)
		s := strings.ReplaceAll(r.body.String(), "\t\t\t", indent)
		r.vec, r.temps = "", map[*ir.Node]string{}
		r.body.Reset()
		return s, "x"
	}
	fmt.Fprintf(sb, "\t\t\t%s acc[%d];\n\t\t\tfor (int u = 0; u < %d; u++) acc[u] = TICK_VBCAST(%s, %s);\n", vec, rowFoldAcc, rowFoldAcc, vec, r.identity())
	fmt.Fprintf(sb, "\t\t\t%s nan = {};\n\t\t\tint64_t kk = 0;\n", vi)
	fmt.Fprintf(sb, "\t\t\tfor (; kk + %d * LN <= R; kk += %d * LN)\n\t\t\t\tfor (int u = 0; u < %d; u++) {\n", rowFoldAcc, rowFoldAcc, rowFoldAcc)
	s, x := body(vec, "kk + u * LN", "\t\t\t\t\t")
	fmt.Fprintf(sb, "%s\t\t\t\t\tacc[u] = TICK_QF(acc[u], %s);\n\t\t\t\t\tnan |= (%s)(acc[u] != acc[u]);\n\t\t\t\t}\n", s, x, vi)
	sb.WriteString("\t\t\tfor (; kk + LN <= R; kk += LN) {\n")
	s, x = body(vec, "kk", "\t\t\t\t")
	fmt.Fprintf(sb, "%s\t\t\t\tacc[0] = TICK_QF(acc[0], %s);\n\t\t\t\tnan |= (%s)(acc[0] != acc[0]);\n\t\t\t}\n", s, x, vi)
	fmt.Fprintf(sb, "\t\t\tfor (int u = 1; u < %d; u++) acc[0] = TICK_QF(acc[0], acc[u]);\n", rowFoldAcc)
	fmt.Fprintf(sb, "\t\t\t%s m;\n\t\t\tint bad;\n", scalar)
	fmt.Fprintf(sb, "\t\t\tm = %s_h%s(acc[0])[0];\n\t\t\tbad = %s_hor(nan)[0] != 0;\n", vec, q, vi)
	sb.WriteString("\t\t\tfor (; kk < R; kk++) {\n")
	s, x = body("", "kk", "\t\t\t\t")
	fmt.Fprintf(sb, "%s\t\t\t\tbad |= %s != %s;\n\t\t\t\tm = %s %s m ? %s : m;\n\t\t\t}\n", s, x, x, x, cmp, x)
	sb.WriteString("\t\t\tif (bad) // the first NaN\n\t\t\t\tfor (kk = 0; kk < R; kk++) {\n")
	s, x = body("", "kk", "\t\t\t\t\t")
	fmt.Fprintf(sb, "%s\t\t\t\t\tif (%s != %s) {\n\t\t\t\t\t\tm = %s;\n\t\t\t\t\t\tbreak;\n\t\t\t\t\t}\n\t\t\t\t}\n", s, x, x, x)
	sb.WriteString("\t\t\telse if (m == 0) // the last zero\n\t\t\t\tfor (kk = R - 1; kk >= 0; kk--) {\n")
	s, x = body("", "kk", "\t\t\t\t\t")
	fmt.Fprintf(sb, "%s\t\t\t\t\tif (%s == 0) {\n\t\t\t\t\t\tm = %s;\n\t\t\t\t\t\tbreak;\n\t\t\t\t\t}\n\t\t\t\t}\n", s, x, x)
	fmt.Fprintf(sb, "\t\t\tb0[i + (j - j0)] = %s;\n\t\t}\n\t\treturn;\n\t\t}\n#undef TICK_QF\n", r.store("m"))
}

// hfoldPrelude defines the horizontal folds reduceRows ends a row with,
// for each vector width TICK_VB may be: tick_v{f,d}_h{max,min}(v) has in
// lane 0 the max (min) of v's lanes (v > w ? v : w pairwise: NaN is
// reduceRows' to find), tick_v{f,d}i_hor(v) the or of v's lanes. A tree of
// log2(LN) shuffles with constant masks.
func hfoldPrelude() string {
	var sb strings.Builder
	for i, vb := range []int{64, 32, 16, 8} {
		if i == 0 {
			fmt.Fprintf(&sb, "#if TICK_VB == %d\n", vb)
		} else {
			fmt.Fprintf(&sb, "#elif TICK_VB == %d\n", vb)
		}
		for _, t := range []struct {
			vec, mask string
			size      int
		}{{"tick_vf", "tick_vfi", 4}, {"tick_vd", "tick_vdi", 8}} {
			ln := vb / t.size
			for _, f := range []struct{ name, typ, op string }{
				{t.vec + "_hmax", t.vec, "TICK_VSEL(" + t.vec + ", " + t.mask + ", v > w, v, w)"},
				{t.vec + "_hmin", t.vec, "TICK_VSEL(" + t.vec + ", " + t.mask + ", v < w, v, w)"},
				{t.mask + "_hor", t.mask, "v | w"},
			} {
				fmt.Fprintf(&sb, "static inline %s %s(%s v) {\n", f.typ, f.name, f.typ)
				for s := ln / 2; s > 0; s /= 2 {
					p := make([]string, ln)
					for l := range p {
						p[l] = fmt.Sprint(l ^ s)
					}
					fmt.Fprintf(&sb, "\t{\n\t\tconst %s w = __builtin_shuffle(v, (%s){%s});\n\t\tv = %s;\n\t}\n", f.typ, t.mask, strings.Join(p, ","), f.op)
				}
				sb.WriteString("\treturn v;\n}\n")
			}
		}
	}
	sb.WriteString("#endif\n")
	return sb.String()
}
