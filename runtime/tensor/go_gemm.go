package tensor

// The GO backend's matrix multiply. The scheduler expresses Matmul as a
// reduce-sum over the last axis of A[..., M, 1, K] * B[..., 1, N, K]; the GO
// backend recognizes that kernel shape and runs a tiled GEMM instead of the
// generic block evaluator: B is packed transposed into a contiguous panel,
// K is blocked so panels stay in cache, and 4×4 output tiles accumulate in
// registers. Other backends see the same plain IR.

import "sync"

const (
	gemmKC = 256 // k-block: a 4-row A strip and a 4-column B strip stay in L1
	gemmNC = 128 // columns per B panel block (L2-resident)
)

type gemmPlan struct {
	batch          []int // batch sizes (leading axes)
	bsA, bsB       []int // batch strides
	M, N, K        int
	offA, sAi, sAk int
	offB, sBj, sBk int
	bufA, bufB     int
	scratch        sync.Pool // *gemmScratch
}

type gemmScratch struct{ ap, bp []float32 }

// matchGemm returns a GEMM plan when k is a float32 contraction, else nil.
func matchGemm(k *Kernel) *gemmPlan {
	nd := len(k.Shape)
	e := k.Expr
	if k.Reduce != ReduceSum || nd < 3 || len(k.ReduceAxes) != 1 || k.ReduceAxes[0] != nd-1 ||
		e.Op != OpMul || e.DType != Float32 || len(e.Src) != 2 {
		return nil
	}
	a, b := e.Src[0], e.Src[1]
	for _, l := range []*Node{a, b} {
		if l.Op != OpLoad || l.View.Mask != nil || l.DType != Float32 {
			return nil
		}
	}
	m, n, kd := nd-3, nd-2, nd-1
	if a.View.Strides[n] != 0 || b.View.Strides[m] != 0 {
		a, b = b, a
	}
	if a.View.Strides[n] != 0 || b.View.Strides[m] != 0 {
		return nil
	}
	g := &gemmPlan{M: k.Shape[m], N: k.Shape[n], K: k.Shape[kd],
		offA: a.View.Offset, sAi: a.View.Strides[m], sAk: a.View.Strides[kd],
		offB: b.View.Offset, sBj: b.View.Strides[n], sBk: b.View.Strides[kd],
		bufA: a.Buf, bufB: b.Buf}
	for d := 0; d < m; d++ {
		g.batch = append(g.batch, k.Shape[d])
		g.bsA = append(g.bsA, a.View.Strides[d])
		g.bsB = append(g.bsB, b.View.Strides[d])
	}
	return g
}

// run computes output elements [start, end) (row-major over batch, M, N).
func (g *gemmPlan) run(st *runState, start, end int) {
	c := st.bufs[0].([]float32)
	A := st.bufs[g.bufA].([]float32)
	B := st.bufs[g.bufB].([]float32)
	sc, _ := g.scratch.Get().(*gemmScratch)
	if sc == nil {
		sc = &gemmScratch{}
	}
	defer g.scratch.Put(sc)
	plane := g.M * g.N
	for o := start; o < end; {
		bi := o / max(plane, 1)
		oa, ob := g.offA, g.offB
		rem := bi
		for d := len(g.batch) - 1; d >= 0; d-- {
			x := rem % g.batch[d]
			rem /= g.batch[d]
			oa += x * g.bsA[d]
			ob += x * g.bsB[d]
		}
		pEnd := min(end, (bi+1)*plane)
		r0, r1 := (o-bi*plane)/g.N, (pEnd-bi*plane+g.N-1)/g.N
		cp := c[bi*plane : (bi+1)*plane]
		lo, hi := o-bi*plane, pEnd-bi*plane
		// Whole rows go through the tiled kernel; partial edge rows are scalar.
		fr0, fr1 := r0, r1
		if lo > r0*g.N {
			fr0 = r0 + 1
		}
		if hi < r1*g.N {
			fr1 = r1 - 1
		}
		for r := r0; r < r1; r++ {
			if r >= fr0 && r < fr1 {
				continue
			}
			for j := max(lo-r*g.N, 0); j < min(hi-r*g.N, g.N); j++ {
				var s float32
				for k := 0; k < g.K; k++ {
					s += A[oa+r*g.sAi+k*g.sAk] * B[ob+j*g.sBj+k*g.sBk]
				}
				cp[r*g.N+j] = s
			}
		}
		if fr1 > fr0 {
			g.tiled(cp, A, B, oa, ob, fr0, fr1, sc)
		}
		o = pEnd
	}
}

