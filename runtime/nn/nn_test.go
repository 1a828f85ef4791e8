package nn

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// f64 is a float64 tensor of shape with seeded values in [-1, 1).
func f64(seed int64, shape ...int) *tensor.Tensor {
	r := rand.New(rand.NewSource(seed))
	n := 1
	for _, s := range shape {
		n *= s
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = 2*r.Float64() - 1
	}
	return tensor.FromFloat64s(v, shape...)
}

// fdCheck compares the gradient of loss with respect to each parameter
// (float64, realized, requiring a gradient) with central finite
// differences, perturbing the parameters in place with Assign.
func fdCheck(t *testing.T, ps []*tensor.Tensor, loss func() *tensor.Tensor) {
	t.Helper()
	for _, p := range ps {
		p.ZeroGrad()
	}
	loss().Backward()
	const h = 1e-6
	for pi, p := range ps {
		got := p.Grad().Float64s()
		vals := p.Float64s()
		for i := range vals {
			at := func(v float64) float64 {
				w := append([]float64(nil), vals...)
				w[i] = v
				p.Assign(tensor.FromFloat64s(w, p.Shape()...)).Realize()
				return loss().Item()
			}
			want := (at(vals[i]+h) - at(vals[i]-h)) / (2 * h)
			p.Assign(tensor.FromFloat64s(vals, p.Shape()...)).Realize()
			if math.Abs(got[i]-want) > 1e-5*(1+math.Abs(want)) {
				t.Fatalf("parameter %d element %d: gradient %.9g, finite difference %.9g", pi, i, got[i], want)
			}
		}
	}
}

// weighted sums y against fixed weights, so every output element counts
// differently in the loss.
func weighted(y *tensor.Tensor) *tensor.Tensor {
	return y.Mul(f64(99, y.Shape()...).Add(2)).Sum()
}

func TestLinear(t *testing.T) {
	tensor.ManualSeed(3)
	l := NewLinear(4, 3)
	tensor.ManualSeed(3)
	l2 := NewLinear(4, 3)
	w, w2 := l.Weight.Float32s(), l2.Weight.Float32s()
	for i := range w {
		if w[i] != w2[i] || math.Abs(float64(w[i])) > 0.5 {
			t.Fatalf("init: %v vs %v (want equal under one seed, within ±1/sqrt(4))", w, w2)
		}
	}
	if !l.Weight.IsRequiringGrad() || len(l.Parameters()) != 2 || l.String() != "Linear(4 → 3)" {
		t.Fatalf("parameters %v, %s", l.Parameters(), l)
	}
	l.Weight, l.Bias = f64(1, 3, 4).RequiresGrad(), f64(2, 3).RequiresGrad()
	x := f64(3, 5, 4)
	y := l.Forward(x).Float64s()
	xv, wv, bv := x.Float64s(), l.Weight.Float64s(), l.Bias.Float64s()
	for i := range 5 {
		for o := range 3 {
			want := bv[o]
			for k := range 4 {
				want += xv[i*4+k] * wv[o*4+k]
			}
			if math.Abs(y[i*3+o]-want) > 1e-12 {
				t.Fatalf("y[%d,%d] = %v, want %v", i, o, y[i*3+o], want)
			}
		}
	}
	fdCheck(t, l.Parameters(), func() *tensor.Tensor { return weighted(l.Forward(x).Tanh()) })
}

// convRef is the direct definition of Conv2d, in float64 loops.
func convRef(x, w, b []float64, n, c, h, wd, o, k, s, p int) ([]float64, int, int) {
	ho, wo := (h+2*p-k)/s+1, (wd+2*p-k)/s+1
	out := make([]float64, n*o*ho*wo)
	for in := range n {
		for oc := range o {
			for i := range ho {
				for j := range wo {
					sum := b[oc]
					for cc := range c {
						for di := range k {
							for dj := range k {
								y, xx := i*s+di-p, j*s+dj-p
								if y < 0 || y >= h || xx < 0 || xx >= wd {
									continue
								}
								sum += x[((in*c+cc)*h+y)*wd+xx] * w[((oc*c+cc)*k+di)*k+dj]
							}
						}
					}
					out[((in*o+oc)*ho+i)*wo+j] = sum
				}
			}
		}
	}
	return out, ho, wo
}

func TestConv2d(t *testing.T) {
	for _, tc := range []struct{ n, c, h, w, o, k, s, p int }{
		{2, 3, 5, 5, 4, 3, 1, 1},
		{1, 2, 6, 7, 3, 3, 2, 1},
		{2, 1, 5, 4, 2, 2, 1, 0},
		{1, 2, 7, 7, 2, 3, 3, 0},
	} {
		t.Run(fmt.Sprintf("%+v", tc), func(t *testing.T) {
			conv := NewConv2d(tc.c, tc.o, tc.k, tc.s, tc.p)
			conv.Weight = f64(1, tc.o, tc.c, tc.k, tc.k).RequiresGrad()
			conv.Bias = f64(2, tc.o).RequiresGrad()
			x := f64(3, tc.n, tc.c, tc.h, tc.w)
			y := conv.Forward(x)
			want, ho, wo := convRef(x.Float64s(), conv.Weight.Float64s(), conv.Bias.Float64s(), tc.n, tc.c, tc.h, tc.w, tc.o, tc.k, tc.s, tc.p)
			if sh := y.Shape(); sh[0] != tc.n || sh[1] != tc.o || sh[2] != ho || sh[3] != wo {
				t.Fatalf("shape %v, want [%d %d %d %d]", sh, tc.n, tc.o, ho, wo)
			}
			got := y.Float64s()
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12 {
					t.Fatalf("element %d: %v, want %v", i, got[i], want[i])
				}
			}
			xp := x.Detach().RequiresGrad()
			fdCheck(t, append(conv.Parameters(), xp), func() *tensor.Tensor { return weighted(conv.Forward(xp)) })
		})
	}
}

