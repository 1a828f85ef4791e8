package gobackend

// The GO backend's matrix multiply. The scheduler expresses Matmul as a
// reduce-sum over the last axis of A[..., M, 1, K] * B[..., 1, N, K]; the GO
// backend recognizes that kernel shape and runs a tiled GEMM instead of the
// generic block evaluator: B is packed transposed into a contiguous panel,
// K is blocked so panels stay in cache, and 4×4 output tiles accumulate in
// registers. Other backends see the same plain IR.

import (
	"github.com/tick-kernel/tick/runtime/ir"
	"sync"
)

const (
	gemmKC = 256 // k-block: a 4-row A strip and a 4-column B strip stay in L1
	gemmNC = 128 // columns per B panel block (L2-resident)
)

type gemmPlan struct {
	*ir.Gemm
	scratch sync.Pool // *gemmScratch
}

type gemmScratch struct{ ap, bp []float32 }

// matchGemm returns a GEMM plan when k is a float32 contraction, else nil.
func matchGemm(k *ir.Kernel) *gemmPlan {
	if g := ir.MatchGemm(k); g != nil {
		return &gemmPlan{Gemm: g}
	}
	return nil
}

// run computes output elements [start, end) (row-major over batch, M, N).
func (g *gemmPlan) run(st *runState, start, end int) {
	c := st.bufs[0].([]float32)
	A := st.bufs[g.BufA].([]float32)
	B := st.bufs[g.BufB].([]float32)
	sc, _ := g.scratch.Get().(*gemmScratch)
	if sc == nil {
		sc = &gemmScratch{}
	}
	defer g.scratch.Put(sc)
	plane := g.M * g.N
	for o := start; o < end; {
		bi := o / max(plane, 1)
		oa, ob := g.OffA, g.OffB
		rem := bi
		for d := len(g.Batch) - 1; d >= 0; d-- {
			x := rem % g.Batch[d]
			rem /= g.Batch[d]
			oa += x * g.BsA[d]
			ob += x * g.BsB[d]
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
					s += A[oa+r*g.SAi+k*g.SAk] * B[ob+j*g.SBj+k*g.SBk]
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

// packStrips packs kc values of each of n lines of src into k-major strips
// of w lines (strip s holds dst[s*w*kc:], value k of its line l at w*k+l),
// zero-padding the lines past n in the last strip. Line i starts at
// src[first+i*lineStride]; its values are kStride apart.
func packStrips(dst, src []float32, w, n, kc, first, lineStride, kStride int) {
	for s := 0; s < (n+w-1)/w; s++ {
		strip := dst[s*w*kc : (s+1)*w*kc]
		for l := 0; l < w; l++ {
			i := s*w + l
			if i >= n {
				for k := 0; k < kc; k++ {
					strip[w*k+l] = 0
				}
				continue
			}
			base := first + i*lineStride
			for k := 0; k < kc; k++ {
				strip[w*k+l] = src[base+k*kStride]
			}
		}
	}
}

// tiled computes rows [r0, r1) of one batch's C: K is blocked by gemmKC
// (each output adds its products in k order across blocks, as the in-order
// reference does),
// columns by gemmNC; A is packed into k-major strips of 4 rows and B into
// k-major strips of 8 columns (zero-padded at the edges) for gemmMicro4x8.
func (g *gemmPlan) tiled(c, A, B []float32, oa, ob, r0, r1 int, sc *gemmScratch) {
	N, K := g.N, g.K
	rows := r1 - r0
	strips := (rows + 3) / 4
	for i := r0 * N; i < r1*N; i++ {
		c[i] = 0
	}
	if cap(sc.ap) < strips*4*gemmKC {
		sc.ap = make([]float32, strips*4*gemmKC)
	}
	if cap(sc.bp) < gemmNC*gemmKC {
		sc.bp = make([]float32, gemmNC*gemmKC)
	}
	var edge [32]float32
	for k0 := 0; k0 < K; k0 += gemmKC {
		kc := min(gemmKC, K-k0)
		ap := sc.ap[:strips*4*kc]
		packStrips(ap, A, 4, rows, kc, oa+r0*g.SAi+k0*g.SAk, g.SAi, g.SAk)
		for j0 := 0; j0 < N; j0 += gemmNC {
			nc := min(gemmNC, N-j0)
			cstrips := (nc + 7) / 8
			bp := sc.bp[:cstrips*8*kc]
			packStrips(bp, B, 8, nc, kc, ob+j0*g.SBj+k0*g.SBk, g.SBj, g.SBk)
			for s := 0; s < strips; s++ {
				pa := &ap[s*4*kc]
				for t := 0; t < cstrips; t++ {
					pb := &bp[t*8*kc]
					r, j := s*4, t*8
					if r+4 <= rows && j+8 <= nc {
						gemmMicro4x8(kc, pa, pb, &c[(r0+r)*N+j0+j], N)
						continue
					}
					edge = [32]float32{}
					for rr := 0; rr < 4 && r+rr < rows; rr++ {
						for jj := 0; jj < 8 && j+jj < nc; jj++ {
							edge[8*rr+jj] = c[(r0+r+rr)*N+j0+j+jj]
						}
					}
					gemmMicro4x8(kc, pa, pb, &edge[0], 8)
					for rr := 0; rr < 4 && r+rr < rows; rr++ {
						for jj := 0; jj < 8 && j+jj < nc; jj++ {
							c[(r0+r+rr)*N+j0+j+jj] = edge[8*rr+jj]
						}
					}
				}
			}
		}
	}
}
