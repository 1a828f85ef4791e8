package nn

import (
	"math"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// Activation is a Layer applying a function elementwise.
type Activation struct {
	Name string
	F    func(x *tensor.Tensor) *tensor.Tensor
}

// Forward is F(x).
func (a Activation) Forward(x *tensor.Tensor) *tensor.Tensor { return a.F(x) }

func (a Activation) String() string { return a.Name }

// ReLU is max(x, 0).
func ReLU() Activation { return Activation{"ReLU", (*tensor.Tensor).Relu} }

// Tanh is the hyperbolic tangent.
func Tanh() Activation { return Activation{"Tanh", (*tensor.Tensor).Tanh} }

// Sigmoid is 1/(1+e^-x).
func Sigmoid() Activation { return Activation{"Sigmoid", (*tensor.Tensor).Sigmoid} }

// GELU is Gelu as a layer.
func GELU() Activation { return Activation{"GELU", Gelu} }

// SiLU is Silu as a layer.
func SiLU() Activation { return Activation{"SiLU", Silu} }

// Softplus is SoftplusOf as a layer.
func Softplus() Activation { return Activation{"Softplus", SoftplusOf} }

// LeakyReLU is LeakyRelu with the given negative slope, as a layer.
func LeakyReLU(slope float64) Activation {
	return Activation{"LeakyReLU", func(x *tensor.Tensor) *tensor.Tensor { return LeakyRelu(x, slope) }}
}

// Gelu is the Gaussian error linear unit in its tanh form (as tinygrad's
// gelu and torch's approximate="tanh"):
// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
func Gelu(x *tensor.Tensor) *tensor.Tensor {
	inner := x.Add(x.Mul(x).Mul(x).Mul(0.044715)).Mul(math.Sqrt(2 / math.Pi)).Tanh()
	return x.Mul(0.5).Mul(inner.Add(1))
}

// Silu is x·sigmoid(x) (also called swish).
func Silu(x *tensor.Tensor) *tensor.Tensor { return x.Mul(x.Sigmoid()) }

// SoftplusOf is log(1 + e^x), computed as max(x, 0) + log(1 + e^-|x|) so
// large inputs do not overflow.
func SoftplusOf(x *tensor.Tensor) *tensor.Tensor {
	return x.Relu().Add(x.Abs().Neg().Exp().Add(1).Log())
}

// LeakyRelu is x for x > 0, slope·x otherwise.
func LeakyRelu(x *tensor.Tensor, slope float64) *tensor.Tensor {
	return tensor.Where(x.Gt(0), x, x.Mul(slope))
}
