package cpu

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
	"github.com/tick-kernel/tick/runtime/native"
)

// gemmKernel is the contraction Matmul schedules for batch × [M,K]·[K,N]
// with B read transposed when bT (B stored [N,K]).
func gemmKernel(batch, M, N, K int, bT bool) *ir.Kernel {
	return gemmKernelT(batch, M, N, K, false, bT)
}

// gemmKernelT is gemmKernel with A read transposed too when aT (A stored
// [K,M], as the weight gradient xᵀ·dy reads x).
func gemmKernelT(batch, M, N, K int, aT, bT bool) *ir.Kernel {
	f := ir.Float32
	aS := []int{M * K, K, 0, 1}
	if aT {
		aS = []int{M * K, 1, 0, M}
	}
	bS := []int{K * N, 0, 1, N}
	if bT {
		bS = []int{K * N, 0, K, 1}
	}
	return &ir.Kernel{Name: fmt.Sprintf("R_gemm_%d_%d_%d_%d", batch, M, N, K), Shape: []int{batch, M, N, K}, ReduceAxes: []int{3}, Reduce: ir.ReduceSum,
		Expr: irtest.Bin(ir.OpMul, f, irtest.Ld(1, f, aS, 0, nil), irtest.Ld(2, f, bS, 0, nil)),
		Bufs: []ir.BufferSpec{{DType: f, Size: batch * M * N}, {DType: f, Size: batch * M * K}, {DType: f, Size: batch * K * N}}}
}

// gemmShapes exercise every edge of the packed GEMM: partial register
// tiles, several K, M and N blocks (of both block sizes: 256 and 384),
// batches, a transposed B, and launch ranges that start and end inside rows
// (cpuRun cuts the outputs in three uneven pieces).
//
// Those with B's rows contiguous and B small take the direct path (A and
// B read in place): row counts that are not a multiple of the register
// tile (made of 12/6-, 4- and 1-row blocks), columns past the last whole
// vector, a transposed A, batches. The others are packed.
var gemmShapes = []struct {
	batch, M, N, K int
	aT, bT         bool
	direct         bool
}{
	{1, 1, 1, 1, false, false, true}, {1, 7, 5, 3, false, false, true}, {1, 13, 33, 300, false, false, true}, {2, 25, 40, 17, false, true, false},
	{1, 100, 70, 520, false, true, false}, {1, 3, 1100, 9, false, false, true}, {3, 12, 64, 64, false, false, true}, {1, 150, 49, 1400, false, false, false},
	{1, 64, 64, 64, false, false, true}, {1, 29, 50, 33, true, false, true}, {4, 13, 17, 9, false, false, true}, {1, 300, 64, 64, false, false, true},
	{1, 37, 300, 230, true, false, false}, {1, 23, 150, 60, true, true, false},
	// Square sizes around the register tile and the vector width (1, 7,
	// 63, 65, 129: short and long edges in rows and columns), each with A
	// and B as stored and transposed (a transposed B is packed); 256 is
	// the largest B read in place.
	{1, 1, 1, 1, true, true, true},
	{1, 7, 7, 7, false, false, true}, {1, 7, 7, 7, true, false, true}, {1, 7, 7, 7, false, true, false}, {1, 7, 7, 7, true, true, false},
	{1, 63, 63, 63, false, false, true}, {1, 63, 63, 63, true, false, true}, {1, 63, 63, 63, false, true, false}, {1, 63, 63, 63, true, true, false},
	{1, 65, 65, 65, false, false, true}, {1, 65, 65, 65, true, false, true}, {1, 65, 65, 65, false, true, false}, {1, 65, 65, 65, true, true, false},
	{1, 129, 129, 129, false, false, true}, {1, 129, 129, 129, true, false, true}, {1, 129, 129, 129, false, true, false}, {1, 129, 129, 129, true, true, false},
	{1, 256, 256, 256, false, false, true}, {1, 100, 257, 256, false, false, false},
}

// gemmPath checks that k (one of gemmShapes) was rendered as the layout
// the table says.
func gemmPath(t *testing.T, src string, direct bool) {
	t.Helper()
	call := "tick_gemm_rows(cp"
	if direct {
		call = "tick_gemm_direct(cp"
	}
	if !strings.Contains(src, call) {
		t.Fatalf("not rendered as %s:\n%s", call, src[strings.LastIndex(src, "void tick_"):])
	}
}

