package gobackend

import (
	"math"
	"testing"

	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
)

// Unmasked gathering loads (read by runs along the innermost axis:
// gatherRuns) give the reference interpreter's bits: a value broadcast
// along rows (softmax's x - max), a transpose, a flip, a stride of 2, a
// broadcast middle axis (carries over two axes), rows longer and shorter
// than a block of goBlock, and launch ranges that start and end inside
// rows.
func TestGoGathersMatchReference(t *testing.T) {
	f := ir.Float32
	x := func(buf int, strides []int, off int) *ir.Node { return irtest.Ld(buf, f, strides, off, nil) }
	tests := []struct {
		name  string
		shape []int
		expr  *ir.Node
		sizes []int // input buffers' sizes
	}{
		{"row broadcast", []int{5, 700}, irtest.Bin(ir.OpSub, f, x(1, []int{700, 1}, 0), x(2, []int{1, 0}, 0)), []int{3500, 5}},
		{"short rows broadcast", []int{300, 7}, irtest.Bin(ir.OpSub, f, x(1, []int{7, 1}, 0), x(2, []int{1, 0}, 0)), []int{2100, 300}},
		{"column broadcast", []int{9, 130}, irtest.Bin(ir.OpMul, f, x(1, []int{130, 1}, 0), x(2, []int{0, 1}, 0)), []int{1170, 130}},
		{"transpose", []int{37, 300}, irtest.Un(ir.OpNeg, f, x(1, []int{1, 37}, 0)), []int{37 * 300}},
		{"flip", []int{3, 130}, irtest.Bin(ir.OpAdd, f, x(1, []int{130, -1}, 129), x(1, []int{130, 1}, 0)), []int{390}},
		{"stride 2", []int{4, 150}, irtest.Un(ir.OpNeg, f, x(1, []int{301, 2}, 1)), []int{4 * 301}},
		{"broadcast middle", []int{4, 3, 90}, irtest.Bin(ir.OpAdd, f, x(1, []int{90, 0, 1}, 0), x(2, []int{0, 90, 1}, 0)), []int{360, 270}},
		{"broadcast last of 3", []int{6, 5, 40}, irtest.Bin(ir.OpSub, f, x(1, []int{200, 40, 1}, 0), x(2, []int{5, 1, 0}, 0)), []int{1200, 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bufs := []ir.BufferSpec{{DType: f, Size: ir.Prod(tt.shape)}}
			for _, s := range tt.sizes {
				bufs = append(bufs, ir.BufferSpec{DType: f, Size: s})
			}
			k := &ir.Kernel{Name: "E_gather", Shape: tt.shape, Expr: tt.expr, Bufs: bufs}
			p, err := goDevice{}.Compile(k)
			if err != nil {
				t.Fatal(err)
			}
			in, mems := goFloat32Mems(k, func(j int) float32 { return float32(math.Sin(float64(j))*3) + float32(j) })
			want := irtest.Eval(k, in)
			n := k.OutSize()
			for _, cuts := range [][]int{{0, n}, {0, n / 3, n/3 + n/5, n}, {0, 1, n - 1, n}} {
				for c := 0; c+1 < len(cuts); c++ {
					p.(*goProgram).Run(mems, cuts[c], cuts[c+1])
				}
				got := mems[0].(*goMemory).typed.([]float32)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(float32(want[i])) {
						t.Fatalf("ranges %v: out[%d] = %v, want %v\n%s", cuts, i, got[i], want[i], p.Source())
					}
				}
				clear(got)
			}
		})
	}
}