// tiled computes rows [r0, r1) of one batch's C with blocking over K and N.
func (g *gemmPlan) tiled(c, A, B []float32, oa, ob, r0, r1 int, sc *gemmScratch) {
	N, K := g.N, g.K
	rows := r1 - r0
	for i := r0 * N; i < r1*N; i++ {
		c[i] = 0
	}
	if cap(sc.ap) < rows*gemmKC {
		sc.ap = make([]float32, rows*gemmKC)
	}
	if cap(sc.bp) < gemmNC*gemmKC {
		sc.bp = make([]float32, gemmNC*gemmKC)
	}
	for k0 := 0; k0 < K; k0 += gemmKC {
		kc := min(gemmKC, K-k0)
		ap := sc.ap[:rows*kc]
		for r := 0; r < rows; r++ { // pack A rows r0.. over [k0, k0+kc)
			base := oa + (r0+r)*g.sAi + k0*g.sAk
			row := ap[r*kc : (r+1)*kc]
			if g.sAk == 1 {
				copy(row, A[base:base+kc])
			} else {
				for k := range row {
					row[k] = A[base+k*g.sAk]
				}
			}
		}
		for j0 := 0; j0 < N; j0 += gemmNC {
			nc := min(gemmNC, N-j0)
			bp := sc.bp[:nc*kc]
			for j := 0; j < nc; j++ { // pack B columns transposed
				base := ob + (j0+j)*g.sBj + k0*g.sBk
				col := bp[j*kc : (j+1)*kc]
				if g.sBk == 1 {
					copy(col, B[base:base+kc])
				} else {
					for k := range col {
						col[k] = B[base+k*g.sBk]
					}
				}
			}
			gemmBlock(c, ap, bp, rows, nc, kc, N, r0, j0)
		}
	}
}

// gemmBlock adds ap (rows×kc) · bpᵀ (nc×kc) into c at (r0, j0).
func gemmBlock(c, ap, bp []float32, rows, nc, kc, ldc, r0, j0 int) {
	r := 0
	for ; r+4 <= rows; r += 4 {
		a0 := ap[r*kc : r*kc+kc]
		a1 := ap[(r+1)*kc : (r+1)*kc+kc]
		a2 := ap[(r+2)*kc : (r+2)*kc+kc]
		a3 := ap[(r+3)*kc : (r+3)*kc+kc]
		j := 0
		for ; j+4 <= nc; j += 4 {
			b0 := bp[j*kc : j*kc+kc]
			b1 := bp[(j+1)*kc : (j+1)*kc+kc]
			b2 := bp[(j+2)*kc : (j+2)*kc+kc]
			b3 := bp[(j+3)*kc : (j+3)*kc+kc]
			var c00, c01, c02, c03, c10, c11, c12, c13 float32
			var c20, c21, c22, c23, c30, c31, c32, c33 float32
			for k, x0 := range a0 {
				x1, x2, x3 := a1[k], a2[k], a3[k]
				y0, y1, y2, y3 := b0[k], b1[k], b2[k], b3[k]
				c00 += x0 * y0
				c01 += x0 * y1
				c02 += x0 * y2
				c03 += x0 * y3
				c10 += x1 * y0
				c11 += x1 * y1
				c12 += x1 * y2
				c13 += x1 * y3
				c20 += x2 * y0
				c21 += x2 * y1
				c22 += x2 * y2
				c23 += x2 * y3
				c30 += x3 * y0
				c31 += x3 * y1
				c32 += x3 * y2
				c33 += x3 * y3
			}
			o := (r0+r)*ldc + j0 + j
			c[o] += c00
			c[o+1] += c01
			c[o+2] += c02
			c[o+3] += c03
			o += ldc
			c[o] += c10
			c[o+1] += c11
			c[o+2] += c12
			c[o+3] += c13
			o += ldc
			c[o] += c20
			c[o+1] += c21
			c[o+2] += c22
			c[o+3] += c23
			o += ldc
			c[o] += c30
			c[o+1] += c31
			c[o+2] += c32
			c[o+3] += c33
		}
		for ; j < nc; j++ {
			gemmDot(c, ap, bp, r, j, 4, kc, ldc, r0, j0)
		}
	}
	for ; r < rows; r++ {
		for j := 0; j < nc; j++ {
			gemmDot(c, ap, bp, r, j, 1, kc, ldc, r0, j0)
		}
	}
}

// gemmDot handles edge tiles: nr rows starting at r, one column j.
func gemmDot(c, ap, bp []float32, r, j, nr, kc, ldc, r0, j0 int) {
	b := bp[j*kc : j*kc+kc]
	for i := r; i < r+nr; i++ {
		a := ap[i*kc : i*kc+kc]
		var s float32
		for k, x := range a {
			s += x * b[k]
		}
		c[(r0+i)*ldc+j0+j] += s
	}
}
