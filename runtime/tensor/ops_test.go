package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// refArray is a reference array: data in row-major order with a shape.
type refArray struct {
	shape []int
	data  []float64
}

func randHost(r *rand.Rand, shape ...int) refArray {
	h := refArray{shape: shape, data: make([]float64, prod(shape))}
	for i := range h.data {
		h.data[i] = float64(float32(r.Float64()*4 - 2))
	}
	return h
}

func (h refArray) tensor() *Tensor {
	v := make([]float32, len(h.data))
	for i, x := range h.data {
		v[i] = float32(x)
	}
	return FromFloat32s(v, h.shape...)
}

// at reads h at a broadcast multi-index of an output of nd axes.
func (h refArray) at(idx []int) float64 {
	off, st := 0, 1
	for d := len(h.shape) - 1; d >= 0; d-- {
		i := idx[len(idx)-len(h.shape)+d]
		if h.shape[d] == 1 {
			i = 0
		}
		off += i * st
		st *= h.shape[d]
	}
	return h.data[off]
}

// refMap evaluates f elementwise over broadcast operands, with plain loops.
func refMap(f func(x ...float64) float64, shape []int, ops ...refArray) []float64 {
	out := make([]float64, prod(shape))
	idx := make([]int, len(shape))
	args := make([]float64, len(ops))
	for i := range out {
		rem := i
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d] = rem % shape[d]
			rem /= shape[d]
		}
		for j, o := range ops {
			args[j] = o.at(idx)
		}
		out[i] = f(args...)
	}
	return out
}

func assertClose(t *testing.T, what string, got []float64, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.IsNaN(w) && math.IsNaN(g) || g == w {
			continue
		}
		if math.Abs(g-w) > tol*(1+math.Abs(w)) || math.IsNaN(g) != math.IsNaN(w) {
			t.Fatalf("%s: element %d = %v, want %v\n got %v\nwant %v", what, i, g, w, head(got), head(want))
		}
	}
}

func head(v []float64) []float64 { return v[:min(len(v), 12)] }

func f32(x float64) float64 { return float64(float32(x)) }

func TestElementwiseMatchesLoops(t *testing.T) {
	binaries := []struct {
		name string
		op   func(a, b *Tensor) *Tensor
		ref  func(a, b float64) float64
	}{
		{"add", func(a, b *Tensor) *Tensor { return a.Add(b) }, func(a, b float64) float64 { return a + b }},
		{"sub", func(a, b *Tensor) *Tensor { return a.Sub(b) }, func(a, b float64) float64 { return a - b }},
		{"mul", func(a, b *Tensor) *Tensor { return a.Mul(b) }, func(a, b float64) float64 { return a * b }},
		{"div", func(a, b *Tensor) *Tensor { return a.Div(b) }, func(a, b float64) float64 { return a / b }},
		{"pow", func(a, b *Tensor) *Tensor { return a.Abs().Pow(b) }, func(a, b float64) float64 { return math.Pow(math.Abs(a), b) }},
		{"maximum", func(a, b *Tensor) *Tensor { return a.Maximum(b) }, math.Max},
		{"minimum", func(a, b *Tensor) *Tensor { return a.Minimum(b) }, math.Min},
		{"lt", func(a, b *Tensor) *Tensor { return a.Lt(b) }, func(a, b float64) float64 { return b2f(a < b) }},
		{"le", func(a, b *Tensor) *Tensor { return a.Le(b) }, func(a, b float64) float64 { return b2f(a <= b) }},
		{"gt", func(a, b *Tensor) *Tensor { return a.Gt(b) }, func(a, b float64) float64 { return b2f(a > b) }},
		{"ge", func(a, b *Tensor) *Tensor { return a.Ge(b) }, func(a, b float64) float64 { return b2f(a >= b) }},
		{"eq", func(a, b *Tensor) *Tensor { return a.Eq(b) }, func(a, b float64) float64 { return b2f(a == b) }},
		{"ne", func(a, b *Tensor) *Tensor { return a.Ne(b) }, func(a, b float64) float64 { return b2f(a != b) }},
		{"where", func(a, b *Tensor) *Tensor { return Where(a.Gt(0), a, b) }, func(a, b float64) float64 {
			if a > 0 {
				return a
			}
			return b
		}},
	}
	shapes := [][2][]int{
		{{3, 4}, {3, 4}}, {{3, 4}, {4}}, {{3, 1}, {1, 4}}, {{2, 3, 4}, {3, 1}}, {{5}, {}}, {{0, 4}, {4}},
	}
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			r := rand.New(rand.NewSource(1))
			var checks []pendingCheck
			for _, op := range binaries {
				for _, sh := range shapes {
					a, b := randHost(r, sh[0]...), randHost(r, sh[1]...)
					out := broadcastShape("test", a.shape, b.shape)
					want := refMap(func(x ...float64) float64 { return f32(op.ref(x[0], x[1])) }, out, a, b)
					checks = append(checks, pendingCheck{fmt.Sprintf("%s %v %v", op.name, sh[0], sh[1]), op.op(a.tensor(), b.tensor()), want, 1e-5})
				}
			}
			runChecks(t, checks)
		})
	}
}

