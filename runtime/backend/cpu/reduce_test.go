package cpu

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
	"github.com/tick-kernel/tick/runtime/native"
)

// The reduce layouts of render/c_reduce.go against the reference
// interpreter, bit for bit (NaN for NaN): whole maxima and minima with
// eight vector accumulators, and folds along rows through in-register
// transposes, for float32 and float64, sizes that leave partial vectors,
// partial blocks of rows and partial tiles, strided and broadcast operands
// and NaNs. Each case also checks that its layout was the one rendered, so
// the test fails if a kernel silently takes another path.
func TestCPUReduceLayouts(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	f32, f64 := ir.Float32, ir.Float64
	full := func(name string, dt ir.DType, rop ir.ReduceOp, shape []int, e *ir.Node, sizes ...int) *ir.Kernel {
		axes := make([]int, len(shape))
		for i := range axes {
			axes[i] = i
		}
		bufs := []ir.BufferSpec{{DType: dt, Size: 1}}
		for _, s := range sizes {
			bufs = append(bufs, ir.BufferSpec{DType: dt, Size: s})
		}
		return &ir.Kernel{Name: name, Shape: shape, ReduceAxes: axes, Reduce: rop, Expr: e, Bufs: bufs}
	}
	rows := func(name string, dt ir.DType, rop ir.ReduceOp, shape []int, axis int, e *ir.Node, out int, sizes ...int) *ir.Kernel {
		bufs := []ir.BufferSpec{{DType: dt, Size: out}}
		for _, s := range sizes {
			bufs = append(bufs, ir.BufferSpec{DType: dt, Size: s})
		}
		return &ir.Kernel{Name: name, Shape: shape, ReduceAxes: []int{axis}, Reduce: rop, Expr: e, Bufs: bufs}
	}
	ld := irtest.Ld
	tests := []struct {
		name   string
		k      *ir.Kernel
		marker string // in the source: the layout taken
		nanAt  []int  // input elements of buffer 1 set to NaN
	}{
		{"max f32 4096", full("R_max4096", f32, ir.ReduceMax, []int{4096}, ld(1, f32, []int{1}, 0, nil), 4096), "a[8]", nil},
		{"min f32 odd", full("R_min1001", f32, ir.ReduceMin, []int{1001}, ld(1, f32, []int{1}, 3, nil), 1004), "a[8]", nil},
		{"max f64 2d", full("R_max_f64", f64, ir.ReduceMax, []int{1, 37, 41}, ld(1, f64, []int{0, 41, 1}, 0, nil), 37*41), "a[8]", nil},
		{"min f32 expr", full("R_min_expr", f32, ir.ReduceMin, []int{777},
			irtest.Un(ir.OpRelu, f32, irtest.Bin(ir.OpSub, f32, irtest.Bin(ir.OpMul, f32, ld(1, f32, []int{1}, 0, nil), irtest.Cst(f32, 2)), ld(2, f32, []int{0}, 0, nil))), 777, 1), "a[8]", nil},
		{"max f32 tiny", full("R_max5", f32, ir.ReduceMax, []int{5}, ld(1, f32, []int{1}, 0, nil), 5), "a[8]", nil},
		{"max f32 NaN", full("R_max_nan", f32, ir.ReduceMax, []int{3000}, ld(1, f32, []int{1}, 0, nil), 3000), "a[8]", []int{1234}},
		{"min f64 NaN tail", full("R_min_nan", f64, ir.ReduceMin, []int{1003}, ld(1, f64, []int{1}, 0, nil), 1003), "a[8]", []int{1001}},

		{"sum rows f32 odd", rows("R_37_r70", f32, ir.ReduceSum, []int{37, 70}, 1, ld(1, f32, []int{70, 1}, 0, nil), 37, 37*70), "_tr(", nil},
		{"sum rows f32 64", rows("R_64_r64", f32, ir.ReduceSum, []int{64, 64}, 1, ld(1, f32, []int{64, 1}, 0, nil), 64, 64*64), "_tr(", nil},
		{"sum rows f64 long", rows("R_130_r300", f64, ir.ReduceSum, []int{130, 300}, 1, ld(1, f64, []int{300, 1}, 5, nil), 130, 130*300+5), "_tr(", nil},
		{"sum lane partials", rows("R_100_1_r64", f32, ir.ReduceSum, []int{100, 1, 64}, 2, ld(1, f32, []int{64, 64, 1}, 0, nil), 100, 6400), "_tr(", nil},
		{"max rows NaN", rows("R_70_r33", f32, ir.ReduceMax, []int{70, 33}, 1, ld(1, f32, []int{33, 1}, 0, nil), 70, 70*33), "_tr(", []int{5, 40*33 + 32}},
		{"min rows f64", rows("R_66_r17", f64, ir.ReduceMin, []int{66, 17}, 1, ld(1, f64, []int{17, 1}, 0, nil), 66, 66*17), "_tr(", nil},
		// x - rowval (softmax's shift): a value per output, contiguous along the outputs.
		{"rows minus per-row", rows("R_shift", f32, ir.ReduceSum, []int{48, 80}, 1,
			irtest.Bin(ir.OpSub, f32, ld(1, f32, []int{80, 1}, 0, nil), ld(2, f32, []int{1, 0}, 0, nil)), 48, 48*80, 48), "_tr(", nil},
		// A matrix-vector product: the vector is the same row for every output.
		{"matvec", rows("R_matvec", f32, ir.ReduceSum, []int{40, 50}, 1,
			irtest.Bin(ir.OpMul, f32, ld(1, f32, []int{50, 1}, 0, nil), ld(2, f32, []int{0, 1}, 0, nil)), 40, 40*50, 50), "_tr(", nil},
		// A per-output value at a stride (gathered), and a scalar.
		{"per-row strided", rows("R_strided", f64, ir.ReduceMax, []int{20, 24}, 1,
			irtest.Bin(ir.OpMin, f64, irtest.Bin(ir.OpAdd, f64, ld(1, f64, []int{24, 1}, 0, nil), ld(2, f64, []int{3, 0}, 1, nil)), ld(3, f64, []int{0, 0}, 0, nil)), 20, 20*24, 61, 1), "_tr(", nil},
		// Rows of a batch: the outputs' other axis is a row axis of the tile.
		{"batched rows", rows("R_3_40_r50", f32, ir.ReduceSum, []int{3, 40, 50}, 2, ld(1, f32, []int{2000, 50, 1}, 0, nil), 120, 6000), "_tr(", nil},
		// Rows read transposed (a column sum written as rows): strides (1, 40).
		{"rows of a transpose", rows("R_T", f32, ir.ReduceSum, []int{40, 36}, 1, ld(1, f32, []int{1, 40}, 0, nil), 40, 1440), "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := make([][]float64, len(tt.k.Bufs))
			for i, b := range tt.k.Bufs[1:] {
				in[i+1] = irtest.Data(b, i)
				for j := range in[i+1] {
					// Every bit of the mantissa used, so the order of a sum shows.
					in[i+1][j] = irtest.Round(b.DType, in[i+1][j]+math.Sin(float64(j))/3)
				}
			}
			for _, p := range tt.nanAt {
				in[1][p] = math.NaN()
			}
			want := irtest.Eval(tt.k, in)
			got, src := cpuRun(t, tt.k, in)
			if tt.marker != "" && !strings.Contains(src, tt.marker) {
				t.Fatalf("kernel did not take the layout marked %q:\n%s", tt.marker, src)
			}
			for i := range want {
				if math.IsNaN(want[i]) && math.IsNaN(got[i]) {
					continue
				}
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("out[%d] = %v, want %v\n%s", i, got[i], want[i], src)
				}
			}
		})
	}
}

