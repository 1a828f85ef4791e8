package tensor

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// scheduleOf returns the kernels Realize would launch for t (without
// launching them).
func scheduleOf(t *Tensor) []*Kernel {
	s := &scheduler{}
	s.realize(t.l.base())
	ks := make([]*Kernel, len(s.items))
	for i, it := range s.items {
		ks[i] = it.k
	}
	return ks
}

// TestScheduleIR pins down the IR a renderer sees for typical graphs.
func TestScheduleIR(t *testing.T) {
	onDevice(t, "GO")
	cases := []struct {
		name string
		t    func() *Tensor
		want []string // Key() of each kernel, in launch order
	}{
		{"fused elementwise", func() *Tensor { return Arange(6).Realize().Mul(2).Add(1) },
			[]string{"kernel E_6 shape=[6] reduce=none axes=[] bufs=float32[6],float32[6]\n  out = add(mul(b1[0+i0*1], float32(2)), float32(1))"}},
		{"reduce absorbs its chain", func() *Tensor { return Arange(12).Realize().Reshape(3, 4).Exp().Sum(1) },
			[]string{"kernel R_3_r4 shape=[3 4] reduce=sum axes=[1] bufs=float32[3],float32[12]\n  out = exp(b1[0+i0*4+i1*1])"}},
		{"transpose is a view with strides", func() *Tensor { return Arange(6).Realize().Reshape(2, 3).T().Neg() },
			[]string{"kernel E_3_2 shape=[3 2] reduce=none axes=[] bufs=float32[6],float32[6]\n  out = neg(b1[0+i0*1+i1*3])"}},
		{"flip is a negative stride", func() *Tensor { return Arange(4).Realize().Flip(0).Add(0) },
			[]string{"kernel E_4 shape=[4] reduce=none axes=[] bufs=float32[4],float32[4]\n  out = add(b1[3+i0*-1], float32(0))"}},
		{"pad is a mask", func() *Tensor { return Arange(2).Realize().Pad([][2]int{{1, 1}}).Mul(3) },
			[]string{"kernel E_4 shape=[4] reduce=none axes=[] bufs=float32[4],float32[2]\n  out = mul(b1[-1+i0*1]mask[[1 3]], float32(3))"}},
		{"shared subexpression is one node", func() *Tensor { x := Arange(3).Realize().Exp(); return x.Mul(x) },
			[]string{"kernel E_3 shape=[3] reduce=none axes=[] bufs=float32[3],float32[3]\n  out = mul(exp(b1[0+i0*1]), #1)"}},
		{"matmul is one reduce over a broadcast product", func() *Tensor { return Ones(2, 3).Realize().Matmul(Ones(3, 4).Realize()) },
			[]string{"kernel R_2_4_r3 shape=[2 4 3] reduce=sum axes=[2] bufs=float32[8],float32[6],float32[12]\n  out = mul(b1[0+i0*3+i2*1], b2[0+i1*1+i2*4])"}},
	}
	for _, c := range cases {
		ks := scheduleOf(c.t())
		var got []string
		for _, k := range ks {
			got = append(got, k.Key())
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestEdgeCases(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			cases := []struct {
				name string
				got  func() any
				want string
			}{
				{"pad of a constant", func() any { return Ones(2).Pad([][2]int{{1, 2}}).Float32s() }, "[0 1 1 0 0]"},
				{"sum of bools is int32", func() any { return Arange(5).Gt(1).Sum().ToSlice() }, "[3]"},
				{"mean of int32 is float", func() any { return FromInt32s([]int32{1, 2}).Mean().ToSlice() }, "[1.5]"},
				{"int32 max/min", func() any {
					return FromInt32s([]int32{3, -7, 5}, 3).Max().Int32s()[0] - FromInt32s([]int32{3, -7, 5}).Min().Int32s()[0]
				}, "12"},
				{"int32 and float promote", func() any { return FromInt32s([]int32{1, 2}).Add(0.5).ToSlice() }, "[1.5 2.5]"},
				{"int32 divide is true division", func() any { return FromInt32s([]int32{1, 3}).Div(2).ToSlice() }, "[0.5 1.5]"},
				{"eye", func() any { return Eye(3).Sum(0).Float32s() }, "[1 1 1]"},
				{"seeded rand repeats", func() any { return RandSeed(7, 3).Sub(RandSeed(7, 3)).Abs().Max().Item() }, "0"},
				{"expand then reduce", func() any { return Full(2, 1, 3).Expand(4, 3).Sum(0).Float32s() }, "[8 8 8]"},
				{"slice with negative index", func() any { return Arange(5).Slice(0, -2, 5).Float32s() }, "[3 4]"},
				{"0-d scalar", func() any { return Scalar(3).Add(Ones(2)).Float32s() }, "[4 4]"},
				{"where with numbers", func() any { return Arange(4).Lt(2).Where(1, -1).Float32s() }, "[1 1 -1 -1]"},
				{"max with NaN propagates", func() any { return FromFloat32s([]float32{1, float32(nan()), 3}).Max().Item() }, "NaN"},
				{"float64 keeps precision", func() any { return FromFloat64s([]float64{1, 1e-12}).Sum().Item() }, "1.000000000001"},
				{"contiguous of flipped realized view", func() any { return Arange(3).Flip(0).Contiguous().Realize().Float32s() }, "[2 1 0]"},
				{"reshape of a permuted view copies", func() any {
					return Arange(24).Reshape(2, 3, 4).Permute(1, 0, 2).Reshape(6, 4).Slice(0, 0, 2).Float32s()
				}, "[0 1 2 3 12 13 14 15]"},
				{"reshape of a flipped view copies", func() any { return Arange(6).Reshape(2, 3).Flip(1).Reshape(6).Float32s() }, "[2 1 0 5 4 3]"},
			}
			for _, c := range cases {
				if got := fmt.Sprint(c.got()); got != c.want {
					t.Errorf("%s = %s, want %s", c.name, got, c.want)
				}
			}
		})
	}
}

