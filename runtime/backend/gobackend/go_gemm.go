package gobackend

// The GO backend's matrix multiply. The scheduler expresses Matmul as a
// reduce-sum over the last axis of A[..., M, 1, K] * B[..., 1, N, K]; the GO
// backend recognizes that kernel shape and runs a tiled GEMM instead of the
// generic block evaluator: A is packed into k-major strips of mr rows, B
// into k-major strips of nr columns (or, when its rows are contiguous and
// it is small, both are read in place), K is blocked so strips stay in
// cache, and an mr×nr tile of C accumulates in registers in an assembly
// micro-kernel. Lines contiguous along k (a row-major A, a transposed B)
// are packed through AVX 8×8 transposes, lines side by side by fixed-size
// row copies.
//
// As on the CPU device, where the machine has fused multiply-adds and
// TICK_FMA is not 0 the micro-kernel fuses them (AVX-512: 12×32, AVX2+FMA:
// 6×16): every output is the in-order chain of fused multiply-adds, the
// same bits as the CPU device's matmul. With TICK_FMA=0, or without FMA,
// products and sums are rounded separately (SSE 4×8): bit-identical to the
// reference interpreter and to the CPU device with TICK_FMA=0. As on the
// CPU device, a tile's rows are made of kernels of mr, 4 and 1 rows, and
// columns past the last whole strip of nr go through a kernel half as
// wide where they fill it; the remaining columns (fewer than nr/2, or the
// separately rounded kernel's short rows and columns) go through the same
// micro-kernel on a zero-padded tile. Each output starts from +0 in the
// first K block and continues from C in the next, so every path gives the
// in-order chain's bits.

import (
	"os"
	"sync"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/ir"
)

const (
	gemmKC = 256  // k-block: a packed strip of A stays in L1
	gemmNC = 1024 // columns per panel of packed B (L2-resident)
	// goDirectMax is the size of B (K·N floats) up to which a B with
	// contiguous rows is read in place by a strided micro-kernel.
	goDirectMax = 64 << 10
)

// mkFunc computes C[rows×cols] (+)= A·B over kc steps: row r of A at
// step p at a + r*sar + p*sap, B's step p at b + p*sbp floats; C rows ldc
// apart. With first not 0 each output starts from +0, else from C.
type mkFunc func(kc int, a *float32, sar, sap int, b *float32, sbp int, c *float32, ldc int, first int)

// microKernel is a register tile of mr×nr and the kernels that make up
// fewer rows or half the columns.
type microKernel struct {
	mr, nr  int
	strided bool // accepts any strides (else A and B must be packed strips: sar 1, sap mr, sbp nr)
	// rows are the row counts with a kernel, from mr down; fns[i] are
	// rows[i]'s kernels nr columns wide and nr/2 (nil: none). A tile of
	// fewer rows is made of them, greatest first; when they cannot make
	// it up (no 1-row kernel), A is a zero-padded strip of mr rows.
	rows []int
	fns  [][2]mkFunc
	name string
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
var exactKernel = microKernel{mr: 4, nr: 8, rows: []int{4}, fns: [][2]mkFunc{{exact4x8, nil}}, name: exactName}

func exact4x8(kc int, a *float32, _, _ int, b *float32, _ int, c *float32, ldc int, first int) {
	if first != 0 {
		cs := unsafe.Slice(c, 3*ldc+8)
		for r := 0; r < 4; r++ {
			clear(cs[r*ldc : r*ldc+8])
		}
	}
	gemmMicro4x8(kc, a, b, c, ldc)
}

// madeUp reports whether the row kernels make up mr rows.
func (mk *microKernel) madeUp(mr int) bool {
	for _, r := range mk.rows {
		mr %= r
	}
	return mr == 0
}

type gemmPlan struct {
	*ir.Gemm
	mk      microKernel
	scratch sync.Pool // *gemmScratch
}

type gemmScratch struct {
	ap, bp []float32
	edge   []float32 // an mr×nr tile
	eb     []float32 // a strip of B's edge columns
	pieces []colPiece
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
		if lineStride == 1 && lines == w { // lines side by side: w values per step
			copyRows(strip, src, first+s*w, w, kc, kStride)
			continue
		}
		l := 0
		if kStride == 1 && haveTranspose && kc >= 8 { // lines along k: transposed 8 (4) lines × 8 values at a time
			nb := kc / 8
			for ; l+8 <= lines; l += 8 {
				packT8(nb, &strip[l], w, &src[first+(s*w+l)*lineStride], lineStride)
			}
			if l+4 <= lines {
				packT4(nb, &strip[l], w, &src[first+(s*w+l)*lineStride], lineStride)
				l += 4
			}
			packLines(strip, src, w, 0, l, nb*8, kc, first+s*w*lineStride, lineStride, kStride)
		}
		packLines(strip, src, w, l, lines, 0, kc, first+s*w*lineStride, lineStride, kStride)
	}
}

