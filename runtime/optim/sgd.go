package optim

import "github.com/tick-kernel/tick/runtime/tensor"

// SGDConfig configures SGD. Zero values mean: no momentum, no weight
// decay.
type SGDConfig struct {
	LR          float64
	Momentum    float64 // in [0, 1)
	Nesterov    bool    // look ahead along the momentum (needs Momentum)
	WeightDecay float64 // adds WeightDecay·p to each gradient (L2)
}

// SGD is stochastic gradient descent, with torch's semantics:
//
//	g = grad + wd·p;  b = μ·b + g;  g = g + μ·b (Nesterov) or b;  p -= lr·g
type SGD struct {
	base
	cfg  SGDConfig
	bufs []*tensor.Tensor // momentum buffers, by parameter (nil without momentum)
}

// NewSGD makes an SGD optimizer for params.
func NewSGD(params []*tensor.Tensor, c SGDConfig) *SGD {
	if c.Momentum < 0 || c.Momentum >= 1 || c.WeightDecay < 0 {
		fail("SGD", "momentum %v must be in [0, 1) and weight decay %v ≥ 0", c.Momentum, c.WeightDecay)
	}
	if c.Nesterov && c.Momentum == 0 {
		fail("SGD", "Nesterov momentum needs a Momentum > 0")
	}
	o := &SGD{base: newBase("SGD", params, c.LR), cfg: c}
	if c.Momentum > 0 {
		for _, p := range o.params {
			o.bufs = append(o.bufs, zerosLike(p))
		}
	}
	return o
}

// Step updates every parameter that has a gradient, in place.
func (o *SGD) Step() {
	gs := o.grads()
	end := tensor.Region("optimizer")
	defer end()
	var out []*tensor.Tensor
	for i, p := range o.params {
		g := gs[i]
		if g == nil {
			continue
		}
		v := p.Detach()
		if o.cfg.WeightDecay != 0 {
			g = g.Add(v.Mul(o.cfg.WeightDecay))
		}
		if o.cfg.Momentum != 0 {
			b := o.bufs[i]
			b.Assign(b.Mul(o.cfg.Momentum).Add(g))
			out = append(out, b)
			if o.cfg.Nesterov {
				g = g.Add(b.Mul(o.cfg.Momentum))
			} else {
				g = b
			}
		}
		p.Assign(v.Sub(g.Mul(o.lrT)))
		out = append(out, p)
	}
	tensor.RealizeAll(out...)
}