// With TICK_FMA=0 the packed GEMM gives exactly the reference's in-order
// sums of separately rounded products.
func TestCPUGemmMatchesReference(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	t.Setenv(EnvFMA, "0")
	for _, c := range gemmShapes {
		k := gemmKernelT(c.batch, c.M, c.N, c.K, c.aT, c.bT)
		t.Run(k.Name, func(t *testing.T) {
			in := make([][]float64, len(k.Bufs))
			for i, b := range k.Bufs[1:] {
				in[i+1] = irtest.Data(b, i)
			}
			if c.M == 7 { // signed zeros: -0·x sums to -0 only if every product is -0
				for i := range in[1] {
					in[1][i] = math.Copysign(0, -1)
				}
			}
			want := irtest.Eval(k, in)
			got, src := cpuRun(t, k, in)
			gemmPath(t, src, c.direct)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("out[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// gemmRandData is float32 values in [-1, 1) whose products and sums round
// (unlike cpuTestData's quarters), from a fixed LCG.
func gemmRandData(n int, seed uint32) []float64 {
	out := make([]float64, n)
	x := seed*2654435761 + 1
	for i := range out {
		x = x*1664525 + 1013904223
		out[i] = float64(float32(int32(x>>8)-1<<23) / (1 << 23))
	}
	return out
}

// By default (where the target has FMA) the GEMM fuses multiply-adds:
// every output is the in-order chain of fused multiply-adds (s =
// fma(a_k, b_k, s) from s = 0; without FMA in the target, of separately
// rounded products and sums), bit for bit, whatever the layout (direct,
// packed), the register tile's row blocks and the edges (the paths differ
// in speed only); it is within the dot-product error bound of both the
// exact sum (|c - exact| <= K·u·Σ|a||b|) and the reference's separately
// rounded in-order sum (twice that), and some outputs differ from the
// reference (the contraction is in effect).
func TestCPUGemmFMAWithinBound(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	c, err := native.Default()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv(EnvFMA, "")
	const u = 1.0 / (1 << 24) // unit roundoff of float32
	fused := c.VectorISA().FMA
	differ := 0
	for _, sh := range gemmShapes {
		k := gemmKernelT(sh.batch, sh.M, sh.N, sh.K, sh.aT, sh.bT)
		t.Run(k.Name, func(t *testing.T) {
			in := make([][]float64, len(k.Bufs))
			for i, b := range k.Bufs[1:] {
				in[i+1] = gemmRandData(b.Size, uint32(i+1))
			}
			want := irtest.Eval(k, in)
			got, src := cpuRun(t, k, in)
			if !strings.Contains(src, `optimize("fp-contract=fast")`) {
				t.Fatalf("the GEMM does not allow contraction by default:\n%s", src[:min(len(src), 2000)])
			}
			gemmPath(t, src, sh.direct)
			// exact and Σ|a||b| per output, from the kernel's own loads.
			ga := ir.MatchGemm(k)
			for o := range want {
				bi, i, j := o/(sh.M*sh.N), o/sh.N%sh.M, o%sh.N
				var exact, mag float64
				var chain float32
				for kk := 0; kk < sh.K; kk++ {
					a := in[ga.BufA][ga.OffA+bi*ga.BsA[0]+i*ga.SAi+kk*ga.SAk]
					b := in[ga.BufB][ga.OffB+bi*ga.BsB[0]+j*ga.SBj+kk*ga.SBk]
					exact += a * b
					mag += math.Abs(a * b)
					chain = fma32(float32(a), float32(b), chain, fused)
				}
				if math.Float32bits(float32(got[o])) != math.Float32bits(chain) {
					t.Fatalf("out[%d] = %v, the in-order chain (fused: %v) gives %v", o, got[o], fused, chain)
				}
				bound := float64(sh.K) * u * mag
				if d := math.Abs(got[o] - exact); d > bound {
					t.Fatalf("out[%d] = %v, exact %v: error %g > K·u·Σ|a||b| = %g", o, got[o], exact, d, bound)
				}
				if d := math.Abs(got[o] - want[o]); d > 2*bound {
					t.Fatalf("out[%d] = %v, reference %v: difference %g > 2·K·u·Σ|a||b| = %g", o, got[o], want[o], d, 2*bound)
				}
				if got[o] != want[o] {
					differ++
				}
			}
		})
	}
	if c.VectorISA().FMA && differ == 0 {
		t.Errorf("the target has FMA (%v) but every output equals the separately rounded sum: no contraction happened", c.VectorISA())
	}
	t.Logf("%d outputs differ from the separately rounded reference", differ)
}

// fma32 is a*b + c, fused (irtest.FMA32) or with the product rounded first.
func fma32(a, b, c float32, fused bool) float32 {
	if fused {
		return irtest.FMA32(a, b, c)
	}
	return a*b + c
}
