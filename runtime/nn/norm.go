package nn

import (
	"fmt"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// LayerNorm normalizes the last axis to zero mean and unit variance, then
// scales and shifts it: (x - mean)/sqrt(var + Eps)·Weight + Bias.
type LayerNorm struct {
	Weight, Bias *tensor.Tensor // [Dim]
	Eps          float64
}

// NewLayerNorm normalizes dim features, with Weight 1, Bias 0 and Eps
// 1e-5 (torch's defaults).
func NewLayerNorm(dim int) *LayerNorm {
	if dim <= 0 {
		fail("NewLayerNorm", "dim must be positive, got %d", dim)
	}
	return &LayerNorm{
		Weight: tensor.Ones(dim).Contiguous().Realize().RequiresGrad(),
		Bias:   tensor.Zeros(dim).Contiguous().Realize().RequiresGrad(),
		Eps:    1e-5,
	}
}

// Forward normalizes x over its last axis.
func (l *LayerNorm) Forward(x *tensor.Tensor) *tensor.Tensor {
	dim := l.Weight.Shape()[0]
	if x.Ndim() == 0 || x.Shape()[x.Ndim()-1] != dim {
		fail("LayerNorm.Forward", "input %v: the last axis must have the layer's %d features", x.Shape(), dim)
	}
	xc := x.Sub(x.MeanKeepDim(-1))
	v := xc.Mul(xc).MeanKeepDim(-1)
	return xc.Div(v.Add(l.Eps).Sqrt()).Mul(l.Weight).Add(l.Bias)
}

// Parameters are the scale and the shift.
func (l *LayerNorm) Parameters() []*tensor.Tensor { return params(l.Weight, l.Bias) }

func (l *LayerNorm) String() string { return fmt.Sprintf("LayerNorm(%d)", l.Weight.Shape()[0]) }
