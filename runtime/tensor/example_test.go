package tensor_test

import (
	"fmt"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// The tutorial's step: a lazy a*2+1, fused into one kernel and replayed by
// a JIT from the third call on.
func Example() {
	_ = tensor.SetDefaultDevice("GO")
	x := tensor.Arange(6).Reshape(2, 3).Realize()
	step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
	var y *tensor.Tensor
	for i := 0; i < 3; i++ {
		y = step.Call(x)
	}
	fmt.Println(y)
	fmt.Println(step)
	fmt.Println(y.Sum(1).Float32s(), y.Max().Item())
	// Output:
	// tensor([[ 1.,  3.,  5.],
	//         [ 7.,  9., 11.]], shape=[2 3], dtype=float32, device=GO)
	// JIT{calls: 3, next: replay, inputs: [[2 3] float32 on GO], captured kernels: 1 [E_2_3]}
	// [9 27] 11
}
