package render

// This file renders a Kernel as OpenCL C for the OpenCL backend
// (runtime/backend/cl). The expressions, loads, masks and folds are the
// C-style base's and the C renderer's (cRender with OpenCL's Lang); the
// loop structure is OpenCL's own: one work item per output element
// (elementwise: the element; reduce: its fold over the reduced axes, in the
// IR's order, so sums are the reference's in-order sums), and matmul in
// one of two shapes (opencl_gemm.go): on a CPU device (pocl) a
// register-blocked kernel, each work item a block of outputs in vector
// registers; elsewhere (a GPU) tiles of TS×TS outputs per work group, A
// and B staged through local memory. Every kernel is compiled with FP_CONTRACT off (no fused
// multiply-adds) and, where the device allows, correctly rounded division
// and square root, so +, −, ×, ÷, √, comparisons, selects and folds give
// the reference's bits; the transcendental functions are the device's,
// within the OpenCL specification's ulp bounds.

import (
	"fmt"
	"math"
	"strings"

	"github.com/tick-kernel/tick/runtime/ir"
)

// clLang is OpenCL C's spelling of the scalar operations: overloaded math
// functions, bool buffers as uchar.
var clLang = Lang{Types: [...]string{ir.Float32: "float", ir.Float64: "double", ir.Int32: "int", ir.Bool: "uchar"},
	IntMin: "INT_MIN", IntMax: "INT_MAX"}

// GemmTile is the side of the square of outputs one OpenCL work group of a
// matmul computes (TS×TS work items, one output each).
const GemmTile = 16

// OpenCL renders kernels as OpenCL C.
type OpenCL struct {
	// CPU selects the kernel shapes for an OpenCL device that runs on the
	// host's CPUs (CL_DEVICE_TYPE_CPU, pocl): a register-blocked matmul
	// instead of local-memory tiles.
	CPU bool
	// FMA fuses the matmul kernels' multiply-adds (fma(), one rounding):
	// each output is then the in-order chain of fused multiply-adds, the
	// CPU and GO devices' bits; without it products and sums round
	// separately, the reference's bits.
	FMA bool
}

// CLKernel is a rendered OpenCL kernel: its source, the function name,
// the number of work items it needs (its global size before rounding up to
// a work group) and, for kernels with a fixed work-group shape (matmul),
// the global and local sizes.
type CLKernel struct {
	Source string
	Name   string
	Items  int    // elementwise and reduce: one work item per output; the backend chooses Local
	Global [3]int // matmul: the grid, in whole work groups
	Local  [3]int // matmul: GemmTile × GemmTile, or a column of GemmGroup blocks (CPU)
	Fixed  bool   // Global and Local are set (reqd_work_group_size)
	F64    bool   // the kernel uses double (needs cl_khr_fp64)
}

