package gobackend

import (
	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
	"math"
	"strings"
	"testing"
)

// A fold over a leading axis runs on the GO device as a lane fold (memory
// order) and agrees with the reference for every reduce op, masked and
// broadcast loads included, over launch ranges that cut rows.
func TestGoLaneFoldMatchesReference(t *testing.T) {
	f := ir.Float32
	tests := []struct {
		name string
		k    *ir.Kernel
	}{
		{"sum axis 0", &ir.Kernel{Name: "R_lane_sum", Shape: []int{37, 300}, ReduceAxes: []int{0}, Reduce: ir.ReduceSum,
			Expr: irtest.Bin(ir.OpMul, f, irtest.Ld(1, f, []int{300, 1}, 0, nil), irtest.Cst(f, 0.5)), Bufs: []ir.BufferSpec{{DType: f, Size: 300}, {DType: f, Size: 37 * 300}}}},
		{"max middle axis", &ir.Kernel{Name: "R_lane_max", Shape: []int{3, 9, 700}, ReduceAxes: []int{1}, Reduce: ir.ReduceMax,
			Expr: irtest.Bin(ir.OpAdd, f, irtest.Ld(1, f, []int{6300, 700, 1}, 0, nil), irtest.Ld(2, f, []int{0, 1, 0}, 0, nil)),
			Bufs: []ir.BufferSpec{{DType: f, Size: 3 * 700}, {DType: f, Size: 3 * 6300}, {DType: f, Size: 9}}}},
		{"min padded", &ir.Kernel{Name: "R_lane_min", Shape: []int{6, 130}, ReduceAxes: []int{0}, Reduce: ir.ReduceMin,
			Expr: irtest.Ld(1, f, []int{130, 1}, -130, [][2]int{{1, 6}, {0, 130}}), Bufs: []ir.BufferSpec{{DType: f, Size: 130}, {DType: f, Size: 650}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := goDevice{}.Compile(tt.k)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.Source(), "lane fold") {
				t.Fatalf("not a lane fold:\n%s", p.Source())
			}
			in := make([][]float64, len(tt.k.Bufs))
			mems := make([]device.Memory, len(tt.k.Bufs))
			for i, b := range tt.k.Bufs {
				m, _ := goDevice{}.Alloc(b.DType, b.Size)
				mems[i] = m
				if i > 0 {
					in[i] = irtest.Data(b, i)
					for j, v := range in[i] {
						m.(*goMemory).typed.([]float32)[j] = float32(v)
					}
				}
			}
			n := tt.k.OutSize()
			for _, c := range [][2]int{{0, n / 3}, {n / 3, n/3 + n/5}, {n/3 + n/5, n}} {
				p.(*goProgram).Run(mems, c[0], c[1])
			}
			want := irtest.Eval(tt.k, in)
			got := mems[0].(*goMemory).typed.([]float32)
			for i := range want {
				if d := math.Abs(float64(got[i]) - want[i]); d > 1e-5*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("out[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}
