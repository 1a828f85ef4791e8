package render

// The two OpenCL matmul kernels. Both add each output's products in k
// order from +0 (the reference's sum; FP_CONTRACT is off, so a product is
// rounded before it is added), so either gives the reference's bits.
//
//   - gemmCL, for a GPU: a work group of GemmTile×GemmTile work items, one
//     output each, A's and B's tiles staged through local memory.
//   - gemmCLBlocked, for a device on the host's CPUs (pocl): each work item
//     computes GemmRows rows × up to GemmVecs float16 vectors of columns
//     in registers, reading GemmVecs vectors of B and one scalar of A per
//     row per k step. pocl compiles the float16 arithmetic to the CPU's
//     vector instructions (on AVX-512 the k loop is 4 loads, 6 broadcasts
//     and 24 vfmadd231ps on zmm registers); the local-memory tiles, which
//     pocl runs work item by work item around each barrier, ran at
//     0.2–0.7 GFLOP/s here, the blocked kernel at 6–12 under the same
//     load (docs/benchmarks.md).

import (
	"fmt"
	"strings"

	"github.com/tick-kernel/tick/runtime/ir"
)

// The register-blocked matmul's shape (measured on pocl 3.1, AVX-512:
// docs/benchmarks.md lists the shapes tried).
const (
	GemmRows  = 6   // output rows per work item
	GemmVec   = 16  // floats per vector (float16)
	GemmVecs  = 4   // vectors of columns per work item, at most
	GemmGroup = 16  // work items per work group (at most), along the rows: they share B's columns
	GemmKC    = 256 // k steps per block: a group's work items all finish a block before the next
)

// gemmGroup is the blocked kernel's work-group size along the rows for an
// output m rows high: GemmGroup, or fewer when there are fewer row blocks.
func gemmGroup(m int) int { return min(GemmGroup, (m+GemmRows-1)/GemmRows) }

// gemmWidth is the columns one work item of the blocked kernel computes
// for an output n wide: GemmVecs vectors, fewer when n is narrower.
func gemmWidth(n int) int { return GemmVec * min(GemmVecs, max(1, (n+GemmVec-1)/GemmVec)) }

// gemmHeader writes the kernel's signature (c the output, then the inputs)
// and names A, B, the batch index bi and the batch's offsets oa, ob.
func (r *cRender) gemmHeader(sb *strings.Builder, name string, g *ir.Gemm, attr string) {
	fmt.Fprintf(sb, "__kernel %s\nvoid %s(__global float *restrict c, ", attr, name)
	params := make([]string, 0, len(r.k.Bufs)-1)
	for i := 1; i < len(r.k.Bufs); i++ {
		params = append(params, fmt.Sprintf("__global const float *restrict b%d", i))
	}
	sb.WriteString(strings.Join(params, ", ") + ") {\n")
	fmt.Fprintf(sb, "\t__global const float *A = b%d, *B = b%d;\n", g.BufA, g.BufB)
	sb.WriteString("\tconst int bi = get_global_id(2);\n")
	fmt.Fprintf(sb, "\t%s oa = %d, ob = %d, rem = bi;\n", r.idx, g.OffA, g.OffB)
	for d := len(g.Batch) - 1; d >= 0; d-- {
		fmt.Fprintf(sb, "\t{ const %s x = rem %% %d; rem /= %d; oa += x * %d; ob += x * %d; }\n", r.idx, g.Batch[d], g.Batch[d], g.BsA[d], g.BsB[d])
	}
	fmt.Fprintf(sb, "\tconst int M = %d, N = %d, K = %d;\n", g.M, g.N, g.K)
}

// gemmCLNote is the first line of a matmul kernel's source: which of the
// two kernels it is (plans and DEBUG=4 show it).
func gemmCLNote(cpu bool, g *ir.Gemm) string {
	if !cpu {
		return fmt.Sprintf("// matmul: tiles of %d×%d outputs per work group through local memory (a GPU's kernel)\n", GemmTile, GemmTile)
	}
	w := gemmWidth(g.N)
	return fmt.Sprintf("// matmul: register-blocked, %d rows × %d columns (%d×float16) per work item, work groups of %d along the rows, k in blocks of %d (a CPU device's kernel)\n",
		GemmRows, w, w/GemmVec, gemmGroup(g.M), GemmKC)
}

