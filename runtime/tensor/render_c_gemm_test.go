package tensor

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/native"
)

// gemmKernel is the contraction Matmul schedules for batch × [M,K]·[K,N]
// with B read transposed when bT (B stored [N,K]).
func gemmKernel(batch, M, N, K int, bT bool) *Kernel {
	f := Float32
	aS := []int{M * K, K, 0, 1}
	bS := []int{K * N, 0, 1, N}
	if bT {
		bS = []int{K * N, 0, K, 1}
	}
	return &Kernel{Name: fmt.Sprintf("R_gemm_%d_%d_%d_%d", batch, M, N, K), Shape: []int{batch, M, N, K}, ReduceAxes: []int{3}, Reduce: ReduceSum,
		Expr: cpuBin(OpMul, f, cpuLd(1, f, aS, 0, nil), cpuLd(2, f, bS, 0, nil)),
		Bufs: []BufferSpec{{f, batch * M * N}, {f, batch * M * K}, {f, batch * K * N}}}
}

// The packed GEMM gives exactly the reference's in-order sums for shapes
// that exercise every edge: partial register tiles, several K, M and N
// blocks, batches, a transposed B, and launch ranges that start and end
// inside rows (cpuRun cuts the outputs in three uneven pieces).
func TestCPUGemmMatchesReference(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		batch, M, N, K int
		bT             bool
	}{
		{1, 1, 1, 1, false}, {1, 7, 5, 3, false}, {1, 13, 33, 300, false}, {2, 25, 40, 17, true},
		{1, 100, 70, 520, true}, {1, 3, 1100, 9, false}, {3, 12, 64, 64, false},
	} {
		k := gemmKernel(c.batch, c.M, c.N, c.K, c.bT)
		t.Run(k.Name, func(t *testing.T) {
			in := make([][]float64, len(k.Bufs))
			for i, b := range k.Bufs[1:] {
				in[i+1] = cpuTestData(b, i)
			}
			if c.M == 7 { // signed zeros: -0·x sums to -0 only if every product is -0
				for i := range in[1] {
					in[1][i] = math.Copysign(0, -1)
				}
			}
			want := cpuRefEval(k, in)
			got, src := cpuRun(t, k, in)
			if !strings.Contains(src, "tick_gemm_rows") {
				t.Fatalf("not rendered as the packed GEMM:\n%s", src)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("out[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// Through Matmul on the CPU device, the GEMM agrees with the GO device on
// values large enough to round (K of several blocks).
func TestCPUGemmMatmulMatchesGO(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	a, b := RandnSeed(7, 70, 600), RandnSeed(8, 600, 90)
	cpu := a.To("CPU").Matmul(b.To("CPU")).Float32s()
	gov := a.To("GO").Matmul(b.To("GO")).Float32s()
	for i := range cpu {
		if d := cpu[i] - gov[i]; d > 1e-3 || d < -1e-3 {
			t.Fatalf("[%d] CPU %v GO %v", i, cpu[i], gov[i])
		}
	}
}

// With TICK_FMA=1 the micro-kernel may fuse multiply-adds: the source says
// so, and results stay within rounding of the reference (no longer exact).
func TestCPUGemmFMAOptIn(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	t.Setenv(EnvFMA, "1")
	k := gemmKernel(1, 30, 50, 700, false)
	in := make([][]float64, len(k.Bufs))
	for i, b := range k.Bufs[1:] {
		in[i+1] = cpuTestData(b, i)
	}
	want := cpuRefEval(k, in)
	got, src := cpuRun(t, k, in)
	if !strings.Contains(src, `optimize("fp-contract=fast")`) {
		t.Fatalf("TICK_FMA=1 did not allow contraction:\n%s", src[:min(len(src), 2000)])
	}
	for i := range want {
		if d := math.Abs(got[i] - want[i]); d > 1e-5*math.Max(1, math.Abs(want[i])) {
			t.Fatalf("out[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}
