package gobackend

// The GO backend's matrix multiply. The scheduler expresses Matmul as a
// reduce-sum over the last axis of A[..., M, 1, K] * B[..., 1, N, K]; the GO
// backend recognizes that kernel shape and runs a tiled GEMM instead of the
// generic block evaluator: A is packed into k-major strips of mr rows, B
// into k-major strips of nr columns (or, when its rows are contiguous and
// it is small, read in place, and then A too), K is blocked so strips stay
// in cache, and an mr×nr tile of C accumulates in registers in an assembly
// micro-kernel.
//
// As on the CPU device, where the machine has fused multiply-adds and
// TICK_FMA is not 0 the micro-kernel fuses them (AVX-512: 12×32, AVX2+FMA:
// 6×16): every output is the in-order chain of fused multiply-adds, the
// same bits as the CPU device's matmul. With TICK_FMA=0, or without FMA,
// products and sums are rounded separately (SSE 4×8): bit-identical to the
// reference interpreter and to the CPU device with TICK_FMA=0. Edges (rows
// or columns short of a tile, ranges that start or end inside a row) go
// through the same micro-kernel on a zero-padded tile, so every output gets
// the same arithmetic.

import (
	"os"
	"sync"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/ir"
)

const (
	gemmKC = 256  // k-block: an A strip and a B strip stay in L1
	gemmNC = 1024 // columns per B panel block (L2-resident)
	// goDirectMax is the size of B (K·N floats) up to which a B with
	// contiguous rows is read in place by a strided micro-kernel.
	goDirectMax = 32 << 10
)

// microKernel computes C[mr×nr] += A·B over kc steps: row r of A at step
// p at a + r*sar + p*sap, B's step p at b + p*sbp floats; C rows ldc
// apart.
type microKernel struct {
	mr, nr  int
	strided bool // accepts any strides (else A and B must be packed strips: sar 1, sap mr, sbp nr)
	fn      func(kc int, a *float32, sar, sap int, b *float32, sbp int, c *float32, ldc int)
	name    string
}

// envFMA, set to 0, makes matmul round products and sums separately (the
// CPU backend reads the same variable: runtime/backend/cpu.EnvFMA).
const envFMA = "TICK_FMA"

// chooseKernel is the micro-kernel for this machine and $TICK_FMA, read
// when a kernel is compiled.
func chooseKernel() microKernel {
	if os.Getenv(envFMA) != "0" {
		if ks := fmaKernels(); len(ks) > 0 {
			return ks[0]
		}
	}
	return exactKernel
}

// exactKernel rounds products and sums separately (TICK_FMA=0, or no
// FMA): gemmMicro4x8, on packed strips only.
var exactKernel = microKernel{mr: 4, nr: 8, fn: exact4x8, name: exactName}

func exact4x8(kc int, a *float32, _, _ int, b *float32, _ int, c *float32, ldc int) {
	gemmMicro4x8(kc, a, b, c, ldc)
}

type gemmPlan struct {
	*ir.Gemm
	mk      microKernel
	scratch sync.Pool // *gemmScratch
}

type gemmScratch struct {
	ap, bp []float32
	edge   []float32 // an mr×nr tile
}

// matchGemm returns a GEMM plan when k is a float32 contraction, else nil.
func matchGemm(k *ir.Kernel) *gemmPlan {
	if g := ir.MatchGemm(k); g != nil {
		return &gemmPlan{Gemm: g, mk: chooseKernel()}
	}
	return nil
}

// direct reports whether B is read in place.
func (g *gemmPlan) direct() bool { return g.mk.strided && g.SBj == 1 && g.K*g.N <= goDirectMax }

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
	if plane == 0 {
		return
	}
	for o := start; o < end; {
		bi := o / plane
		oa, ob := g.OffA, g.OffB
		rem := bi
		for d := len(g.Batch) - 1; d >= 0; d-- {
			x := rem % g.Batch[d]
			rem /= g.Batch[d]
			oa += x * g.BsA[d]
			ob += x * g.BsB[d]
		}
		pEnd := min(end, (bi+1)*plane)
		cp := c[bi*plane : (bi+1)*plane]
		lo, hi := o-bi*plane, pEnd-bi*plane
		// A partial first row, the whole rows, a partial last row.
		r0, r1 := lo/g.N, hi/g.N
		if j := lo % g.N; j != 0 {
			g.tiled(cp, A, B, oa, ob, r0, r0+1, j, min(g.N, hi-r0*g.N), sc)
			r0++
		}
		if r1 > r0 {
			g.tiled(cp, A, B, oa, ob, r0, r1, 0, g.N, sc)
		}
		if j := hi % g.N; j != 0 && r1 >= r0 {
			g.tiled(cp, A, B, oa, ob, r1, r1+1, 0, j, sc)
		}
		o = pEnd
	}
}