func TestLayerNorm(t *testing.T) {
	ln := NewLayerNorm(5)
	x := f64(4, 3, 5).Mul(3).Add(1)
	y := ln.Forward(x).Float64s()
	for r := range 3 {
		mean, sq := 0.0, 0.0
		for i := range 5 {
			mean += y[r*5+i] / 5
		}
		for i := range 5 {
			sq += (y[r*5+i] - mean) * (y[r*5+i] - mean) / 5
		}
		if math.Abs(mean) > 1e-6 || math.Abs(sq-1) > 1e-4 {
			t.Fatalf("row %d: mean %v, variance %v after LayerNorm", r, mean, sq)
		}
	}
	ln.Weight, ln.Bias = f64(5, 5).RequiresGrad(), f64(6, 5).RequiresGrad()
	xp := x.Detach().RequiresGrad()
	fdCheck(t, []*tensor.Tensor{ln.Weight, ln.Bias, xp}, func() *tensor.Tensor { return weighted(ln.Forward(xp)) })
}

func TestActivations(t *testing.T) {
	xs := []float64{-3, -0.5, 0.25, 2}
	cases := []struct {
		a    Activation
		want func(x float64) float64
	}{
		{ReLU(), func(x float64) float64 { return math.Max(x, 0) }},
		{Tanh(), math.Tanh},
		{Sigmoid(), func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }},
		{GELU(), func(x float64) float64 {
			return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
		}},
		{SiLU(), func(x float64) float64 { return x / (1 + math.Exp(-x)) }},
		{Softplus(), func(x float64) float64 { return math.Log1p(math.Exp(x)) }},
		{LeakyReLU(0.1), func(x float64) float64 {
			if x > 0 {
				return x
			}
			return 0.1 * x
		}},
	}
	for _, c := range cases {
		t.Run(c.a.Name, func(t *testing.T) {
			got := c.a.Forward(tensor.FromFloat64s(xs)).Float64s()
			for i, x := range xs {
				if math.Abs(got[i]-c.want(x)) > 1e-12 {
					t.Fatalf("%s(%v) = %v, want %v", c.a, x, got[i], c.want(x))
				}
			}
			p := f64(7, 2, 3).Mul(2).RequiresGrad()
			fdCheck(t, []*tensor.Tensor{p}, func() *tensor.Tensor { return weighted(c.a.Forward(p)) })
		})
	}
}

func TestLosses(t *testing.T) {
	logits := f64(8, 4, 3).Mul(2)
	labels := tensor.FromInt32s([]int32{2, 0, 1, 2})
	lv := logits.Float64s()
	want := 0.0
	for r, y := range []int{2, 0, 1, 2} {
		m, s := math.Inf(-1), 0.0
		for c := range 3 {
			m = math.Max(m, lv[r*3+c])
		}
		for c := range 3 {
			s += math.Exp(lv[r*3+c] - m)
		}
		want += -(lv[r*3+y] - m - math.Log(s)) / 4
	}
	if got := CrossEntropy(logits, labels).Item(); math.Abs(got-want) > 1e-12 {
		t.Fatalf("CrossEntropy = %v, want %v", got, want)
	}
	onehot := tensor.FromFloat64s([]float64{0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1}, 4, 3)
	if got := CrossEntropy(logits, onehot).Item(); math.Abs(got-want) > 1e-12 {
		t.Fatalf("CrossEntropy with one-hot labels = %v, want %v", got, want)
	}
	p := logits.Detach().RequiresGrad()
	fdCheck(t, []*tensor.Tensor{p}, func() *tensor.Tensor { return CrossEntropy(p, labels) })
	if got := MSE(tensor.FromFloat64s([]float64{1, 2, 3}), tensor.FromFloat64s([]float64{1, 0, 6})).Item(); got != 13.0/3 {
		t.Fatalf("MSE = %v", got)
	}
	if got := Accuracy(logits, labels); got < 0 || got > 1 {
		t.Fatalf("Accuracy = %v", got)
	}
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { CrossEntropy(logits, tensor.FromInt32s([]int32{1, 2})) }, "do not fit"},
		{func() { CrossEntropy(logits, tensor.FromFloat32s([]float32{1, 2, 0, 1})) }, "int32"},
		{func() { NewLinear(3, 2).Forward(tensor.Ones(2, 4)) }, "input features"},
		{func() { NewConv2d(3, 2, 3, 1, 0).Forward(tensor.Ones(1, 3, 2, 2)) }, "smaller than"},
	} {
		func() {
			defer func() {
				var e *Error
				if err, _ := recover().(error); !errors.As(err, &e) || !strings.Contains(e.Error(), c.want) {
					t.Errorf("panic %v, want an *nn.Error saying %q", err, c.want)
				}
			}()
			c.f()
		}()
	}
}