// copyRows copies kc rows of w values, the first at src[at], kStride
// apart, to dst, w apart.
func copyRows(dst, src []float32, at, w, kc, kStride int) {
	switch w {
	case 32:
		for k := 0; k < kc; k++ {
			*(*[32]float32)(dst[32*k:]) = *(*[32]float32)(src[at+k*kStride:])
		}
	case 16:
		for k := 0; k < kc; k++ {
			*(*[16]float32)(dst[16*k:]) = *(*[16]float32)(src[at+k*kStride:])
		}
	case 8:
		for k := 0; k < kc; k++ {
			*(*[8]float32)(dst[8*k:]) = *(*[8]float32)(src[at+k*kStride:])
		}
	default:
		for k := 0; k < kc; k++ {
			copy(dst[w*k:w*k+w], src[at+k*kStride:])
		}
	}
}

// packLines packs values [k0, k1) of lines [l0, l1) of a strip w lines
// wide, line l starting at src[first+l*lineStride], one value at a time,
// each line read in order (pointer offsets, no bounds checks: packStrips
// checked the corners). Every pointer is formed only for an element that
// exists: a step past the last one would point outside the allocation,
// which Go's rules for unsafe forbid (-race's checkptr stops the program
// on it).
func packLines(strip, src []float32, w, l0, l1, k0, k1, first, lineStride, kStride int) {
	if k0 >= k1 {
		return
	}
	out := unsafe.Pointer(&strip[0])
	for l := l0; l < l1; l++ {
		in := unsafe.Pointer(&src[first+l*lineStride+k0*kStride])
		o := unsafe.Add(out, 4*(l+w*k0))
		for k := 0; k < k1-k0; k++ {
			*(*float32)(unsafe.Add(o, 4*w*k)) = *(*float32)(unsafe.Add(in, 4*kStride*k))
		}
	}
}

// ensure sizes the scratch buffers for strips of A and B, the edge tile
// and a strip of B's edge columns.
func (sc *gemmScratch) ensure(na, nb, edge, eb int) {
	if cap(sc.ap) < na {
		sc.ap = make([]float32, na)
	}
	if cap(sc.bp) < nb {
		sc.bp = make([]float32, nb)
	}
	if cap(sc.edge) < edge {
		sc.edge = make([]float32, edge)
	}
	if cap(sc.eb) < eb {
		sc.eb = make([]float32, eb)
	}
}