// gemmCL renders the contraction g as tiles through local memory: work
// item (lj, li) of group (gj, gi) computes output (i0+li, j0+lj) of batch
// get_global_id(2); each K step of GemmTile loads one element of A's and
// one of B's tile into local memory, and every output adds its products in
// k order (the reference's sum).
func (r *cRender) gemmCL(sb *strings.Builder, name string, g *ir.Gemm) {
	const ts = GemmTile
	r.gemmHeader(sb, name, g, fmt.Sprintf("__attribute__((reqd_work_group_size(%d, %d, 1)))", ts, ts))
	sb.WriteString("\tconst int j = get_global_id(0), i = get_global_id(1);\n")
	sb.WriteString("\tconst int lj = get_local_id(0), li = get_local_id(1);\n")
	fmt.Fprintf(sb, "\t__local float As[%d][%d], Bs[%d][%d];\n", ts, ts, ts, ts)
	sb.WriteString("\tfloat acc = 0.0f;\n")
	fmt.Fprintf(sb, "\tfor (int k0 = 0; k0 < K; k0 += %d) {\n", ts)
	fmt.Fprintf(sb, "\t\tAs[li][lj] = (i < M && k0 + lj < K) ? A[oa + i * %d + (k0 + lj) * %d] : 0.0f;\n", g.SAi, g.SAk)
	fmt.Fprintf(sb, "\t\tBs[li][lj] = (j < N && k0 + li < K) ? B[ob + j * %d + (k0 + li) * %d] : 0.0f;\n", g.SBj, g.SBk)
	sb.WriteString("\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	fmt.Fprintf(sb, "\t\tconst int kn = K - k0 < %d ? K - k0 : %d;\n", ts, ts)
	fmt.Fprintf(sb, "\t\tfor (int kk = 0; kk < kn; kk++) acc = %s;\n", r.madd("As[li][kk]", "Bs[kk][lj]", "acc"))
	sb.WriteString("\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n")
	fmt.Fprintf(sb, "\tif (i < M && j < N) c[(%s)bi * %d + i * N + j] = acc;\n}\n", r.idx, g.M*g.N)
}

// gemmCLBlocked renders g register-blocked: work item (jb, ib) computes
// rows i0 = ib·GemmRows … i0+GemmRows−1 and columns j0 = jb·w … j0+w−1
// (w = gemmWidth(N)) as GemmRows × w/16 float16 accumulators. Each k step
// loads one float16 of B per vector (vload16 where B's columns are
// contiguous, else a gather) and one float of A per row, and adds the
// products to the accumulators: every output's sum is in k order.
//
// Edges: rows past M read row M−1 and are not stored; a column block that
// passes N (and every block when B's columns are not contiguous) gathers
// its columns clamped to N−1, and stores only columns below N.
func (r *cRender) gemmCLBlocked(sb *strings.Builder, name string, g *ir.Gemm) {
	w := gemmWidth(g.N)
	nv, tm := w/GemmVec, GemmRows
	grp := gemmGroup(g.M)
	r.gemmHeader(sb, name, g, fmt.Sprintf("__attribute__((reqd_work_group_size(1, %d, 1)))", grp))
	fmt.Fprintf(sb, "\tconst int j0 = get_global_id(0) * %d, i0 = get_global_id(1) * %d;\n", w, tm)
	sb.WriteString("\tconst int live = i0 < M; // a work item past the last row block computes nothing but meets the barriers\n")
	for i := range tm {
		fmt.Fprintf(sb, "\t__global const float *a%d = A + oa + min(i0 + %d, M - 1) * %d;\n", i, i, g.SAi)
	}
	sb.WriteString("\t__global const float *bp = B + ob;\n")
	iv := r.idx + "16" // B's column offsets, lane by lane: int16, or long16 for a big B
	fmt.Fprintf(sb, "\tconst %s lane = (%s)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);\n", iv, iv)
	for v := range nv {
		fmt.Fprintf(sb, "\tconst %s cj%d = min(j0 + %d + lane, (%s)(N - 1)) * %d;\n", iv, v, v*GemmVec, r.idx, g.SBj)
	}
	for i := range tm {
		for v := range nv {
			fmt.Fprintf(sb, "\tfloat16 acc%d_%d = 0.0f;\n", i, v)
		}
	}
	gather := func(v int) string {
		var ls []string
		for l := range GemmVec {
			ls = append(ls, fmt.Sprintf("q[cj%d.s%x]", v, l))
		}
		return "(float16)(" + strings.Join(ls, ", ") + ")"
	}
	if g.SBj == 1 {
		sb.WriteString("\tif (j0 + " + fmt.Sprint(w) + " <= N) {\n")
		r.gemmKLoop(sb, g, tm, nv, "\t\t", func(v int) string { return fmt.Sprintf("vload16(0, q + j0 + %d)", v*GemmVec) })
		sb.WriteString("\t} else {\n")
		r.gemmKLoop(sb, g, tm, nv, "\t\t", gather)
		sb.WriteString("\t}\n")
	} else {
		r.gemmKLoop(sb, g, tm, nv, "\t", gather)
	}
	fmt.Fprintf(sb, "\t__global float *C = c + (%s)bi * %d + (%s)i0 * N + j0;\n", r.idx, g.M*g.N, r.idx)
	for i := range tm {
		fmt.Fprintf(sb, "\tif (i0 + %d < M) {\n", i)
		for v := range nv {
			o := fmt.Sprintf("%d * N + %d", i, v*GemmVec)
			fmt.Fprintf(sb, "\t\tif (j0 + %d <= N) vstore16(acc%d_%d, 0, C + %s);\n", (v+1)*GemmVec, i, v, o)
			fmt.Fprintf(sb, "\t\telse { float t[16]; vstore16(acc%d_%d, 0, t); for (int l = 0; j0 + %d + l < N; l++) C[%s + l] = t[l]; }\n", i, v, v*GemmVec, o)
		}
		sb.WriteString("\t}\n")
	}
	sb.WriteString("}\n")
}

// madd is s + a*b as the matmul kernels add a product: fma(a, b, s) when
// the kernel fuses (one rounding), else rounded product then rounded sum.
func (r *cRender) madd(a, b, s string) string {
	if r.opt.FMA {
		return fmt.Sprintf("fma(%s, %s, %s)", a, b, s)
	}
	return fmt.Sprintf("%s + %s * %s", s, a, b)
}

// gemmKLoop is the blocked kernel's k loop at indent, B's vector v loaded
// by loadB(v) from q (B's row k). A K longer than GemmKC runs in blocks of
// GemmKC steps with a barrier after each: pocl runs a work group's items
// one after another between barriers, so the group's items (consecutive
// row blocks, the same columns) each take the block's rows of B while they
// are still in cache (one pass over all of K per item reads a column strip
// of B 4 KB apart per step, which no prefetcher follows). Each output still
// adds its products in k order: the accumulators carry across blocks.
func (r *cRender) gemmKLoop(sb *strings.Builder, g *ir.Gemm, tm, nv int, indent string, loadB func(v int) string) {
	if g.K > GemmKC {
		fmt.Fprintf(sb, "%sfor (%s k0 = 0; k0 < K; k0 += %d) {\n", indent, r.idx, GemmKC)
		fmt.Fprintf(sb, "%s\tif (live) for (%s k = k0; k < (k0 + %d < K ? k0 + %d : K); k++) {\n", indent, r.idx, GemmKC, GemmKC)
		r.gemmKStep(sb, g, tm, nv, indent+"\t", loadB)
		fmt.Fprintf(sb, "%s\t}\n%s\tbarrier(CLK_LOCAL_MEM_FENCE);\n%s}\n", indent, indent, indent)
		return
	}
	fmt.Fprintf(sb, "%sif (live) for (%s k = 0; k < K; k++) {\n", indent, r.idx)
	r.gemmKStep(sb, g, tm, nv, indent, loadB)
	fmt.Fprintf(sb, "%s}\n", indent)
}

// gemmKStep is one k step of the blocked kernel: B's vectors at row k,
// each row's A element, the multiply-adds.
func (r *cRender) gemmKStep(sb *strings.Builder, g *ir.Gemm, tm, nv int, indent string, loadB func(v int) string) {
	fmt.Fprintf(sb, "%s\t__global const float *q = bp + k * %d;\n", indent, g.SBk)
	for v := range nv {
		fmt.Fprintf(sb, "%s\tconst float16 v%d = %s;\n", indent, v, loadB(v))
	}
	for i := range tm {
		if r.opt.FMA {
			fmt.Fprintf(sb, "%s\t{ const float16 a = a%d[k * %d];", indent, i, g.SAk)
		} else {
			fmt.Fprintf(sb, "%s\t{ const float a = a%d[k * %d];", indent, i, g.SAk)
		}
		for v := range nv {
			fmt.Fprintf(sb, " acc%d_%d = %s;", i, v, r.madd("a", fmt.Sprint("v", v), fmt.Sprintf("acc%d_%d", i, v)))
		}
		sb.WriteString(" }\n")
	}
}