// Render returns k as an OpenCL C kernel named name.
func (o OpenCL) Render(k *ir.Kernel, name string) CLKernel {
	out := CLKernel{Name: name, Items: k.OutSize(), F64: usesF64(k)}
	r := &cRender{k: k, temps: map[*ir.Node]string{}, lang: &clLang, idx: clIndex(k), opt: C{FMA: o.FMA}}
	var sb strings.Builder
	var src strings.Builder
	if g := ir.MatchGemm(k); g != nil && g.K > 0 && g.M*g.N > 0 {
		src.WriteString(gemmCLNote(o.CPU, g))
		n := 1
		for _, b := range g.Batch {
			n *= b
		}
		out.Fixed = true
		if o.CPU {
			w := gemmWidth(g.N)
			grp := gemmGroup(g.M)
			out.Global = [3]int{(g.N + w - 1) / w, roundUp((g.M+GemmRows-1)/GemmRows, grp), n}
			out.Local = [3]int{1, grp, 1}
			r.gemmCLBlocked(&sb, name, g)
		} else {
			out.Global = [3]int{roundUp(g.N, GemmTile), roundUp(g.M, GemmTile), n}
			out.Local = [3]int{GemmTile, GemmTile, 1}
			r.gemmCL(&sb, name, g)
		}
	} else {
		fmt.Fprintf(&sb, "__kernel void %s(%s) {\n", name, r.clParams())
		fmt.Fprintf(&sb, "\tconst %s gid = get_global_id(0);\n\tif (gid >= %d) return;\n", r.idx, out.Items)
		if k.Reduce == ir.ReduceNone {
			r.clElementwise(&sb)
		} else {
			r.clReduce(&sb)
		}
		sb.WriteString("}\n")
	}
	src.WriteString("// " + strings.ReplaceAll(k.Key(), "\n", "\n// ") + "\n")
	src.WriteString("#pragma OPENCL FP_CONTRACT OFF\n")
	if out.F64 {
		src.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	src.WriteString(clLang.ScalarHelpers())
	src.WriteString(sb.String())
	out.Source = src.String()
	return out
}

// usesF64 reports whether any buffer or node of k is float64.
func usesF64(k *ir.Kernel) bool {
	f64 := false
	for _, b := range k.Bufs {
		f64 = f64 || b.DType == ir.Float64
	}
	ir.Walk(k.Expr, func(n *ir.Node) { f64 = f64 || n.DType == ir.Float64 })
	return f64
}

// clIndex is the index type: int when every index fits, else long.
func clIndex(k *ir.Kernel) string {
	big := ir.Prod(k.Shape)
	for _, b := range k.Bufs {
		big = max(big, b.Size)
	}
	if big >= math.MaxInt32/2 {
		return "long"
	}
	return "int"
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// clParams is the kernel's parameter list: b0 the output, the inputs const.
func (r *cRender) clParams() string {
	ps := make([]string, len(r.k.Bufs))
	for i, b := range r.k.Bufs {
		cons := "const "
		if i == 0 {
			cons = ""
		}
		ps[i] = fmt.Sprintf("__global %s%s *restrict b%d", cons, r.lang.Type(b.DType), i)
	}
	return strings.Join(ps, ", ")
}

// clElementwise computes output element gid: its multi-index over the
// collapsed shape, every load's address and mask, the expression.
func (r *cRender) clElementwise(sb *strings.Builder) {
	loads := r.collectLoads()
	shape := r.k.Shape
	if len(shape) == 0 {
		shape = []int{1}
		for _, li := range loads {
			li.strides, li.mask = []int{0}, nil
		}
	}
	r.shape = collapse(shape, loads)
	axes := make([]int, len(r.shape))
	for d := range axes {
		axes[d] = d
	}
	r.outerIndex(sb, "gid", axes, r.shape)
	r.bases(sb, axes, -1, "")
	v := r.expr(r.k.Expr)
	sb.WriteString(r.body.String())
	fmt.Fprintf(sb, "\tb0[gid] = %s;\n", r.store(v))
}

// clReduce folds output element gid over the reduced axes, outermost
// first: the reference's order.
func (r *cRender) clReduce(sb *strings.Builder) {
	r.collectLoads()
	k := r.k
	r.shape = k.Shape
	reduced := map[int]bool{}
	for _, a := range k.ReduceAxes {
		reduced[a] = true
	}
	var kept []int
	for d := range k.Shape {
		if !reduced[d] {
			kept = append(kept, d)
		}
	}
	r.outerIndex(sb, "gid", kept, k.Shape)
	acc := r.lang.Type(k.Expr.DType)
	if k.Expr.DType == ir.Bool {
		acc = r.lang.Type(ir.Int32)
	}
	fmt.Fprintf(sb, "\t%s acc = %s;\n", acc, r.identity())
	for _, d := range k.ReduceAxes {
		fmt.Fprintf(sb, "\tfor (%s i%d = 0; i%d < %d; i%d++) {\n", r.idx, d, d, k.Shape[d], d)
	}
	all := make([]int, len(k.Shape))
	for d := range all {
		all[d] = d
	}
	r.bases(sb, all, -1, "")
	v := r.expr(k.Expr)
	sb.WriteString(r.body.String())
	fmt.Fprintf(sb, "\t\tacc = %s;\n", r.fold("acc", v))
	for range k.ReduceAxes {
		sb.WriteString("\t}\n")
	}
	fmt.Fprintf(sb, "\tb0[gid] = %s;\n", r.store("acc"))
}
