package gobackend

import (
	"fmt"
	"iter"
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
)

// The GO device's float32 folds are the reference interpreter's bit for
// bit (float32 accumulators, rounded at each step, in the IR's order), on
// every path: a kernel that only reads one buffer in order (folded in
// place), expressions evaluated in blocks, lane folds of whole rows and of
// rows cut by the launch range, long maxima and minima (vectorized in any
// order when that cannot change the bits) with NaNs and with ±0 maxima;
// with the assembly folds (where the CPU has AVX2) and with the portable
// loops a machine without AVX2 runs.
func TestGoFoldsMatchReference(t *testing.T) {
	f := ir.Float32
	ld := irtest.Ld
	k := func(name string, shape, axes []int, rop ir.ReduceOp, e *ir.Node, out int, sizes ...int) *ir.Kernel {
		bufs := []ir.BufferSpec{{DType: f, Size: out}}
		for _, s := range sizes {
			bufs = append(bufs, ir.BufferSpec{DType: f, Size: s})
		}
		return &ir.Kernel{Name: name, Shape: shape, ReduceAxes: axes, Reduce: rop, Expr: e, Bufs: bufs}
	}
	x2 := func(strides []int) *ir.Node {
		return irtest.Bin(ir.OpMul, f, ld(1, f, strides, 0, nil), irtest.Cst(f, 2))
	}
	tests := []struct {
		name   string
		k      *ir.Kernel
		marker string
		data   func(i int) float64 // nil: varied values
	}{
		{"sum all in place", k("R_sum", []int{5000}, []int{0}, ir.ReduceSum, ld(1, f, []int{1}, 0, nil), 1, 5000), "", nil},
		{"sum rows expr", k("R_rows", []int{30, 333}, []int{1}, ir.ReduceSum, x2([]int{333, 1}), 30, 30*333), "", nil},
		{"sum lanes in place", k("R_lanes", []int{3, 50, 64}, []int{1}, ir.ReduceSum, ld(1, f, []int{3200, 64, 1}, 0, nil), 192, 9600), "lane fold", nil},
		{"sum lanes expr", k("R_lanes_x", []int{2, 40, 64}, []int{1}, ir.ReduceSum, x2([]int{2560, 64, 1}), 128, 5120), "lane fold", nil},
		{"max lanes wide", k("R_maxl", []int{9, 700}, []int{0}, ir.ReduceMax, ld(1, f, []int{700, 1}, 0, nil), 700, 6300), "lane fold", nil},
		{"min lanes expr", k("R_minl", []int{11, 100}, []int{0}, ir.ReduceMin, x2([]int{100, 1}), 100, 1100), "lane fold", nil},
		{"sum rows in place", k("R_rows_d", []int{37, 64}, []int{1}, ir.ReduceSum, ld(1, f, []int{64, 1}, 0, nil), 37, 37*64), "", nil},
		{"sum rows of 24 in place", k("R_rows_24", []int{19, 24}, []int{1}, ir.ReduceSum, ld(1, f, []int{24, 1}, 0, nil), 19, 19*24), "", nil},
		{"sum odd rows in place", k("R_rows_o", []int{21, 70}, []int{1}, ir.ReduceSum, ld(1, f, []int{70, 1}, 0, nil), 21, 21*70), "", nil},
		{"max lanes in place", k("R_maxl64", []int{2, 30, 64}, []int{1}, ir.ReduceMax, ld(1, f, []int{1920, 64, 1}, 0, nil), 128, 3840), "lane fold", nil},
		{"min lanes in place", k("R_minl64", []int{2, 30, 64}, []int{1}, ir.ReduceMin, ld(1, f, []int{1920, 64, 1}, 0, nil), 128, 3840), "lane fold",
			func(i int) float64 {
				if i == 1000 {
					return math.NaN()
				}
				return math.Cos(float64(i))
			}},
		// Maxima and minima over rows, 64 lanes at a time with one
		// instruction per vector: a NaN in any band of rows stays the
		// result (a vector max alone would drop it at the next row).
		{"min rows NaN", k("R_minn", []int{300, 130}, []int{0}, ir.ReduceMin, ld(1, f, []int{130, 1}, 0, nil), 130, 300*130), "lane fold",
			func(i int) float64 {
				if i == 150*130+70 || i == 299*130+5 || i == 3*130+129 {
					return math.NaN()
				}
				return math.Sin(float64(i))
			}},
		{"max lanes NaN in a band", k("R_maxb", []int{2, 600, 64}, []int{1}, ir.ReduceMax, ld(1, f, []int{38400, 64, 1}, 0, nil), 128, 76800), "lane fold",
			func(i int) float64 {
				if i == 300*64+9 || i == 38400+599*64+63 {
					return math.NaN()
				}
				return math.Cos(float64(i))
			}},
		{"sum lanes of negative zeros", k("R_sumz", []int{4, 10, 64}, []int{1}, ir.ReduceSum, ld(1, f, []int{640, 64, 1}, 0, nil), 256, 2560), "lane fold",
			func(i int) float64 { return math.Copysign(0, -1) }},
		{"max all", k("R_max", []int{10000}, []int{0}, ir.ReduceMax, ld(1, f, []int{1}, 0, nil), 1, 10000), "", nil},
		{"min rows", k("R_minr", []int{8, 1000}, []int{1}, ir.ReduceMin, ld(1, f, []int{1000, 1}, 0, nil), 8, 8000), "", nil},
		{"max all NaN", k("R_maxn", []int{3000}, []int{0}, ir.ReduceMax, ld(1, f, []int{1}, 0, nil), 1, 3000), "",
			func(i int) float64 {
				if i == 2222 {
					return math.NaN()
				}
				return float64(i%97) - 50
			}},
		{"max all zero", k("R_max0", []int{3000}, []int{0}, ir.ReduceMax, ld(1, f, []int{1}, 0, nil), 1, 3000), "",
			func(i int) float64 { return -float64(i % 5) }},
	}
	for asm := range foldPaths(t) {
		for _, tt := range tests {
			checkGoFold(t, fmt.Sprintf("%s/assembly=%v", tt.name, asm), tt.k, tt.marker, tt.data)
		}
	}
}