// pendingCheck is a result to compare with a reference once every check of
// a test is realized: realizing them in one schedule lets a cold CPU device
// compile their kernels concurrently. The kernels are the same as checking
// one at a time (each result is cast to float64 inside its own kernel).
type pendingCheck struct {
	name string
	got  *Tensor
	want []float64
	tol  float64
}

func runChecks(t *testing.T, checks []pendingCheck) {
	t.Helper()
	ts := make([]*Tensor, len(checks))
	for i, c := range checks {
		if c.got.DType() != Float64 {
			checks[i].got = c.got.Cast(Float64)
		}
		ts[i] = checks[i].got
	}
	RealizeAll(ts...)
	for _, c := range checks {
		assertClose(t, c.name, c.got.Float64s(), c.want, c.tol)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestUnaryMatchesLoops(t *testing.T) {
	unaries := []struct {
		name string
		op   func(a *Tensor) *Tensor
		ref  func(a float64) float64
	}{
		{"neg", (*Tensor).Neg, func(a float64) float64 { return -a }},
		{"exp", (*Tensor).Exp, math.Exp},
		{"log", func(a *Tensor) *Tensor { return a.Abs().Log() }, func(a float64) float64 { return math.Log(math.Abs(a)) }},
		{"sqrt", func(a *Tensor) *Tensor { return a.Abs().Sqrt() }, func(a float64) float64 { return math.Sqrt(math.Abs(a)) }},
		{"sin", (*Tensor).Sin, math.Sin},
		{"cos", (*Tensor).Cos, math.Cos},
		{"tanh", (*Tensor).Tanh, math.Tanh},
		{"sigmoid", (*Tensor).Sigmoid, func(a float64) float64 { return 1 / (1 + math.Exp(-a)) }},
		{"relu", (*Tensor).Relu, func(a float64) float64 { return math.Max(a, 0) }},
		{"abs", (*Tensor).Abs, math.Abs},
		{"scalar chain", func(a *Tensor) *Tensor { return a.Mul(2).Add(1).Sub(0.5).Div(3) }, func(a float64) float64 { return f32(f32(f32(a*2)+1)-0.5) / 3 }},
		{"not", func(a *Tensor) *Tensor { return a.Gt(0).Not() }, func(a float64) float64 { return b2f(!(a > 0)) }},
		{"cast int32", func(a *Tensor) *Tensor { return a.Mul(3).Cast(Int32) }, func(a float64) float64 { return math.Trunc(f32(a * 3)) }},
		{"int32 arithmetic", func(a *Tensor) *Tensor { return a.Mul(3).Cast(Int32).Mul(2).Add(1) }, func(a float64) float64 { return math.Trunc(f32(a*3))*2 + 1 }},
		{"bool to float", func(a *Tensor) *Tensor { return a.Gt(0).Cast(Float32).Add(1) }, func(a float64) float64 { return b2f(a > 0) + 1 }},
		{"float64", func(a *Tensor) *Tensor { return a.Cast(Float64).Exp().Mul(2) }, func(a float64) float64 { return math.Exp(a) * 2 }},
	}
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			a := randHost(rand.New(rand.NewSource(2)), 4, 5)
			var checks []pendingCheck
			for _, op := range unaries {
				want := refMap(func(x ...float64) float64 { return op.ref(x[0]) }, a.shape, a)
				checks = append(checks, pendingCheck{op.name, op.op(a.tensor()), want, 2e-6})
			}
			runChecks(t, checks)
		})
	}
}