// The rows of a max or min against the in-order fold (acc > v || acc != acc
// ? acc : v, the scalar helpers'), bit for bit: NaNs of either sign (the
// first in the row is the result), ties of +0 and -0 (the last zero is),
// infinities, at row lengths around the vector width and rowFoldMin (rows
// of at least 64 take render.reduceRows, shorter ones the transposes).
func TestCPURowMaxMinExact(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	nan := func(bits uint32) float64 { return float64(math.Float32frombits(bits)) } // round-trips through float32
	pNaN, nNaN := nan(0x7fc00001), nan(0xffc00002)
	negZero := math.Copysign(0, -1)
	inf := math.Inf(1)
	// patterns fill a row of R columns for a max (a min reads them negated).
	patterns := []func(row []float64){
		func(row []float64) {}, // the values only
		func(row []float64) { row[0] = pNaN },
		func(row []float64) { row[len(row)-1] = pNaN },
		func(row []float64) { row[len(row)/2] = nNaN },
		func(row []float64) { row[len(row)/3] = nNaN; row[len(row)-1] = pNaN },
		func(row []float64) { // zeros the maximum: the last one is -0
			for j := range row {
				row[j] = -math.Abs(row[j]) - 1
			}
			row[0], row[len(row)/2], row[len(row)-1] = 0, 0, negZero
		},
		func(row []float64) { // the last zero is +0
			for j := range row {
				row[j] = -math.Abs(row[j]) - 1
			}
			row[0], row[len(row)/3], row[len(row)-1] = negZero, negZero, 0
			if len(row) > 2 {
				row[len(row)-1], row[len(row)-2] = row[len(row)-2], 0
			}
		},
		func(row []float64) { // all +0 but the last
			for j := range row {
				row[j] = 0
			}
			row[len(row)-1] = negZero
		},
		func(row []float64) { // all -0 but the middle
			for j := range row {
				row[j] = negZero
			}
			row[len(row)/2] = 0
		},
		func(row []float64) { // all -Inf
			for j := range row {
				row[j] = -inf
			}
		},
		func(row []float64) { row[len(row)/2] = inf },
		func(row []float64) { // zeros and a NaN after them
			for j := range row {
				row[j] = negZero
			}
			row[len(row)-1] = nNaN
		},
	}
	fold := func(rop ir.ReduceOp, row []float64) float64 {
		acc := math.Inf(-1)
		if rop == ir.ReduceMin {
			acc = math.Inf(1)
		}
		for _, v := range row {
			if (rop == ir.ReduceMax && acc > v) || (rop == ir.ReduceMin && acc < v) || acc != acc {
				continue
			}
			acc = v
		}
		return acc
	}
	const nrows = 37 // partial blocks of rows for every vector width
	for _, dt := range []ir.DType{ir.Float32, ir.Float64} {
		for _, rop := range []ir.ReduceOp{ir.ReduceMax, ir.ReduceMin} {
			for _, R := range []int{1, 15, 16, 17, 63, 64, 65, 255, 256, 4096} {
				t.Run(fmt.Sprintf("%s %s %d", dt, rop, R), func(t *testing.T) {
					k := &ir.Kernel{Name: "R_rowmm", Shape: []int{nrows, R}, ReduceAxes: []int{1}, Reduce: rop,
						Expr: irtest.Ld(1, dt, []int{R, 1}, 0, nil),
						Bufs: []ir.BufferSpec{{DType: dt, Size: nrows}, {DType: dt, Size: nrows * R}}}
					in := make([]float64, nrows*R)
					want := make([]float64, nrows)
					for r := 0; r < nrows; r++ {
						row := in[r*R : (r+1)*R]
						for j := range row {
							row[j] = irtest.Round(dt, math.Sin(float64(r*R+j))*100)
						}
						patterns[r%len(patterns)](row)
						if rop == ir.ReduceMin {
							for j, v := range row {
								if v == v {
									row[j] = -v
								}
							}
						}
						want[r] = fold(rop, row)
					}
					got, src := cpuRun(t, k, [][]float64{nil, in})
					marker := map[bool]string{true: "TICK_QF", false: "_tr("}[R >= 64]
					if R == 1 { // no fold: a copy
						marker = ""
					}
					if !strings.Contains(src, marker) {
						t.Fatalf("kernel did not take the layout marked %q:\n%s", marker, src)
					}
					for r := range want {
						if math.Float64bits(got[r]) != math.Float64bits(want[r]) {
							t.Errorf("row %d (pattern %d): got %v (%#x), want %v (%#x)", r, r%len(patterns),
								got[r], math.Float64bits(got[r]), want[r], math.Float64bits(want[r]))
						}
					}
				})
			}
		}
	}
}

