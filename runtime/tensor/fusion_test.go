package tensor

import (
	"slices"
	"testing"

	"github.com/tick-kernel/tick/runtime/ir"
)

func TestSetFusionOffGivesAKernelPerOp(t *testing.T) {
	x := FromFloat32s([]float32{1, 2, 3, 4})
	y := x.Mul(2).Add(1).Exp().Sum()
	if n := len(y.Plan().Kernels); n != 1 {
		t.Fatalf("fused: %d kernels, want 1", n)
	}
	was := SetFusion(false)
	defer SetFusion(was)
	if !was || Fusion() {
		t.Fatal("SetFusion did not report or change the setting")
	}
	if n := len(y.Plan().Kernels); n != 4 {
		t.Fatalf("unfused: %d kernels, want 4 (mul, add, exp, sum)", n)
	}
	for range 3 { // the eager cache must not fuse either
		z := x.Mul(2).Add(1)
		ResetCounters()
		got := z.Realize().Float32s()
		if n := Counters().KernelsLaunched; n != 2 || !slices.Equal(got, []float32{3, 5, 7, 9}) {
			t.Fatalf("unfused eager: %d kernels, %v", n, got)
		}
	}
}

// gemmKernels counts the kernels of t's schedule that backends run as a
// GEMM.
func gemmKernels(t *Tensor) int {
	s := &scheduler{dry: true}
	s.realize(copyGraph(t.l.base(), map[*lazy]*lazy{}, map[*lazy]*lazy{}))
	n := 0
	for _, it := range s.items {
		if ir.MatchGemm(it.k) != nil {
			n++
		}
	}
	return n
}

func TestGradientProductsRunAsGEMMs(t *testing.T) {
	// dW1 = (dlogits·W2 masked by relu')ᵀ·x: both products read
	// elementwise expressions, which must be computed into buffers first
	// so each product is a GEMM, not a reduce recomputing them.
	x := RandSeed(1, 8, 6)
	w1 := RandSeed(2, 6, 5).RequiresGrad()
	w2 := RandSeed(3, 5, 3).RequiresGrad()
	loss := x.Matmul(w1).Add(0.1).Relu().Matmul(w2).LogSoftmax(-1).Mean()
	loss.Backward()
	if n := gemmKernels(w1.Grad()); n != 2 {
		t.Fatalf("the gradient of w1 has %d GEMM kernels, want 2 (dh = dlogits·W2ᵀ, dW1 = xᵀ·dpre)", n)
	}
}
