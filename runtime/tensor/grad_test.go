package tensor

import (
	"math"
	"math/rand"
	"testing"
)

// Gradients are checked against central finite differences in float64:
// for every input element x_i, (L(x + h·e_i) - L(x - h·e_i)) / 2h, where
// L is the op's output weighted by fixed random numbers and summed (so a
// gradient that is wrong in one output element, or a transposed one,
// shows). The forward values come from the runtime itself, on each
// device.

// gradInput is one input of a gradient check: its shape and how its
// values are drawn (lo, hi) from a seeded generator.
type gradInput struct {
	shape  []int
	lo, hi float64
}

func in(lo, hi float64, shape ...int) gradInput { return gradInput{shape: shape, lo: lo, hi: hi} }

type gradCase struct {
	name string
	ins  []gradInput
	f    func(x ...*Tensor) *Tensor
}

func gradCases() []gradCase {
	std := func(shape ...int) gradInput { return in(-2, 2, shape...) }
	pos := func(shape ...int) gradInput { return in(0.5, 2, shape...) }
	return []gradCase{
		// Elementwise binary ops, with broadcasting and Go numbers.
		{"Add", []gradInput{std(2, 3), std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Add(x[1]) }},
		{"Add broadcast row", []gradInput{std(2, 3), std(3)}, func(x ...*Tensor) *Tensor { return x[0].Add(x[1]) }},
		{"Add broadcast outer", []gradInput{std(2, 1), std(1, 3)}, func(x ...*Tensor) *Tensor { return x[0].Add(x[1]) }},
		{"Add same tensor", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Add(x[0]) }},
		{"Sub", []gradInput{std(2, 3), std(3)}, func(x ...*Tensor) *Tensor { return x[0].Sub(x[1]) }},
		{"Sub number", []gradInput{std(4)}, func(x ...*Tensor) *Tensor { return x[0].Sub(1.5) }},
		{"Mul", []gradInput{std(2, 3), std(2, 1)}, func(x ...*Tensor) *Tensor { return x[0].Mul(x[1]) }},
		{"Mul number", []gradInput{std(4)}, func(x ...*Tensor) *Tensor { return x[0].Mul(-2.5) }},
		{"Mul scalar tensor", []gradInput{std(2, 3), std()}, func(x ...*Tensor) *Tensor { return x[0].Mul(x[1]) }},
		{"Div", []gradInput{std(2, 3), pos(3)}, func(x ...*Tensor) *Tensor { return x[0].Div(x[1]) }},
		{"Div number", []gradInput{std(4)}, func(x ...*Tensor) *Tensor { return x[0].Div(3) }},
		{"Pow", []gradInput{pos(2, 3), std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Pow(x[1]) }},
		{"Pow number", []gradInput{std(5)}, func(x ...*Tensor) *Tensor { return x[0].Pow(3) }},
		{"Pow fractional", []gradInput{pos(5)}, func(x ...*Tensor) *Tensor { return x[0].Pow(0.5) }},
		{"Maximum", []gradInput{std(2, 3), std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Maximum(x[1]) }},
		{"Maximum number", []gradInput{std(6)}, func(x ...*Tensor) *Tensor { return x[0].Maximum(0.25) }},
		{"Minimum", []gradInput{std(2, 3), std(3)}, func(x ...*Tensor) *Tensor { return x[0].Minimum(x[1]) }},
		// Unary ops.
		{"Neg", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Neg() }},
		{"Exp", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Exp() }},
		{"Log", []gradInput{pos(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Log() }},
		{"Sqrt", []gradInput{pos(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Sqrt() }},
		{"Sin", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Sin() }},
		{"Cos", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Cos() }},
		{"Tanh", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Tanh() }},
		{"Sigmoid", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Sigmoid() }},
		{"Relu", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Relu() }},
		{"Abs", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Abs() }},
		{"Where", []gradInput{std(2, 3), std(3)}, func(x ...*Tensor) *Tensor { return Where(x[0].Gt(0), x[0], x[1]) }},
		{"Where number", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return Where(x[0].Lt(0.5), 1.5, x[0].Mul(2)) }},
		{"Cast identity", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Cast(Float64).Mul(x[0]) }},
		// Movement ops.
		{"Reshape", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Reshape(3, 2).Mul(x[0].Reshape(3, 2).Flip(0)) }},
		{"Flatten", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Flatten().Exp() }},
		{"Unsqueeze", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Unsqueeze(1).Expand(2, 4, 3).Sin() }},
		{"Permute", []gradInput{std(2, 3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Permute(2, 0, 1).Mul(x[0].Permute(2, 0, 1)) }},
		{"Transpose", []gradInput{std(2, 3), std(3, 2)}, func(x ...*Tensor) *Tensor { return x[0].T().Mul(x[1]) }},
		{"Expand", []gradInput{std(3, 1)}, func(x ...*Tensor) *Tensor { return x[0].Expand(2, 3, 4).Exp() }},
		{"Shrink", []gradInput{std(4, 5)}, func(x ...*Tensor) *Tensor { return x[0].Shrink([][2]int{{1, 3}, {0, 4}}).Exp() }},
		{"Slice", []gradInput{std(4, 5)}, func(x ...*Tensor) *Tensor { return x[0].Slice(1, 2, -1).Mul(3) }},
		{"Pad", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Pad([][2]int{{1, 0}, {2, 1}}).Add(1).Exp() }},
		{"Flip", []gradInput{std(2, 3), std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Flip(1).Mul(x[1]) }},
		{"Flip all", []gradInput{std(2, 3), std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Flip().Mul(x[1]) }},
		{"Contiguous", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].T().Contiguous().Exp() }},
		{"Cat", []gradInput{std(2, 3), std(2, 2)}, func(x ...*Tensor) *Tensor { return Cat(1, x[0], x[1]).Tanh() }},
		{"Stack", []gradInput{std(3), std(3)}, func(x ...*Tensor) *Tensor { return Stack(0, x[0], x[1].Exp()) }},
		// Reductions.
		{"Sum all", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Exp().Sum() }},
		{"Sum axis", []gradInput{std(2, 3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Sum(1) }},
		{"Sum axes keepdim", []gradInput{std(2, 3, 4)}, func(x ...*Tensor) *Tensor { return x[0].SumKeepDim(0, 2).Mul(x[0]) }},
		{"Sum long rows", []gradInput{std(2, 2048)}, func(x ...*Tensor) *Tensor { return x[0].Mul(x[0]).Sum(-1) }},
		{"Mean", []gradInput{std(2, 3)}, func(x ...*Tensor) *Tensor { return x[0].Mean(0) }},
		{"Mean all", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Sin().Mean() }},
		{"Max", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Max(1) }},
		{"Max all", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Max() }},
		{"MaxKeepDim", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Sub(x[0].MaxKeepDim(0)) }},
		{"Min", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Min(0) }},
		// Composites with rules of their own.
		{"Matmul", []gradInput{std(3, 4), std(4, 2)}, func(x ...*Tensor) *Tensor { return x[0].Matmul(x[1]) }},
		{"Matmul batch", []gradInput{std(2, 3, 4), std(4, 2)}, func(x ...*Tensor) *Tensor { return x[0].Matmul(x[1]) }},
		{"Matmul batch both", []gradInput{std(2, 1, 3, 4), std(3, 4, 2)}, func(x ...*Tensor) *Tensor { return x[0].Matmul(x[1]) }},
		{"Matmul vector left", []gradInput{std(4), std(4, 3)}, func(x ...*Tensor) *Tensor { return x[0].Matmul(x[1]) }},
		{"Matmul vector right", []gradInput{std(3, 4), std(4)}, func(x ...*Tensor) *Tensor { return x[0].Matmul(x[1]) }},
		{"Matmul vectors", []gradInput{std(4), std(4)}, func(x ...*Tensor) *Tensor { return x[0].Matmul(x[1]) }},
		{"Matmul transposed", []gradInput{std(4, 3), std(2, 4)}, func(x ...*Tensor) *Tensor { return x[0].T().Matmul(x[1].T()) }},
		{"Softmax", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Softmax(-1) }},
		{"Softmax axis 0", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].Softmax(0) }},
		{"LogSoftmax", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].LogSoftmax(1) }},
		{"LogSoftmax axis 0", []gradInput{std(3, 4)}, func(x ...*Tensor) *Tensor { return x[0].LogSoftmax(0) }},
		// A graph that reuses values and mixes everything.
		{"two-layer net", []gradInput{std(5, 4), std(4, 3), std(3), std(3, 2)}, func(x ...*Tensor) *Tensor {
			h := x[0].Matmul(x[1]).Add(x[2]).Relu()
			return h.Matmul(x[3]).LogSoftmax(-1).Mul(h.Sum(-1).Unsqueeze(1).Sigmoid())
		}},
	}
}