// refReduce folds h over the axes (keepdim shape) with plain loops.
func refReduce(h refArray, axes []int, init float64, f func(acc, x float64) float64) refArray {
	red := map[int]bool{}
	for _, a := range axes {
		red[a] = true
	}
	oshape := make([]int, len(h.shape))
	for d, n := range h.shape {
		oshape[d] = n
		if red[d] {
			oshape[d] = 1
		}
	}
	out := refArray{shape: oshape, data: make([]float64, prod(oshape))}
	for i := range out.data {
		out.data[i] = init
	}
	idx := make([]int, len(h.shape))
	for i, x := range h.data {
		rem := i
		for d := len(h.shape) - 1; d >= 0; d-- {
			idx[d] = rem % h.shape[d]
			rem /= h.shape[d]
		}
		o := 0
		for d := range h.shape {
			if !red[d] {
				o = o*oshape[d] + idx[d]
			} else {
				o = o * 1
			}
		}
		out.data[o] = f(out.data[o], x)
	}
	return out
}

func TestReductionsMatchLoops(t *testing.T) {
	sum := func(a, x float64) float64 { return a + x }
	cases := []struct {
		name string
		op   func(t *Tensor, axes ...int) *Tensor
		init float64
		f    func(a, x float64) float64
	}{
		{"sum", (*Tensor).SumKeepDim, 0, sum},
		{"max", (*Tensor).MaxKeepDim, math.Inf(-1), math.Max},
		{"min", (*Tensor).MinKeepDim, math.Inf(1), math.Min},
	}
	shapes := []struct {
		shape []int
		axes  [][]int
	}{
		{[]int{3, 4, 5}, [][]int{{0}, {1}, {2}, {0, 2}, {}}},
		{[]int{1, 7}, [][]int{{0}, {1}}},
		{[]int{2, 0}, [][]int{{0}}},
		{[]int{1000}, [][]int{{0}}},
	}
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			r := rand.New(rand.NewSource(3))
			var checks []pendingCheck
			for _, c := range cases {
				for _, s := range shapes {
					h := randHost(r, s.shape...)
					for _, axes := range s.axes {
						all := axes
						if len(all) == 0 {
							for d := range s.shape {
								all = append(all, d)
							}
						}
						want := refReduce(h, all, c.init, c.f)
						got := c.op(h.tensor(), axes...)
						if !equalInts(got.Shape(), want.shape) {
							t.Fatalf("%s%v of %v: shape %v, want %v", c.name, axes, s.shape, got.Shape(), want.shape)
						}
						for i := range want.data {
							want.data[i] = f32(want.data[i])
						}
						checks = append(checks, pendingCheck{fmt.Sprintf("%s%v of %v", c.name, axes, s.shape), got, want.data, 1e-5})
					}
				}
			}
			runChecks(t, checks)
			h := randHost(r, 3, 4)
			if s := h.tensor().Sum(1).Shape(); !equalInts(s, []int{3}) {
				t.Errorf("Sum(1) of [3 4] has shape %v, want [3]", s)
			}
			mean := h.tensor().Mean(0).Float64s()
			for j := 0; j < 4; j++ {
				want := (h.data[j] + h.data[4+j] + h.data[8+j]) / 3
				if math.Abs(mean[j]-want) > 1e-5 {
					t.Errorf("Mean(0)[%d] = %v, want %v", j, mean[j], want)
				}
			}
			x := FromFloat32s([]float32{1, 5, 5, 2, 9, 0, 9, 3}, 2, 4)
			if got := x.Argmax(1).Int32s(); got[0] != 1 || got[1] != 0 {
				t.Errorf("Argmax(1) = %v, want [1 0] (first maximum)", got)
			}
			if got := x.Argmax(0).Int32s(); fmt.Sprint(got) != "[1 0 1 1]" {
				t.Errorf("Argmax(0) = %v, want [1 0 1 1]", got)
			}
		})
	}
}

