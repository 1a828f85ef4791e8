package optim

import (
	"math"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// AdamConfig configures Adam and AdamW. Zero LR, Beta1, Beta2 and Eps
// take the usual defaults: 0.001, 0.9, 0.999, 1e-8. WeightDecay has no
// default (torch's AdamW uses 0.01: say so if you want it).
type AdamConfig struct {
	LR, Beta1, Beta2, Eps float64
	WeightDecay           float64
}

// Adam is Adam (Kingma & Ba), or AdamW (Loshchilov & Hutter) when its
// weight decay is decoupled, with torch's semantics:
//
//	Adam:  g = grad + wd·p
//	AdamW: p = p·(1 - lr·wd)
//	m = β1·m + (1-β1)·g;  v = β2·v + (1-β2)·g²
//	p -= lr · (m/(1-β1ᵗ)) / (sqrt(v/(1-β2ᵗ)) + ε)
//
// β1ᵗ and β2ᵗ are tensors the step multiplies by β1 and β2, so a
// replayed step counts its steps.
type Adam struct {
	base
	cfg       AdamConfig
	decoupled bool
	m, v      []*tensor.Tensor
	b1t, b2t  *tensor.Tensor // β1ᵗ, β2ᵗ
}

// NewAdam makes an Adam optimizer (weight decay added to the gradient).
func NewAdam(params []*tensor.Tensor, c AdamConfig) *Adam { return newAdam("Adam", params, c, false) }

// NewAdamW makes an AdamW optimizer (weight decay decoupled from the
// gradient).
func NewAdamW(params []*tensor.Tensor, c AdamConfig) *Adam { return newAdam("AdamW", params, c, true) }

func newAdam(name string, params []*tensor.Tensor, c AdamConfig, decoupled bool) *Adam {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.LR, 1e-3)
	def(&c.Beta1, 0.9)
	def(&c.Beta2, 0.999)
	def(&c.Eps, 1e-8)
	if c.Beta1 < 0 || c.Beta1 >= 1 || c.Beta2 < 0 || c.Beta2 >= 1 || c.Eps < 0 || c.WeightDecay < 0 || math.IsNaN(c.Beta1+c.Beta2+c.Eps) {
		fail(name, "betas %v, %v must be in [0, 1), eps %v and weight decay %v ≥ 0", c.Beta1, c.Beta2, c.Eps, c.WeightDecay)
	}
	o := &Adam{base: newBase(name, params, c.LR), cfg: c, decoupled: decoupled}
	for _, p := range o.params {
		o.m = append(o.m, zerosLike(p))
		o.v = append(o.v, zerosLike(p))
	}
	o.b1t, o.b2t = scalar(1, o.params[0]), scalar(1, o.params[0])
	return o
}

// Step updates every parameter that has a gradient, in place.
func (o *Adam) Step() {
	gs := o.grads()
	end := tensor.Region("optimizer")
	defer end()
	c := o.cfg
	o.b1t.Assign(o.b1t.Mul(c.Beta1))
	o.b2t.Assign(o.b2t.Mul(c.Beta2))
	c1 := o.b1t.Neg().Add(1) // 1 - β1ᵗ
	c2 := o.b2t.Neg().Add(1)
	out := []*tensor.Tensor{o.b1t, o.b2t}
	for i, p := range o.params {
		g := gs[i]
		if g == nil {
			continue
		}
		v := p.Detach()
		if c.WeightDecay != 0 {
			if o.decoupled {
				v = v.Sub(v.Mul(o.lrT).Mul(c.WeightDecay))
			} else {
				g = g.Add(v.Mul(c.WeightDecay))
			}
		}
		m, s := o.m[i], o.v[i]
		m.Assign(m.Mul(c.Beta1).Add(g.Mul(1 - c.Beta1)))
		s.Assign(s.Mul(c.Beta2).Add(g.Mul(g).Mul(1 - c.Beta2)))
		upd := m.Div(c1).Div(s.Div(c2).Sqrt().Add(c.Eps))
		p.Assign(v.Sub(upd.Mul(o.lrT)))
		out = append(out, m, s, p)
	}
	tensor.RealizeAll(out...)
}