// tiled computes rows [r0, r1), columns [j0, j1) of one batch's C: K is
// blocked by gemmKC (each output starts from +0 in the first block and
// adds its products in k order across blocks, as the in-order reference
// does), columns by gemmNC. Columns go in strips of nr, then one of nr/2
// where it fits, then the edge (fewer columns, through the edge tile);
// the rows of a strip of A through the row kernels (blocks of mr, 4, 1).
func (g *gemmPlan) tiled(c, A, B []float32, oa, ob, r0, r1, j0, j1 int, sc *gemmScratch) {
	mk := &g.mk
	MR, NR := mk.mr, mk.nr
	N, K := g.N, g.K
	rows, cols := r1-r0, j1-j0
	if rows <= 0 || cols <= 0 {
		return
	}
	if K == 0 { // empty sums
		for r := r0; r < r1; r++ {
			clear(c[r*N+j0 : r*N+j1])
		}
		return
	}
	strips := (rows + MR - 1) / MR
	direct := g.direct()
	kb := min(gemmKC, K)
	if direct { // no packed strips
		sc.ensure(0, 0, MR*NR, NR*kb)
	} else {
		sc.ensure(strips*MR*kb, (min(gemmNC, cols)+NR)*kb, MR*NR, NR*kb)
	}
	for k0 := 0; k0 < K; k0 += gemmKC {
		kc := min(gemmKC, K-k0)
		first := 0
		if k0 == 0 {
			first = 1
		}
		// A: in place (direct), or packed into zero-padded strips.
		as, afirst, sar, sap, sstride := A, oa+r0*g.SAi+k0*g.SAk, g.SAi, g.SAk, MR*g.SAi
		if !direct {
			packStrips(sc.ap[:strips*MR*kc], A, MR, rows, kc, afirst, g.SAi, g.SAk)
			as, afirst, sar, sap, sstride = sc.ap, 0, 1, MR, MR*kc
		}
		for jb := j0; jb < j1; jb += gemmNC {
			nc := min(gemmNC, j1-jb)
			bfirst := ob + jb*g.SBj + k0*g.SBk
			if !direct {
				packStrips(sc.bp[:(nc+NR-1)/NR*NR*kc], B, NR, nc, kc, bfirst, g.SBj, g.SBk)
			}
			pieces := sc.pieces[:0]
			for j := 0; j < nc; {
				var pb *float32
				v, w, sbp := 0, nc-j, NR
				switch {
				case w >= NR:
					w = NR
				case w >= NR/2 && mk.fns[0][1] != nil:
					v, w = 1, NR/2
				default: // the edge: its columns packed alone, zero-padded
					packStrips(sc.eb[:NR*kc], B, NR, w, kc, bfirst+j*g.SBj, g.SBj, g.SBk)
					pb = &sc.eb[0]
				}
				switch {
				case pb != nil:
				case direct: // B in place
					pb, sbp = &B[bfirst+j], g.SBk
				default: // its packed strip
					pb = &sc.bp[j/NR*NR*kc]
				}
				pieces = append(pieces, colPiece{j, v, w, pb, sbp})
				j += w
			}
			if !direct || rows > nc {
				// Rows outer: a strip of A (packed: 12 KB at kc 256) stays
				// in L1 while the panel of B's strips streams from L2 (the
				// broadcast side in L1, the vector side from L2), and A in
				// place is read once (tall and skinny).
				for s := 0; s < strips; s++ {
					r := s * MR
					for _, p := range pieces {
						g.block(sc, p.v, min(MR, rows-r), p.w, kc, as, afirst+s*sstride, sar, sap, p.b, p.sbp, c, (r0+r)*N+jb+p.j, N, first)
					}
				}
			} else { // B in place and no smaller than A: columns outer, a strip of B in L1 while A passes
				for _, p := range pieces {
					for s := 0; s < strips; s++ {
						r := s * MR
						g.block(sc, p.v, min(MR, rows-r), p.w, kc, as, afirst+s*sstride, sar, sap, p.b, p.sbp, c, (r0+r)*N+jb+p.j, N, first)
					}
				}
			}
			clear(pieces) // no pointer into B outlives the call
			sc.pieces = pieces
		}
	}
}

// colPiece is a run of columns of one K block: w columns from column j
// with the kernels v wide, B's first step at b, steps sbp apart.
type colPiece struct {
	j, v, w int
	b       *float32
	sbp     int
}

// block computes mr rows × w columns of C from c[co] (rows ldc apart)
// over kc steps with the kernels v wide (0: nr columns, 1: nr/2), A's
// first row at a[ao]: in place when the row kernels make up mr rows and w
// is the kernels' width, else through the edge tile (a zero-padded tile
// of mr rows and nr columns; A then is a zero-padded strip of mr rows
// when the kernels do not make up mr, and B is readable for nr columns).
func (g *gemmPlan) block(sc *gemmScratch, v, mr, w, kc int, a []float32, ao, sar, sap int, b *float32, sbp int, c []float32, co, ldc, first int) {
	mk := &g.mk
	width := mk.nr >> v
	if mr == mk.mr && w == width { // a whole tile
		mk.fns[0][v](kc, &a[ao], sar, sap, b, sbp, &c[co], ldc, first)
		return
	}
	if w == width && mk.madeUp(mr) {
		mk.run(v, mr, kc, a, ao, sar, sap, b, sbp, c, co, ldc, first)
		return
	}
	NR := mk.nr
	edge := sc.edge[:mk.mr*NR]
	if first == 0 {
		for r := 0; r < mr; r++ {
			copy(edge[NR*r:NR*r+w], c[co+r*ldc:co+r*ldc+w])
		}
	}
	if mk.madeUp(mr) {
		mk.run(v, mr, kc, a, ao, sar, sap, b, sbp, edge, 0, NR, first)
	} else {
		mk.fns[0][v](kc, &a[ao], sar, sap, b, sbp, &edge[0], NR, first)
	}
	for r := 0; r < mr; r++ {
		copy(c[co+r*ldc:co+r*ldc+w], edge[NR*r:NR*r+w])
	}
}

// run computes mr rows (made up by the row kernels) v wide: A's rows from
// a[ao], sar apart; C's from c[co], ldc apart.
func (mk *microKernel) run(v, mr, kc int, a []float32, ao, sar, sap int, b *float32, sbp int, c []float32, co, ldc, first int) {
	for i, rr := range mk.rows {
		for ; mr >= rr; mr -= rr {
			mk.fns[i][v](kc, &a[ao], sar, sap, b, sbp, &c[co], ldc, first)
			ao += rr * sar
			co += rr * ldc
		}
	}
}
