package tensor

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// gonumMatmul is the reference: C = A·B with gonum's float32 BLAS.
func gonumMatmul(a, b []float32, m, k, n int) []float32 {
	c := make([]float32, m*n)
	if k == 0 {
		return c
	}
	blas32.Gemm(blas.NoTrans, blas.NoTrans, 1,
		blas32.General{Rows: m, Cols: k, Stride: max(k, 1), Data: a},
		blas32.General{Rows: k, Cols: n, Stride: max(n, 1), Data: b},
		0, blas32.General{Rows: m, Cols: n, Stride: max(n, 1), Data: c})
	return c
}

func randF32(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return v
}

func TestMatmulMatchesGonum(t *testing.T) {
	sizes := [][3]int{{1, 1, 1}, {2, 3, 4}, {5, 7, 3}, {33, 65, 17}, {64, 64, 64}, {130, 300, 70}, {4, 0, 4}}
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			r := rand.New(rand.NewSource(5))
			for _, s := range sizes {
				m, k, n := s[0], s[1], s[2]
				a, b := randF32(r, m*k), randF32(r, k*n)
				want := gonumMatmul(a, b, m, k, n)
				got := FromFloat32s(a, m, k).Matmul(FromFloat32s(b, k, n)).Float32s()
				checkF32(t, fmt.Sprintf("matmul %v", s), got, want, k)
				// Transposed operands (non-contiguous views) give the same product.
				at := FromFloat32s(a, m, k).T().Contiguous().Realize().T()
				bt := FromFloat32s(b, k, n).T().Contiguous().Realize().T()
				checkF32(t, fmt.Sprintf("matmul of transposed views %v", s), at.Matmul(bt).Float32s(), want, k)
			}
			// Batched with broadcasting: [2,3,4]·[4,5] and vectors.
			a, b := randF32(r, 24), randF32(r, 20)
			got := FromFloat32s(a, 2, 3, 4).Matmul(FromFloat32s(b, 4, 5)).Float32s()
			for bi := 0; bi < 2; bi++ {
				checkF32(t, "batched", got[bi*15:(bi+1)*15], gonumMatmul(a[bi*12:(bi+1)*12], b, 3, 4, 5), 4)
			}
			v := FromFloat32s(a[:4], 4).Matmul(FromFloat32s(b, 4, 5))
			if s := v.Shape(); !equalInts(s, []int{5}) {
				t.Fatalf("vector·matrix shape %v, want [5]", s)
			}
			checkF32(t, "vector·matrix", v.Float32s(), gonumMatmul(a[:4], b, 1, 4, 5), 4)
		})
	}
}

func checkF32(t *testing.T, what string, got, want []float32, k int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	tol := 1e-5 * float64(k+1)
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > tol {
			t.Fatalf("%s: element %d = %v, want %v", what, i, got[i], want[i])
		}
	}
}

// TestFusedEqualsUnfused is a property test: random chains of elementwise
// ops (with broadcasts, views and a final reduce) give the same values when
// fused into one kernel as when every op is realized on its own.
func TestFusedEqualsUnfused(t *testing.T) {
	type step func(x, y *Tensor) *Tensor
	steps := []step{
		func(x, y *Tensor) *Tensor { return x.Add(y) },
		func(x, y *Tensor) *Tensor { return x.Mul(y) },
		func(x, y *Tensor) *Tensor { return x.Sub(1.5) },
		func(x, y *Tensor) *Tensor { return x.Tanh() },
		func(x, y *Tensor) *Tensor { return x.Maximum(y.Neg()) },
		func(x, y *Tensor) *Tensor { return Where(x.Gt(y), x, y.Mul(2)) },
		func(x, y *Tensor) *Tensor { return x.Flip(1) },
		func(x, y *Tensor) *Tensor { return x.T().Contiguous().T() },
		func(x, y *Tensor) *Tensor { return x.Sigmoid().Mul(x) },
		func(x, y *Tensor) *Tensor { return x.Add(y.Slice(0, 0, 1)) },
	}
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			r := rand.New(rand.NewSource(6))
			for trial := 0; trial < 12; trial++ {
				x0 := FromFloat32s(randF32(r, 12), 3, 4).Realize()
				y := FromFloat32s(randF32(r, 12), 3, 4).Realize()
				fused, unfused := x0, x0
				var plan []int
				for i := 0; i < 2+r.Intn(6); i++ {
					s := r.Intn(len(steps))
					plan = append(plan, s)
					fused = steps[s](fused, y)
					unfused = steps[s](unfused, y).Realize()
				}
				fusedSum, unfusedSum := fused.Sum(1), unfused.Realize().Sum(1)
				checkF32(t, fmt.Sprintf("trial %d steps %v", trial, plan), fused.Float32s(), unfused.Float32s(), 1)
				checkF32(t, fmt.Sprintf("trial %d steps %v, summed", trial, plan), fusedSum.Float32s(), unfusedSum.Float32s(), 4)
			}
		})
	}
}

// TestFusionMakesOneKernel checks the scheduler's promise: an elementwise
// chain and the reduce that consumes it run as one kernel.
func TestFusionMakesOneKernel(t *testing.T) {
	onDevice(t, "GO")
	a := Arange(1000).Realize()
	cases := []struct {
		name string
		f    func() *Tensor
		want int64
	}{
		{"a*2+1", func() *Tensor { return a.Mul(2).Add(1) }, 1},
		{"exp(a*2+1).sum()", func() *Tensor { return a.Mul(2).Add(1).Exp().Sum() }, 1},
		{"transposed chain", func() *Tensor { return a.Reshape(10, 100).Mul(2).T().Add(1) }, 1},
		{"softmax", func() *Tensor { return a.Reshape(10, 100).Softmax(1) }, 3},
	}
	for _, c := range cases {
		x := c.f()
		if err := SynchronizeAll(); err != nil {
			t.Fatal(err)
		}
		ResetCounters()
		x.Realize()
		if got := Counters().KernelsLaunched; got != c.want {
			t.Errorf("%s: %d kernels, want %d", c.name, got, c.want)
		}
	}
}