// foldPaths yields false (the portable loops) and, where the CPU has AVX2,
// true (the assembly folds), with haveFold set so; t's cleanup restores it.
func foldPaths(t *testing.T) iter.Seq[bool] {
	h := haveFold
	t.Cleanup(func() { haveFold = h })
	return func(yield func(bool) bool) {
		for _, asm := range []bool{false, true} {
			if asm && !h {
				return
			}
			haveFold = asm
			if !yield(asm) {
				return
			}
		}
	}
}

// checkGoFold compiles k on the GO device, checks its Source has marker,
// and checks its outputs (whole and in uneven launch ranges) against the
// reference interpreter's bits on data (nil: varied values).
func checkGoFold(t *testing.T, name string, k *ir.Kernel, marker string, data func(i int) float64) {
	t.Run(name, func(t *testing.T) {
		p, err := goDevice{}.Compile(k)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Source(), marker) {
			t.Fatalf("not the path marked %q:\n%s", marker, p.Source())
		}
		in, mems := goFloat32Mems(k, func(j int) float32 {
			if data != nil {
				return float32(data(j))
			}
			return float32(math.Sin(float64(j)) * 3)
		})
		want := irtest.Eval(k, in)
		n := k.OutSize()
		// Whole (rows of lanes at once) and in uneven ranges.
		for _, cuts := range [][]int{{0, n}, {0, n / 3, n/3 + n/5, n}} {
			for c := 0; c+1 < len(cuts); c++ {
				p.(*goProgram).Run(mems, cuts[c], cuts[c+1])
			}
			got := mems[0].(*goMemory).typed.([]float32)
			for i := range want {
				if math.IsNaN(want[i]) && math.IsNaN(float64(got[i])) {
					continue
				}
				if math.Float32bits(got[i]) != math.Float32bits(float32(want[i])) {
					t.Fatalf("ranges %v: out[%d] = %v, want %v\n%s", cuts, i, got[i], want[i], p.Source())
				}
			}
			clear(got)
		}
	})
}