// TestLargeReductionSplits: a full reduction of a large tensor runs as
// partial folds (spread over workers) plus a final fold, and agrees with a
// plain loop.
func TestLargeReductionSplits(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			n := 1 << 17
			v := make([]float32, n)
			want, wantMax := 0.0, float32(-1)
			for i := range v {
				v[i] = float32(i%1000) / 1000
				want += float64(v[i])
				wantMax = max(wantMax, v[i])
			}
			x := FromFloat32s(v, 2, n/2).Realize()
			ks := scheduleOf(x.Mul(2).Sum())
			if W := Device(dev).lanes; W > 0 {
				if len(ks) != 3 || ks[0].OutSize() != splitParts*W || ks[0].Shape[2] != W || ks[1].OutSize() != W {
					t.Fatalf("schedule of a large sum: %d kernels, want 3 (the first with %d outputs, %d interleaved lanes per block, then the %d lanes)", len(ks), splitParts*W, W, W)
				}
				if ks := scheduleOf(x.Max()); len(ks) != 2 || ks[0].OutSize() != splitParts*W {
					t.Fatalf("schedule of a large max: %d kernels, want 2 (the first with %d outputs)", len(ks), splitParts*W)
				}
			} else if len(ks) != 2 || ks[0].OutSize() != goSplitParts {
				t.Fatalf("schedule of a large sum: %d kernels, want 2 (the first with %d contiguous partials)", len(ks), goSplitParts)
			}
			if got := x.Mul(2).Sum().Item(); math.Abs(got-2*want) > 1e-6*want {
				t.Errorf("sum = %v, want %v", got, 2*want)
			}
			if got := x.Max().Item(); float32(got) != wantMax {
				t.Errorf("max = %v, want %v", got, wantMax)
			}
			if s := x.SumKeepDim().Shape(); !equalInts(s, []int{1, 1}) {
				t.Errorf("SumKeepDim shape %v, want [1 1]", s)
			}
		})
	}
}