func TestMovementIsViewsAndCorrect(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			a := Arange(24).Reshape(2, 3, 4)
			cases := []struct {
				name string
				got  *Tensor
				want func(i, j, k int) float64 // value at output index
				shp  []int
			}{
				{"permute", a.Permute(2, 0, 1), func(i, j, k int) float64 { return float64(j*12 + k*4 + i) }, []int{4, 2, 3}},
				{"transpose+add (non-contiguous input)", a.Transpose(0, 2).Add(1), func(i, j, k int) float64 { return float64(k*12+j*4+i) + 1 }, []int{4, 3, 2}},
				{"shrink", a.Shrink([][2]int{{1, 2}, {0, 3}, {1, 3}}), func(i, j, k int) float64 { return float64(12 + j*4 + 1 + k) }, []int{1, 3, 2}},
				{"flip", a.Flip(2), func(i, j, k int) float64 { return float64(i*12 + j*4 + 3 - k) }, []int{2, 3, 4}},
				{"flip all then add", a.Flip().Add(0), func(i, j, k int) float64 { return float64(23 - (i*12 + j*4 + k)) }, []int{2, 3, 4}},
				{"expand", a.Slice(2, 0, 1).Expand(2, 3, 5), func(i, j, k int) float64 { return float64(i*12 + j*4) }, []int{2, 3, 5}},
				{"pad", a.Pad([][2]int{{0, 0}, {1, 0}, {0, 2}}), func(i, j, k int) float64 {
					if j == 0 || k >= 4 {
						return 0
					}
					return float64(i*12 + (j-1)*4 + k)
				}, []int{2, 4, 6}},
				{"pad of expression", a.Mul(2).Pad([][2]int{{0, 0}, {0, 0}, {1, 1}}).Add(1), func(i, j, k int) float64 {
					if k == 0 || k == 5 {
						return 1
					}
					return float64(2*(i*12+j*4+k-1)) + 1
				}, []int{2, 3, 6}},
				{"reshape of permuted (copy)", a.Permute(1, 0, 2).Reshape(3, 2, 4), func(i, j, k int) float64 { return float64(j*12 + i*4 + k) }, []int{3, 2, 4}},
				{"reshape of elementwise", a.Add(1).Reshape(4, 3, 2), func(i, j, k int) float64 { return float64(i*6+j*2+k) + 1 }, []int{4, 3, 2}},
				{"cat", Cat(1, a, a.Mul(-1)), func(i, j, k int) float64 {
					if j < 3 {
						return float64(i*12 + j*4 + k)
					}
					return -float64(i*12 + (j-3)*4 + k)
				}, []int{2, 6, 4}},
				{"stack", Stack(0, a.Slice(0, 0, 1).Reshape(3, 4), a.Slice(0, 1, 2).Reshape(3, 4)), func(i, j, k int) float64 { return float64(i*12 + j*4 + k) }, []int{2, 3, 4}},
				{"size-1 axes", a.Reshape(2, 1, 3, 1, 4).Permute(4, 1, 2, 3, 0).Reshape(4, 3, 2), func(i, j, k int) float64 { return float64(k*12 + j*4 + i) }, []int{4, 3, 2}},
			}
			for _, c := range cases {
				if !equalInts(c.got.Shape(), c.shp) {
					t.Fatalf("%s: shape %v, want %v", c.name, c.got.Shape(), c.shp)
				}
				want := make([]float64, prod(c.shp))
				for i := range want {
					want[i] = c.want(i/(c.shp[1]*c.shp[2]), i/c.shp[2]%c.shp[1], i%c.shp[2])
				}
				assertClose(t, c.name, c.got.Float64s(), want, 0)
			}
			// Zero-size tensors flow through every kind of op.
			z := Zeros(0, 3).Add(Ones(3)).Exp()
			if got := z.Float32s(); len(got) != 0 || !equalInts(z.Shape(), []int{0, 3}) {
				t.Errorf("zero-size: %v %v", got, z.Shape())
			}
			if got := Zeros(0, 3).Sum(0).Float32s(); fmt.Sprint(got) != "[0 0 0]" {
				t.Errorf("sum over a zero-size axis = %v, want [0 0 0]", got)
			}
		})
	}
}