// A max or min over axis 0 of a wide matrix (render.reduceVector, banded
// or not) checks its values for NaN two vectors at a time and folds a tile
// that had one again exactly: a NaN at each of a tile's 64 column
// positions, in each band, of either sign, as the only one in its tile, and
// two NaNs in one column (the first is the result), against the in-order
// fold bit for bit.
func TestCPUReduceColumnMaxMinNaN(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	nan := func(bits uint32) float64 { return float64(math.Float32frombits(bits)) }
	const tile, cols = 64, 66 * 64   // tiles 0-63: one NaN each; 64: two in a column; 65: none
	for _, R := range []int{20, 6} { // bands of 8 rows (the last partial), and one loop
		for _, dt := range []ir.DType{ir.Float32, ir.Float64} {
			for _, rop := range []ir.ReduceOp{ir.ReduceMax, ir.ReduceMin} {
				t.Run(fmt.Sprintf("%d rows %s %s", R, dt, rop), func(t *testing.T) {
					in := make([]float64, R*cols)
					for i := range in {
						in[i] = irtest.Round(dt, math.Sin(float64(i))*100)
					}
					for tl := 0; tl < tile; tl++ {
						bits := uint32(0x7fc00000 + tl)
						if tl%2 == 1 {
							bits |= 1 << 31
						}
						in[(tl*5%R)*cols+tl*tile+tl] = nan(bits)
					}
					in[3*cols+64*tile+9], in[(R-1)*cols+64*tile+9] = nan(0xffc00007), nan(0x7fc00008)
					k := &ir.Kernel{Name: "R_colmm", Shape: []int{R, cols}, ReduceAxes: []int{0}, Reduce: rop,
						Expr: irtest.Ld(1, dt, []int{cols, 1}, 0, nil),
						Bufs: []ir.BufferSpec{{DType: dt, Size: cols}, {DType: dt, Size: R * cols}}}
					got, src := cpuRun(t, k, [][]float64{nil, in})
					if !strings.Contains(src, "_unord(") {
						t.Fatalf("kernel did not check its values two at a time:\n%s", src)
					}
					for j := 0; j < cols; j++ {
						acc := math.Inf(-1)
						if rop == ir.ReduceMin {
							acc = math.Inf(1)
						}
						for r := 0; r < R; r++ {
							v := in[r*cols+j]
							if (rop == ir.ReduceMax && acc > v) || (rop == ir.ReduceMin && acc < v) || acc != acc {
								continue
							}
							acc = v
						}
						if math.Float64bits(got[j]) != math.Float64bits(acc) {
							t.Fatalf("column %d: got %v (%#x), want %v (%#x)", j, got[j], math.Float64bits(got[j]), acc, math.Float64bits(acc))
						}
					}
				})
			}
		}
	}
}