// A max or min over rows ties +0 and -0 as the CPU device's C does
// (tick_maxf: (a > b || a != a) ? a : b, so a tie takes the later row),
// not as the reference interpreter's math.Max: on every path, in uneven
// launch ranges. A fold in another order, or a vector max that kept the
// accumulator on ties, gives the other sign.
func TestGoRowFoldsTieZerosAsC(t *testing.T) {
	f := ir.Float32
	tests := []struct {
		name       string
		rop        ir.ReduceOp
		rows, cols int
		data       func(r, c int) float64
	}{
		{"max", ir.ReduceMax, 40, 200, func(r, c int) float64 {
			switch {
			case (r*7+c*3)%5 == 0:
				return math.Copysign(0, -1)
			case (r+c)%3 == 0:
				return 0
			}
			return -1 - float64(r%4)
		}},
		{"min", ir.ReduceMin, 33, 130, func(r, c int) float64 {
			switch {
			case (r*5+c)%4 == 0:
				return math.Copysign(0, -1)
			case (r+2*c)%3 == 0:
				return 0
			}
			return 1 + float64(c%3)
		}},
	}
	for asm := range foldPaths(t) {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/assembly=%v", tt.name, asm), func(t *testing.T) {
				k := &ir.Kernel{Name: "R_zeros", Shape: []int{tt.rows, tt.cols}, ReduceAxes: []int{0}, Reduce: tt.rop,
					Expr: irtest.Ld(1, f, []int{tt.cols, 1}, 0, nil), Bufs: []ir.BufferSpec{{DType: f, Size: tt.cols}, {DType: f, Size: tt.rows * tt.cols}}}
				p, err := goDevice{}.Compile(k)
				if err != nil {
					t.Fatal(err)
				}
				_, mems := goFloat32Mems(k, func(j int) float32 { return float32(tt.data(j/tt.cols, j%tt.cols)) })
				want := make([]float32, tt.cols)
				for c := range want {
					acc := float32(math.Inf(1))
					if tt.rop == ir.ReduceMax {
						acc = float32(math.Inf(-1))
					}
					for r := 0; r < tt.rows; r++ {
						x := float32(tt.data(r, c))
						if tt.rop == ir.ReduceMax && !(acc > x || acc != acc) || tt.rop == ir.ReduceMin && !(acc < x || acc != acc) {
							acc = x
						}
					}
					want[c] = acc
				}
				signs := 0
				for _, w := range want {
					if w == 0 && math.Signbit(float64(w)) {
						signs++
					}
				}
				if signs == 0 || signs == len(want) {
					t.Fatalf("the data tie no zeros of both signs (%d of %d results -0)", signs, len(want))
				}
				for _, cuts := range [][]int{{0, tt.cols}, {0, 70, 71, tt.cols}} {
					for c := 0; c+1 < len(cuts); c++ {
						p.(*goProgram).Run(mems, cuts[c], cuts[c+1])
					}
					got := mems[0].(*goMemory).typed.([]float32)
					for i := range want {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("ranges %v: out[%d] = %v, want %v", cuts, i, got[i], want[i])
						}
					}
					clear(got)
				}
			})
		}
	}
}

// Max(1) and Min(1) of a matrix read in order (each row folded by one
// assembly call for all the rows when rows are a multiple of 8 long) give
// the in-order scalar fold's bits (acc > x || acc != acc ? acc : x, ties
// taking x): rows with a NaN (first, last, of either sign), signed zeros
// tying (alternating, or one of the other sign at the start, middle or
// end), infinities, a row of one repeated
// value; rows of 64, 72 and 128 (the assembly), of 8 and 20 (short, or
// not a multiple of 8: the scalar fold) and of 256 (foldSeg32's four
// accumulators); whole and in uneven launch ranges.
func TestGoRowMaxMinMatchInOrderFold(t *testing.T) {
	f := ir.Float32
	for _, r := range []int{64, 72, 128, 8, 20, 256} {
		for _, rop := range []ir.ReduceOp{ir.ReduceMax, ir.ReduceMin} {
			const rows = 23
			k := &ir.Kernel{Name: "R_rows", Shape: []int{rows, r}, ReduceAxes: []int{1}, Reduce: rop,
				Expr: irtest.Ld(1, f, []int{r, 1}, 0, nil), Bufs: []ir.BufferSpec{{DType: f, Size: rows}, {DType: f, Size: rows * r}}}
			negz, nan := float32(math.Copysign(0, -1)), float32(math.NaN())
			_, mems := goFloat32Mems(k, func(j int) float32 {
				i, c := j/r, j%r
				switch {
				case i == 1 && c == 0, i == 2 && c == r-1:
					return nan
				case i == 3 && c == r/2:
					return -nan
				case i == 4 || i == 5: // zeros tying: +0 first then -0, and the other way
					if (c%2 == 0) == (i == 4) {
						return 0
					}
					return negz
				case i >= 8 && i < 16: // one zero of the other sign in a row of zeros, at the start, middle, end
					odd := []int{0, r / 2, r - 1, 3}[i%4]
					if (c == odd) == (i < 12) {
						return negz
					}
					return 0
				case i == 6:
					return float32(math.Inf(2*(c%2) - 1))
				case i == 7:
					return 2.5
				}
				return float32(math.Sin(float64(j))*3) - 1
			})
			src := mems[1].(*goMemory).typed.([]float32)
			want := make([]float32, rows)
			for i := range want {
				acc := init32(rop)
				for _, x := range src[i*r : (i+1)*r] {
					if rop == ir.ReduceMax && !(acc > x || acc != acc) || rop == ir.ReduceMin && !(acc < x || acc != acc) {
						acc = x
					}
				}
				want[i] = acc
			}
			p, err := goDevice{}.Compile(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, cuts := range [][]int{{0, rows}, {0, 5, 6, 17, rows}} {
				for c := 0; c+1 < len(cuts); c++ {
					p.(*goProgram).Run(mems, cuts[c], cuts[c+1])
				}
				got := mems[0].(*goMemory).typed.([]float32)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
						t.Fatalf("%v of rows of %d, ranges %v: out[%d] = %v (%#08x), in-order fold %v (%#08x)", rop, r, cuts, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
				clear(got)
			}
		}
	}
}
