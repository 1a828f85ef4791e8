// Package optim updates a model's parameters from their gradients: SGD
// (with momentum, Nesterov momentum and weight decay), Adam and AdamW.
//
// An optimizer's Step realizes every parameter's gradient in one schedule
// (the "backward" region of a profile), then writes each parameter's new
// value into its own buffer with tensor.Assign (the "optimizer" region).
// So a training step — forward, Backward, Step — reads and writes the
// same buffers every time, and tensor.JIT can capture it once and replay
// it with new batches without allocating.
//
// What a captured step freezes: Go values read inside it become constants
// of its kernels (momentum, betas, epsilon, weight decay, and any learning
// rate you compute in Go inside the step), while tensors are read anew on
// every replay. The learning rate lives in a tensor for that reason:
// SetLR writes it, and a replayed step uses the new rate. Adam's step
// count lives in tensors too (its bias corrections β^t are updated by the
// step), so replays count.
package optim

import (
	"fmt"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// Optimizer is what a training loop calls.
type Optimizer interface {
	ZeroGrad()
	Step()
	Parameters() []*tensor.Tensor
	SetLR(lr float64)
	LR() float64
}

// Error is the panic value of an optimizer given what it cannot use.
type Error struct {
	Op  string
	Msg string
}

func (e *Error) Error() string { return "optim: " + e.Op + ": " + e.Msg }

func fail(op, format string, args ...any) {
	panic(&Error{Op: op, Msg: fmt.Sprintf(format, args...)})
}

// base is what every optimizer has: its parameters and the learning rate
// as a tensor (a scalar buffer its kernels read).
type base struct {
	name   string
	params []*tensor.Tensor
	lr     float64
	lrT    *tensor.Tensor
}

func newBase(name string, params []*tensor.Tensor, lr float64) base {
	if len(params) == 0 {
		fail(name, "no parameters: pass the model's Parameters()")
	}
	if lr <= 0 {
		fail(name, "learning rate %v: want a positive rate", lr)
	}
	seen := map[*tensor.Tensor]int{}
	for i, p := range params {
		if p == nil || !p.IsRequiringGrad() {
			fail(name, "parameter %d does not require a gradient: call RequiresGrad on it (nn layers do)", i)
		}
		if j, ok := seen[p]; ok {
			fail(name, "parameter %d is parameter %d again: each would be updated twice per step", i, j)
		}
		seen[p] = i
	}
	b := base{name: name, params: append([]*tensor.Tensor(nil), params...), lr: lr}
	b.lrT = scalar(lr, params[0])
	return b
}

// scalar is a realized 0-d tensor holding v, in like's dtype and on its
// device.
func scalar(v float64, like *tensor.Tensor) *tensor.Tensor {
	return tensor.FullOf(v, like.DType()).To(like.Device()).Contiguous().Realize()
}

// zerosLike is a realized tensor of zeros of p's shape, dtype and device.
func zerosLike(p *tensor.Tensor) *tensor.Tensor {
	return tensor.FullOf(0, p.DType(), p.Shape()...).To(p.Device()).Contiguous().Realize()
}

// Parameters are the tensors the optimizer updates.
func (b *base) Parameters() []*tensor.Tensor { return append([]*tensor.Tensor(nil), b.params...) }

// ZeroGrad forgets every parameter's gradient (Backward adds to one it
// finds): call it before each step's Backward.
func (b *base) ZeroGrad() {
	for _, p := range b.params {
		p.ZeroGrad()
	}
}

// LR is the learning rate.
func (b *base) LR() float64 { return b.lr }

// SetLR changes the learning rate by writing the tensor the update
// kernels read, so a step the JIT already captured uses it on its next
// replay.
func (b *base) SetLR(lr float64) {
	if lr < 0 {
		fail(b.name+".SetLR", "learning rate %v: want a rate ≥ 0", lr)
	}
	b.lr = lr
	b.lrT.Assign(lr).Realize()
}

// grads realizes every parameter's gradient in one schedule, in the
// "backward" region, and returns them by parameter (nil where a parameter
// has none: it is not updated).
func (b *base) grads() []*tensor.Tensor {
	gs := make([]*tensor.Tensor, len(b.params))
	var todo []*tensor.Tensor
	for i, p := range b.params {
		if g := p.Grad(); g != nil {
			gs[i] = g.Detach()
			todo = append(todo, g)
		}
	}
	if len(todo) == 0 {
		fail(b.name+".Step", "no parameter has a gradient: call loss.Backward() before Step (and ZeroGrad before the forward pass)")
	}
	end := tensor.Region("backward")
	tensor.RealizeAll(todo...)
	end()
	return gs
}
