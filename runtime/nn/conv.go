package nn

import (
	"fmt"
	"math"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// Conv2d is a 2-D convolution (cross-correlation, as in torch) of an
// input [N, C, H, W] with Weight [Out, C, K, K], plus Bias [Out], with a
// stride and zero padding on every side.
//
// It is built from the runtime's movement ops, so its gradient comes from
// theirs: the padded input is computed once (a kernel), the K·K shifted
// windows are gathered into one [N, C, K·K, Ho, Wo] tensor (im2col, a
// kernel) read as [N, C·K·K, Ho·Wo], and one batched matrix product of
// the weights, [Out, C·K·K], with it gives [N, Out, Ho·Wo] (a GEMM).
type Conv2d struct {
	Weight, Bias    *tensor.Tensor
	Stride, Padding int
}

// NewConv2d makes a convolution from in to out channels with a kernel×kernel
// window, initialized as torch does: uniform in ±1/sqrt(in·kernel²).
func NewConv2d(in, out, kernel, stride, padding int) *Conv2d {
	if in <= 0 || out <= 0 || kernel <= 0 || stride <= 0 || padding < 0 {
		fail("NewConv2d", "in %d, out %d, kernel %d and stride %d must be positive and padding %d ≥ 0", in, out, kernel, stride, padding)
	}
	b := 1 / math.Sqrt(float64(in*kernel*kernel))
	return &Conv2d{Weight: uniform(b, out, in, kernel, kernel), Bias: uniform(b, out), Stride: stride, Padding: padding}
}

// OutSize is the output's height (or width) for an input of size n.
func (c *Conv2d) OutSize(n int) int {
	k := c.Weight.Shape()[2]
	return (n+2*c.Padding-k)/c.Stride + 1
}

// Forward convolves x [N, C, H, W] to [N, Out, Ho, Wo].
func (c *Conv2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	ws := c.Weight.Shape()
	o, ci, k := ws[0], ws[1], ws[2]
	xs := x.Shape()
	if len(xs) != 4 || xs[1] != ci {
		fail("Conv2d.Forward", "input %v: want [batch, %d channels, height, width]", xs, ci)
	}
	n, h, w := xs[0], xs[2], xs[3]
	s, p := c.Stride, c.Padding
	ho, wo := c.OutSize(h), c.OutSize(w)
	if ho < 1 || wo < 1 {
		fail("Conv2d.Forward", "input %v is smaller than the %d×%d window (padding %d)", xs, k, k, p)
	}
	// Pad so that every window, strided, fits: the last one starts at
	// s·(ho-1) and the windows are gathered s·ho wide.
	eh, ew := max(0, k-1+s*ho-(h+2*p)), max(0, k-1+s*wo-(w+2*p))
	xp := x
	if p > 0 || eh > 0 || ew > 0 {
		xp = x.Pad([][2]int{{0, 0}, {0, 0}, {p, p + eh}, {p, p + ew}}).Contiguous()
	}
	windows := make([]*tensor.Tensor, 0, k*k)
	for i := range k {
		for j := range k {
			win := xp.Shrink([][2]int{{0, n}, {0, ci}, {i, i + s*ho}, {j, j + s*wo}})
			if s > 1 { // every s-th row and column
				win = win.Reshape(n, ci, ho, s, wo, s).Shrink([][2]int{{0, n}, {0, ci}, {0, ho}, {0, 1}, {0, wo}, {0, 1}})
			}
			windows = append(windows, win.Reshape(n, ci, 1, ho, wo))
		}
	}
	cols := tensor.Cat(2, windows...).Contiguous().Reshape(n, ci*k*k, ho*wo)
	y := c.Weight.Reshape(o, ci*k*k).Matmul(cols).Reshape(n, o, ho, wo)
	if c.Bias != nil {
		y = y.Add(c.Bias.Reshape(1, o, 1, 1))
	}
	return y
}

// Parameters are the weight and the bias.
func (c *Conv2d) Parameters() []*tensor.Tensor { return params(c.Weight, c.Bias) }

func (c *Conv2d) String() string {
	ws := c.Weight.Shape()
	return fmt.Sprintf("Conv2d(%d → %d, %d×%d, stride %d, padding %d)", ws[1], ws[0], ws[2], ws[3], c.Stride, c.Padding)
}