// draw fills shape with seeded values in [lo, hi).
func (g gradInput) draw(r *rand.Rand) []float64 {
	v := make([]float64, prod(g.shape))
	for i := range v {
		v[i] = g.lo + (g.hi-g.lo)*r.Float64()
	}
	return v
}

// onCL are the cases also run on devices whose every kernel costs a
// slow compile (OpenCL's): the rules are the same on every device (they
// build ordinary tensor operations, which the runtime's correctness suite
// checks per device), so these few cover what differs — reductions,
// products, views — without a compile per case.
var onCL = map[string]bool{"Matmul batch both": true, "LogSoftmax": true, "Max": true, "Pad": true, "Sum long rows": true, "two-layer net": true}

func TestGradFiniteDifferences(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			for ci, c := range gradCases() {
				if dev == "CL" && !onCL[c.name] {
					continue
				}
				t.Run(c.name, func(t *testing.T) { checkGradCase(t, c, int64(ci)) })
			}
		})
	}
}

func checkGradCase(t *testing.T, c gradCase, seed int64) {
	t.Helper()
	r := rand.New(rand.NewSource(seed + 1))
	vals := make([][]float64, len(c.ins))
	for i, g := range c.ins {
		vals[i] = g.draw(r)
	}
	// The weights of the loss: one per output element.
	probe := c.f(gradTensors(c.ins, vals, false)...)
	w := make([]float64, probe.Numel())
	for i := range w {
		w[i] = 0.5 + r.Float64()
	}
	weights := FromFloat64s(w, probe.Shape()...)
	loss := func(x []*Tensor) *Tensor { return c.f(x...).Mul(weights).Sum() }

	xs := gradTensors(c.ins, vals, true)
	l := loss(xs)
	l.Backward()
	const h = 1e-6
	for i := range c.ins {
		g := xs[i].Grad()
		if g == nil {
			t.Fatalf("input %d: no gradient", i)
		}
		if !equalInts(g.Shape(), c.ins[i].shape) || g.DType() != Float64 {
			t.Fatalf("input %d: gradient is %v %s, want %v float64", i, g.Shape(), g.DType(), c.ins[i].shape)
		}
		got := g.Float64s()
		for j := range vals[i] {
			orig := vals[i][j]
			vals[i][j] = orig + h
			up := loss(gradTensors(c.ins, vals, false)).Item()
			vals[i][j] = orig - h
			down := loss(gradTensors(c.ins, vals, false)).Item()
			vals[i][j] = orig
			want := (up - down) / (2 * h)
			if math.Abs(got[j]-want) > 1e-5*(1+math.Abs(want)) {
				t.Errorf("input %d element %d: gradient %.9g, finite difference %.9g", i, j, got[j], want)
			}
		}
	}
}

func gradTensors(ins []gradInput, vals [][]float64, requires bool) []*Tensor {
	xs := make([]*Tensor, len(ins))
	for i, g := range ins {
		shape := g.shape
		if len(shape) == 0 {
			xs[i] = FromFloat64s(vals[i], 1).Reshape()
		} else {
			xs[i] = FromFloat64s(vals[i], shape...)
		}
		if requires {
			xs[i].RequiresGrad()
		}
	}
	return xs
}
