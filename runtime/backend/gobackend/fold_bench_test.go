package gobackend

import (
	"math"
	"testing"

	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
)

// BenchmarkGoFolds times the GO device's float32 fold kernels on the
// calling thread (no queue, no split across threads): the kernels the
// runtime schedules for Sum(1), Sum(0), Max(0), Min(0) of a 512×512
// matrix and Max of 256K, and Sum(0), Max(0) of 4096×4096 (docs/benchmarks.md,
// issue 30).
//
//	go test -run '^$' -bench GoFolds -count 5 ./runtime/backend/gobackend/
func BenchmarkGoFolds(b *testing.B) {
	f := ir.Float32
	ld := irtest.Ld
	k := func(shape, axes []int, rop ir.ReduceOp, strides []int, out, in int) *ir.Kernel {
		return &ir.Kernel{Name: "R_bench", Shape: shape, ReduceAxes: axes, Reduce: rop, Expr: ld(1, f, strides, 0, nil),
			Bufs: []ir.BufferSpec{{DType: f, Size: out}, {DType: f, Size: in}}}
	}
	const n = 512
	for _, c := range []struct {
		name string
		k    *ir.Kernel
	}{
		{"sum axis 1 512x512 partials [512,8,64]", k([]int{n, 8, 64}, []int{1}, ir.ReduceSum, []int{n, 64, 1}, n*64, n*n)},
		{"sum axis 1 512x512 lanes [512,64]", k([]int{n, 64}, []int{1}, ir.ReduceSum, []int{64, 1}, n, n*64)},
		{"sum axis 0 512x512", k([]int{n, n}, []int{0}, ir.ReduceSum, []int{n, 1}, n, n*n)},
		{"max axis 0 512x512", k([]int{n, n}, []int{0}, ir.ReduceMax, []int{n, 1}, n, n*n)},
		{"min axis 0 512x512", k([]int{n, n}, []int{0}, ir.ReduceMin, []int{n, 1}, n, n*n)},
		{"max axis 1 512x512", k([]int{n, n}, []int{1}, ir.ReduceMax, []int{n, 1}, n, n*n)},
		{"max 256K partials [8,512,64]", k([]int{8, 512, 64}, []int{1}, ir.ReduceMax, []int{512 * 64, 64, 1}, 8*64, n*n)},
		{"max 256K one kernel", k([]int{n * n}, []int{0}, ir.ReduceMax, []int{1}, 1, n*n)},
		{"sum axis 0 4096x4096", k([]int{4096, 4096}, []int{0}, ir.ReduceSum, []int{4096, 1}, 4096, 4096*4096)},
		{"max axis 0 4096x4096", k([]int{4096, 4096}, []int{0}, ir.ReduceMax, []int{4096, 1}, 4096, 4096*4096)},
	} {
		b.Run(c.name, func(b *testing.B) {
			p, err := goDevice{}.Compile(c.k)
			if err != nil {
				b.Fatal(err)
			}
			_, mems := goFloat32Mems(c.k, func(j int) float32 { return float32(math.Sin(float64(j))) })
			out := c.k.OutSize()
			b.SetBytes(int64(4 * c.k.Bufs[1].Size))
			for b.Loop() {
				p.(*goProgram).Run(mems, 0, out)
			}
		})
	}
}