func TestViewsDoNotCopy(t *testing.T) {
	onDevice(t, "GO")
	a := Arange(12).Reshape(3, 4)
	for name, v := range map[string]*Tensor{"permute": a.T(), "shrink": a.Slice(1, 1, 3), "flip": a.Flip(0), "expand": a.Reshape(3, 1, 4).Expand(3, 2, 4)} {
		if v.l.kind != kView || v.l.srcs[0] != a.l.base() {
			t.Errorf("%s: not a view of the realized buffer (kind %d)", name, v.l.kind)
		}
	}
	e := a.Add(1)
	if p := e.T(); p.l.kind != kElem {
		t.Errorf("transpose of an unrealized elementwise op should push into its sources (fusable), got kind %d", p.l.kind)
	}
}

func TestSoftmaxMatchesLoops(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			h := randHost(rand.New(rand.NewSource(4)), 3, 5)
			sm := h.tensor().Softmax(1).Float64s()
			lsm := h.tensor().LogSoftmax(-1).Float64s()
			for i := 0; i < 3; i++ {
				row := h.data[i*5 : i*5+5]
				m := math.Inf(-1)
				for _, x := range row {
					m = math.Max(m, x)
				}
				s := 0.0
				for _, x := range row {
					s += math.Exp(x - m)
				}
				for j, x := range row {
					if w := math.Exp(x-m) / s; math.Abs(sm[i*5+j]-w) > 1e-6 {
						t.Fatalf("softmax[%d,%d] = %v, want %v", i, j, sm[i*5+j], w)
					}
					if w := x - m - math.Log(s); math.Abs(lsm[i*5+j]-w) > 1e-5 {
						t.Fatalf("log-softmax[%d,%d] = %v, want %v", i, j, lsm[i*5+j], w)
					}
				}
			}
		})
	}
}

func TestErrorsNameShapesAndOps(t *testing.T) {
	onDevice(t, "GO")
	cases := []struct {
		name string
		f    func()
		want []string
	}{
		{"broadcast", func() { Ones(2, 3).Add(Ones(4)) }, []string{"Add", "[2 3]", "[4]", "broadcast"}},
		{"matmul", func() { Ones(2, 3).Matmul(Ones(4, 5)) }, []string{"Matmul", "[2 3]", "[4 5]", "inner sizes"}},
		{"operand", func() { Ones(2).Mul("two") }, []string{"Mul", "string", "not a *Tensor or a Go number"}},
		{"reshape", func() { Ones(2, 3).Reshape(4) }, []string{"Reshape", "[2 3]", "6 elements"}},
		{"item", func() { Ones(2).Item() }, []string{"Item", "one element"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				var oe *OpError
				err, _ := r.(error)
				if !errors.As(err, &oe) {
					t.Fatalf("panic %v (%T), want *OpError", r, r)
				}
				for _, w := range c.want {
					if !strings.Contains(oe.Error(), w) {
						t.Errorf("error %q does not mention %q", oe.Error(), w)
					}
				}
			}()
			c.f()
		})
	}
}
