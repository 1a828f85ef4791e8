package optim

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// The optimizers against their update rules written out in float64 Go, on
// the loss Σ c_i·p_i² (gradient 2·c_i·p_i), for a few steps.

var coef = []float64{1, 0.5, 3}

func quadLoss(p *tensor.Tensor) *tensor.Tensor {
	return p.Mul(p).Mul(tensor.FromFloat64s(coef)).Sum()
}

func grad(p []float64) []float64 {
	g := make([]float64, len(p))
	for i := range p {
		g[i] = 2 * coef[i] * p[i]
	}
	return g
}

func run(t *testing.T, o Optimizer, p *tensor.Tensor, steps int) [][]float64 {
	t.Helper()
	var out [][]float64
	for range steps {
		o.ZeroGrad()
		quadLoss(p).Backward()
		o.Step()
		out = append(out, p.Float64s())
	}
	return out
}

func near(t *testing.T, step int, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
			t.Fatalf("step %d: parameters %v, want %v", step+1, got, want)
		}
	}
}

func TestSGD(t *testing.T) {
	for _, c := range []SGDConfig{
		{LR: 0.1},
		{LR: 0.05, Momentum: 0.9},
		{LR: 0.05, Momentum: 0.9, Nesterov: true},
		{LR: 0.1, Momentum: 0.5, WeightDecay: 0.01},
	} {
		p := tensor.FromFloat64s([]float64{1, -2, 3}).RequiresGrad()
		got := run(t, NewSGD([]*tensor.Tensor{p}, c), p, 4)
		w, buf := []float64{1, -2, 3}, make([]float64, 3)
		for s := range 4 {
			g := grad(w)
			for i := range w {
				gi := g[i] + c.WeightDecay*w[i]
				if c.Momentum > 0 {
					buf[i] = c.Momentum*buf[i] + gi
					if c.Nesterov {
						gi += c.Momentum * buf[i]
					} else {
						gi = buf[i]
					}
				}
				w[i] -= c.LR * gi
			}
			near(t, s, got[s], w)
		}
	}
}

func TestAdamAndAdamW(t *testing.T) {
	for _, decoupled := range []bool{false, true} {
		c := AdamConfig{LR: 0.1, WeightDecay: 0.05}
		p := tensor.FromFloat64s([]float64{1, -2, 3}).RequiresGrad()
		var o *Adam
		if decoupled {
			o = NewAdamW([]*tensor.Tensor{p}, c)
		} else {
			o = NewAdam([]*tensor.Tensor{p}, c)
		}
		got := run(t, o, p, 5)
		b1, b2, eps := 0.9, 0.999, 1e-8
		w, m, v := []float64{1, -2, 3}, make([]float64, 3), make([]float64, 3)
		for s := range 5 {
			g := grad(w)
			for i := range w {
				gi := g[i]
				if decoupled {
					w[i] *= 1 - c.LR*c.WeightDecay
				} else {
					gi += c.WeightDecay * w[i]
				}
				m[i] = b1*m[i] + (1-b1)*gi
				v[i] = b2*v[i] + (1-b2)*gi*gi
				mh := m[i] / (1 - math.Pow(b1, float64(s+1)))
				vh := v[i] / (1 - math.Pow(b2, float64(s+1)))
				w[i] -= c.LR * mh / (math.Sqrt(vh) + eps)
			}
			near(t, s, got[s], w)
		}
	}
}

func TestOptimizerErrors(t *testing.T) {
	p := tensor.FromFloat32s([]float32{1, 2}).RequiresGrad()
	cases := []struct {
		f    func()
		want string
	}{
		{func() { NewSGD(nil, SGDConfig{LR: 0.1}) }, "no parameters"},
		{func() { NewSGD([]*tensor.Tensor{p}, SGDConfig{}) }, "learning rate 0"},
		{func() { NewSGD([]*tensor.Tensor{tensor.Ones(2)}, SGDConfig{LR: 1}) }, "does not require a gradient"},
		{func() { NewSGD([]*tensor.Tensor{p, p}, SGDConfig{LR: 1}) }, "parameter 1 is parameter 0 again"},
		{func() { NewSGD([]*tensor.Tensor{p}, SGDConfig{LR: 1, Nesterov: true}) }, "needs a Momentum"},
		{func() { NewAdam([]*tensor.Tensor{p}, AdamConfig{Beta1: 1}) }, "betas"},
		{func() { p.ZeroGrad(); NewSGD([]*tensor.Tensor{p}, SGDConfig{LR: 1}).Step() }, "call loss.Backward() before Step"},
	}
	for _, c := range cases {
		func() {
			defer func() {
				var e *Error
				if err, _ := recover().(error); !errors.As(err, &e) || !strings.Contains(e.Error(), c.want) {
					t.Errorf("panic %v, want an *optim.Error saying %q", err, c.want)
				}
			}()
			c.f()
		}()
	}
}
