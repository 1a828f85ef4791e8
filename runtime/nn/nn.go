// Package nn is a small neural-network library on tick's tensor runtime:
// layers (Linear, Conv2d, LayerNorm, activations, Sequential), losses
// (CrossEntropy, MSE) and parameter initialization from the tensor
// package's seeded generator (tensor.ManualSeed), in the spirit of
// tinygrad's nn. Layers are plain structs whose parameters are exported
// tensors that require gradients; a forward pass builds lazy tensors, so
// a model, its loss, its gradients (Tensor.Backward) and an optimizer's
// update (package optim) fuse and schedule like any other tensor code and
// can be captured whole by tensor.JIT.
//
// Not here, on purpose: BatchNorm (its running statistics are state a
// forward pass would update, which a captured step replays; LayerNorm
// normalizes without state) and Dropout (its mask must be drawn anew each
// step, but the runtime draws random numbers on the host, and a JIT
// freezes tensors made from host data at capture: every replay would drop
// the same units).
package nn

import (
	"fmt"
	"math"
	"strings"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// Layer is anything that maps a tensor to a tensor.
type Layer interface {
	Forward(x *tensor.Tensor) *tensor.Tensor
}

// Module is anything with parameters (tensors an optimizer updates).
type Module interface {
	Parameters() []*tensor.Tensor
}

// Error is the panic value of a layer or loss given inputs it cannot
// take: it names the layer and says what to do.
type Error struct {
	Op  string
	Msg string
}

func (e *Error) Error() string { return "nn: " + e.Op + ": " + e.Msg }

func fail(op, format string, args ...any) {
	panic(&Error{Op: op, Msg: fmt.Sprintf(format, args...)})
}

// uniform is a parameter of shape drawn uniformly from [-bound, bound)
// with the tensor package's generator, realized and requiring a gradient.
func uniform(bound float64, shape ...int) *tensor.Tensor {
	return tensor.Rand(shape...).Mul(2 * bound).Sub(bound).Realize().RequiresGrad()
}

// Linear is y = x·Wᵀ + b over the last axis of x. Weight is [Out, In] and
// Bias [Out], as in torch and tinygrad.
type Linear struct {
	Weight, Bias *tensor.Tensor
}

// NewLinear makes a Linear layer from in to out features with float32
// parameters initialized as torch and tinygrad do: uniform in
// ±1/sqrt(in), drawn from the tensor package's generator.
func NewLinear(in, out int) *Linear {
	if in <= 0 || out <= 0 {
		fail("NewLinear", "sizes must be positive, got in %d, out %d", in, out)
	}
	b := 1 / math.Sqrt(float64(in))
	return &Linear{Weight: uniform(b, out, in), Bias: uniform(b, out)}
}

// Forward is x·Wᵀ + b.
func (l *Linear) Forward(x *tensor.Tensor) *tensor.Tensor {
	sh := l.Weight.Shape()
	if x.Ndim() == 0 || x.Shape()[x.Ndim()-1] != sh[1] {
		fail("Linear.Forward", "input %v: the last axis must be the layer's %d input features", x.Shape(), sh[1])
	}
	y := x.Matmul(l.Weight.T())
	if l.Bias != nil {
		y = y.Add(l.Bias)
	}
	return y
}

// Parameters are the weight and the bias.
func (l *Linear) Parameters() []*tensor.Tensor { return params(l.Weight, l.Bias) }

func (l *Linear) String() string {
	sh := l.Weight.Shape()
	return fmt.Sprintf("Linear(%d → %d)", sh[1], sh[0])
}

func params(ts ...*tensor.Tensor) []*tensor.Tensor {
	var out []*tensor.Tensor
	for _, t := range ts {
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// Sequential applies its layers in order.
type Sequential struct {
	Layers []Layer
}

// NewSequential chains layers.
func NewSequential(layers ...Layer) *Sequential { return &Sequential{Layers: layers} }

// Forward applies each layer to the previous one's output.
func (s *Sequential) Forward(x *tensor.Tensor) *tensor.Tensor {
	for _, l := range s.Layers {
		x = l.Forward(x)
	}
	return x
}

// Parameters are the parameters of every layer that has some, in order.
func (s *Sequential) Parameters() []*tensor.Tensor {
	var out []*tensor.Tensor
	for _, l := range s.Layers {
		if m, ok := l.(Module); ok {
			out = append(out, m.Parameters()...)
		}
	}
	return out
}

// String lists the layers and counts the parameters.
func (s *Sequential) String() string {
	var names []string
	for _, l := range s.Layers {
		names = append(names, layerName(l))
	}
	return fmt.Sprintf("Sequential(%s; %d parameters)", strings.Join(names, " → "), CountParameters(s))
}

// layerName is l's String, or its type's name (a layer declared in a
// notebook cell reaches here wrapped by the interpreter: "layer").
func layerName(l Layer) string {
	if s, ok := l.(fmt.Stringer); ok {
		return s.String()
	}
	name := fmt.Sprintf("%T", l)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if strings.HasPrefix(name, "_") {
		return "layer"
	}
	return name
}

// CountParameters is the number of scalar parameters of m.
func CountParameters(m Module) int {
	n := 0
	for _, p := range m.Parameters() {
		n += p.Numel()
	}
	return n
}

// Parameters collects the parameters of several modules, in order.
func Parameters(ms ...Module) []*tensor.Tensor {
	var out []*tensor.Tensor
	for _, m := range ms {
		out = append(out, m.Parameters()...)
	}
	return out
}
