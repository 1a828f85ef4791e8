package tensor

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func approxSlice(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

func TestBackwardErrors(t *testing.T) {
	x := FromFloat32s([]float32{1, 2, 3}).RequiresGrad()
	var be *BackwardError
	if err := x.Mul(2).BackwardE(); !errors.As(err, &be) || !strings.Contains(err.Error(), "scalar loss") {
		t.Fatalf("non-scalar loss: %v", err)
	}
	if err := FromFloat32s([]float32{1, 2}).Sum().BackwardE(); !errors.As(err, &be) || !strings.Contains(err.Error(), "RequiresGrad") {
		t.Fatalf("untracked loss: %v", err)
	}
	func() {
		defer func() {
			var oe *OpError
			if r := recover(); r == nil || !errors.As(r.(error), &oe) || !strings.Contains(oe.Msg, "float") {
				t.Fatalf("RequiresGrad of int32: %v", r)
			}
		}()
		FromInt32s([]int32{1, 2}).RequiresGrad()
	}()
}

func TestBackwardAccumulatesAndZeroGrad(t *testing.T) {
	x := FromFloat64s([]float64{1, 2, 3}).RequiresGrad()
	x.Mul(x).Sum().Backward() // 2x
	x.Mul(3).Sum().Backward() // + 3
	approxSlice(t, "accumulated", x.Grad().Float64s(), []float64{5, 7, 9}, 1e-12)
	x.ZeroGrad()
	if x.Grad() != nil {
		t.Fatal("ZeroGrad kept the gradient")
	}
	x.Sum().Backward()
	approxSlice(t, "after ZeroGrad", x.Grad().Float64s(), []float64{1, 1, 1}, 1e-12)
}

func TestBackwardAfterRealizingTheForwardPass(t *testing.T) {
	// Realizing turns lazy nodes into buffers; the rules read the values
	// through whatever the nodes are by then.
	x := FromFloat64s([]float64{0.5, -1, 2}).RequiresGrad()
	y := x.Exp().Realize()
	z := y.Mul(x).Sum()
	if v := z.Item(); math.Abs(v-(0.5*math.Exp(0.5)-math.Exp(-1)+2*math.Exp(2))) > 1e-9 {
		t.Fatalf("loss %v", v)
	}
	z.Backward()
	want := []float64{}
	for _, v := range []float64{0.5, -1, 2} {
		want = append(want, math.Exp(v)*(1+v)) // d(x e^x)/dx
	}
	approxSlice(t, "grad", x.Grad().Float64s(), want, 1e-12)
}

func TestDetachStopsGradients(t *testing.T) {
	x := FromFloat64s([]float64{1, 2}).RequiresGrad()
	loss := x.Mul(x.Detach()).Sum() // d/dx of x·c is c
	loss.Backward()
	approxSlice(t, "grad", x.Grad().Float64s(), []float64{1, 2}, 1e-12)
	if x.Detach().Tracked() || !x.Tracked() || !x.IsRequiringGrad() || x.Mul(2).IsRequiringGrad() {
		t.Fatal("Tracked/IsRequiringGrad")
	}
	if x.Gt(1).Tracked() || x.Argmax(0).Tracked() {
		t.Fatal("a comparison or an index has no gradient")
	}
}

func TestMaxGradientSplitsTies(t *testing.T) {
	x := FromFloat64s([]float64{3, 1, 3, 2}).RequiresGrad()
	x.Max().Backward()
	approxSlice(t, "max ties", x.Grad().Float64s(), []float64{0.5, 0, 0.5, 0}, 1e-12)
	y := FromFloat64s([]float64{1, 1}).RequiresGrad()
	z := FromFloat64s([]float64{1, 0}).RequiresGrad()
	y.Maximum(z).Sum().Backward()
	approxSlice(t, "Maximum tie", y.Grad().Float64s(), []float64{0.5, 1}, 1e-12)
	approxSlice(t, "Maximum tie other", z.Grad().Float64s(), []float64{0.5, 0}, 1e-12)
}

func TestGradDTypeFollowsTheTensor(t *testing.T) {
	// A float32 parameter in a float64 computation gets a float32 gradient.
	w := FromFloat32s([]float32{1, 2}).RequiresGrad()
	x := FromFloat64s([]float64{3, 4})
	w.Mul(x).Sum().Backward()
	if w.Grad().DType() != Float32 {
		t.Fatalf("grad dtype %s", w.Grad().DType())
	}
	approxSlice(t, "grad", w.Grad().Float64s(), []float64{3, 4}, 1e-7)
}

func TestGradientsAreLazyAndFuse(t *testing.T) {
	// The gradient of a chain of elementwise ops is one elementwise
	// kernel: nothing runs until it is realized.
	x := FromFloat32s([]float32{0.1, 0.2, 0.3, 0.4}).RequiresGrad()
	loss := x.Mul(3).Exp().Sin().Sum()
	loss.Backward()
	ResetCounters()
	g := x.Grad()
	if n := Counters().KernelsLaunched; n != 0 {
		t.Fatalf("%d kernels ran before the gradient was realized", n)
	}
	if p := g.Plan(); len(p.Kernels) != 1 {
		names := []string{}
		for _, k := range p.Kernels {
			names = append(names, k.Name)
		}
		t.Fatalf("gradient of an elementwise chain is %d kernels: %v", len(p.Kernels), names)
	}
	want := []float64{}
	for _, v := range []float64{0.1, 0.2, 0.3, 0.4} {
		want = append(want, math.Cos(math.Exp(3*v))*math.Exp(3*v)*3)
	}
	approxSlice(t, "grad", g.Float64s(), want, 1e-5)
}

func TestSetGrad(t *testing.T) {
	x := FromFloat32s([]float32{1, 2}).RequiresGrad()
	x.SetGrad(FromFloat32s([]float32{5, 6}))
	if got := x.Grad().Float32s(); !slices.Equal(got, []float32{5, 6}) {
		t.Fatal(got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("SetGrad of another shape did not panic")
		}
	}()
	x.SetGrad(Ones(3))
}