// TestTrailingReductionSplits: a long fold over the last axis runs as
// interleaved partials read in order, then a fold of the partials, for
// every reduce op; a matmul's contraction stays one kernel.
func TestTrailingReductionSplits(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			const rows, n = 6, 4096
			v := make([]float32, rows*n)
			for i := range v {
				v[i] = float32((i*37)%1001)/1000 - 0.5
			}
			x := FromFloat32s(v, rows, n).Realize()
			if ks, W := scheduleOf(x.Sum(1)), Device(dev).lanes; W > 0 && (len(ks) != 2 || ks[0].OutSize() != rows*W || ks[0].Shape[2] != W) {
				t.Fatalf("schedule of Sum(1) over [%d %d]: %d kernels, want 2 (the first with %d outputs)", rows, n, len(ks), rows*W)
			}
			sum, mx, mn := x.Sum(1).Float32s(), x.MaxKeepDim(-1).Float32s(), x.Min(1).Float32s()
			for r := 0; r < rows; r++ {
				var want float64
				wmax, wmin := float32(math.Inf(-1)), float32(math.Inf(1))
				for _, e := range v[r*n : (r+1)*n] {
					want += float64(e)
					wmax, wmin = max(wmax, e), min(wmin, e)
				}
				if math.Abs(float64(sum[r])-want) > 1e-4 || mx[r] != wmax || mn[r] != wmin {
					t.Errorf("row %d: sum %v max %v min %v, want %v %v %v", r, sum[r], mx[r], mn[r], want, wmax, wmin)
				}
			}
			// Below splitReduceMin a sum is one block of lane partials and a
			// max one kernel (the renderer folds a max in any order).
			const nSmall = 4096
			small := FromFloat32s(v[:nSmall], nSmall).Realize()
			if W := Device(dev).lanes; W > 0 {
				if ks := scheduleOf(small.Max()); len(ks) != 1 {
					t.Errorf("Max of %d elements: %d kernels, want 1", nSmall, len(ks))
				}
				if ks := scheduleOf(small.Sum()); len(ks) != 2 || ks[0].OutSize() != W {
					t.Errorf("Sum of %d elements: %d kernels, want 2 (the first with %d lane partials)", nSmall, len(ks), W)
				}
			}
			wsmall, ssmall := float32(math.Inf(-1)), 0.0
			for _, e := range v[:nSmall] {
				wsmall = max(wsmall, e)
				ssmall += float64(e)
			}
			if got := float32(small.Max().Item()); got != wsmall {
				t.Errorf("Max of %d elements = %v, want %v", nSmall, got, wsmall)
			}
			if got := small.Sum().Item(); math.Abs(got-ssmall) > 1e-4 {
				t.Errorf("Sum of %d elements = %v, want %v", nSmall, got, ssmall)
			}
			a := FromFloat32s(v[:4*n], 4, n).Realize()
			if ks := scheduleOf(a.Matmul(a.T())); len(ks) != 1 {
				t.Errorf("a matmul with K=%d scheduled %d kernels, want 1 (the contraction is not split)", n, len(ks))
			}
		})
	}
}

// TestReadingAReducedViewNeedsNoCopy: reading Sum(1) (a dense view of the
// reduce's buffer) launches only the reduce.
func TestReadingAReducedViewNeedsNoCopy(t *testing.T) {
	onDevice(t, "GO")
	a := Arange(12).Reshape(3, 4).Realize()
	_ = SynchronizeAll()
	ResetCounters()
	if got := fmt.Sprint(a.Sum(1).Float32s()); got != "[6 22 38]" {
		t.Fatalf("Sum(1) = %s", got)
	}
	if n := Counters().KernelsLaunched; n != 1 {
		t.Errorf("%d kernels launched, want 1 (no copy for a dense view)", n)
	}
}

// TestSoftmaxComputesExpOnce: softmax's exp is one kernel whose buffer the
// sum and the division read, not inlined (and recomputed) into both.
func TestSoftmaxComputesExpOnce(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			x := RandnSeed(3, 64, 2048).Realize()
			exps := 0
			for _, k := range scheduleOf(x.Softmax(1)) {
				walk(k.Expr, func(n *Node) {
					if n.Op == OpExp {
						exps++
					}
				})
			}
			if exps != 1 {
				t.Errorf("softmax schedules %d exp nodes, want 1", exps)
			}
			got := x.Softmax(1).Sum(1).Float32s()
			for r, v := range got {
				if math.Abs(float64(v)-1) > 1e-5 {
					t.Fatalf("row %d of softmax sums to %v", r, v)
				}
			}
		})
	}
}