// packStrips packs kc values of each of n lines of src into k-major strips
// of w lines (strip s holds dst[s*w*kc:], value k of its line l at w*k+l),
// zero-padding the lines past n in the last strip. Line i starts at
// src[first+i*lineStride]; its values are kStride apart.
func packStrips(dst, src []float32, w, n, kc, first, lineStride, kStride int) {
	if n <= 0 || kc <= 0 {
		return
	}
	// Every read is within src: the four corners are (strides may be
	// negative: a flipped view).
	_ = src[first]
	_ = src[first+(n-1)*lineStride]
	_ = src[first+(kc-1)*kStride]
	_ = src[first+(n-1)*lineStride+(kc-1)*kStride]
	for s := 0; s < (n+w-1)/w; s++ {
		strip := dst[s*w*kc : (s+1)*w*kc]
		lines := min(w, n-s*w)
		if lines < w {
			clear(strip)
		}
		out := unsafe.Pointer(&strip[0])
		if lineStride == 1 && lines == w { // lines side by side: w values per step
			for k := 0; k < kc; k++ {
				copy(strip[w*k:w*k+w], src[first+s*w+k*kStride:])
			}
			continue
		}
		// Line by line, each read in order (pointer offsets, no bounds
		// checks: the corners above are in range). Every pointer is formed
		// only for an element that exists: a step past the last one would
		// point outside the allocation, which Go's rules for unsafe forbid
		// (-race's checkptr stops the program on it).
		for l := 0; l < lines; l++ {
			in := unsafe.Pointer(&src[first+(s*w+l)*lineStride])
			o := unsafe.Add(out, 4*l)
			for k := 0; k < kc; k++ {
				*(*float32)(unsafe.Add(o, 4*w*k)) = *(*float32)(unsafe.Add(in, 4*kStride*k))
			}
		}
	}
}

// ensure sizes the scratch buffers for strips of A and B.
func (sc *gemmScratch) ensure(na, nb, edge int) {
	if cap(sc.ap) < na {
		sc.ap = make([]float32, na)
	}
	if cap(sc.bp) < nb {
		sc.bp = make([]float32, nb)
	}
	if cap(sc.edge) < edge {
		sc.edge = make([]float32, edge)
	}
}

// tiled computes rows [r0, r1), columns [j0, j1) of one batch's C: K is
// blocked by gemmKC (each output adds its products in k order across
// blocks, as the in-order reference does), columns by gemmNC.
func (g *gemmPlan) tiled(c, A, B []float32, oa, ob, r0, r1, j0, j1 int, sc *gemmScratch) {
	mk := g.mk
	MR, NR := mk.mr, mk.nr
	N, K := g.N, g.K
	rows, cols := r1-r0, j1-j0
	if rows <= 0 || cols <= 0 {
		return
	}
	strips := (rows + MR - 1) / MR
	for r := r0; r < r1; r++ {
		clear(c[r*N+j0 : r*N+j1])
	}
	direct := g.direct()
	sc.ensure(strips*MR*min(gemmKC, K), min(gemmNC, cols+NR)*min(gemmKC, K), MR*NR)
	for k0 := 0; k0 < K; k0 += gemmKC {
		kc := min(gemmKC, K-k0)
		ap := sc.ap[:strips*MR*kc]
		afirst := oa + r0*g.SAi + k0*g.SAk
		if !direct {
			packStrips(ap, A, MR, rows, kc, afirst, g.SAi, g.SAk)
		} else if rows%MR != 0 { // in place, but for the last, partial strip
			last := (strips - 1) * MR
			packStrips(ap[last*kc:], A, MR, rows-last, kc, afirst+last*g.SAi, g.SAi, g.SAk)
		}
		for jb := j0; jb < j1; jb += gemmNC {
			nc := min(gemmNC, j1-jb)
			cstrips := (nc + NR - 1) / NR
			bfirst := ob + jb*g.SBj + k0*g.SBk
			switch {
			case !direct:
				packStrips(sc.bp[:cstrips*NR*kc], B, NR, nc, kc, bfirst, g.SBj, g.SBk)
			case nc%NR != 0: // in place, but for the last, partial strip
				last := (cstrips - 1) * NR
				packStrips(sc.bp[last*kc:cstrips*NR*kc], B, NR, nc-last, kc, bfirst+last, g.SBj, g.SBk)
			}
			for t := 0; t < cstrips; t++ {
				j, nr := t*NR, min(NR, nc-t*NR)
				pb, sbp := &sc.bp[t*NR*kc], NR
				if direct && nr == NR {
					pb, sbp = &B[bfirst+j], g.SBk
				}
				for s := 0; s < strips; s++ {
					r, mr := s*MR, min(MR, rows-s*MR)
					pa, sar, sap := &ap[s*MR*kc], 1, MR
					if direct && mr == MR {
						pa, sar, sap = &A[afirst+r*g.SAi], g.SAi, g.SAk
					}
					ct := (r0+r)*N + jb + j
					if mr == MR && nr == NR {
						mk.fn(kc, pa, sar, sap, pb, sbp, &c[ct], N)
						continue
					}
					edge := sc.edge[:MR*NR]
					clear(edge)
					for rr := 0; rr < mr; rr++ {
						copy(edge[NR*rr:NR*rr+nr], c[ct+rr*N:ct+rr*N+nr])
					}
					mk.fn(kc, pa, sar, sap, pb, sbp, &edge[0], NR)
					for rr := 0; rr < mr; rr++ {
						copy(c[ct+rr*N:ct+rr*N+nr], edge[NR*rr:NR*rr+nr])
					}
				}
			}
		}
	}
}
