// Package irtest helps test backends against the kernel IR's meaning: a
// reference interpreter (Eval, float64 with each node rounded to its
// dtype), kernel builders, test data and conversions between float64
// values and buffer bytes. Every backend's tests use it, so they check
// against one reference.
package irtest

import (
	"encoding/binary"
	"math"
	"math/big"

	"github.com/tick-kernel/tick/runtime/ir"
)

// Ld is a load of buf (dt) through strides, offset and mask.
func Ld(buf int, dt ir.DType, strides []int, off int, mask [][2]int) *ir.Node {
	return &ir.Node{Op: ir.OpLoad, DType: dt, Buf: buf, View: ir.View{Strides: strides, Offset: off, Mask: mask}}
}

// Cst is the constant v of dt.
func Cst(dt ir.DType, v float64) *ir.Node { return &ir.Node{Op: ir.OpConst, DType: dt, Value: v} }

// Un is op applied to a, of dtype dt.
func Un(op ir.Op, dt ir.DType, a *ir.Node) *ir.Node {
	return &ir.Node{Op: op, DType: dt, Src: []*ir.Node{a}}
}

// Bin is op applied to a and b, of dtype dt.
func Bin(op ir.Op, dt ir.DType, a, b *ir.Node) *ir.Node {
	return &ir.Node{Op: op, DType: dt, Src: []*ir.Node{a, b}}
}

// Eval interprets k over float64 buffers point by point: the reference
// every backend is checked against. Values are rounded to each node's dtype.
func Eval(k *ir.Kernel, bufs [][]float64) []float64 {
	out := make([]float64, k.Bufs[0].Size)
	outShape := k.OutShape()
	n := ir.Prod(k.Shape)
	if k.Reduce != ir.ReduceNone {
		id := map[ir.ReduceOp]float64{ir.ReduceSum: 0, ir.ReduceMax: math.Inf(-1), ir.ReduceMin: math.Inf(1)}[k.Reduce]
		for i := range out {
			out[i] = id
		}
	}
	idx := make([]int, len(k.Shape))
	for p := 0; p < n; p++ {
		rem := p
		for d := len(k.Shape) - 1; d >= 0; d-- {
			idx[d] = rem % k.Shape[d]
			rem /= k.Shape[d]
		}
		v := evalNode(k.Expr, idx, bufs)
		o := 0
		for d := range k.Shape {
			c := idx[d]
			if outShape[d] == 1 {
				c = 0
			}
			o = o*outShape[d] + c
		}
		switch k.Reduce {
		case ir.ReduceNone:
			out[o] = v
		case ir.ReduceSum:
			out[o] = Round(k.Expr.DType, out[o]+v)
		case ir.ReduceMax:
			out[o] = math.Max(out[o], v)
		case ir.ReduceMin:
			out[o] = math.Min(out[o], v)
		}
	}
	if k.Bufs[0].DType == ir.Bool {
		for i, v := range out {
			out[i] = b2f(v != 0)
		}
	}
	return out
}

// Round rounds x to a value of dt.
func Round(dt ir.DType, x float64) float64 {
	switch dt {
	case ir.Float32:
		return float64(float32(x))
	case ir.Int32:
		return float64(int32(int64(x)))
	}
	return x
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func evalNode(n *ir.Node, idx []int, bufs [][]float64) float64 {
	if n.Op == ir.OpLoad {
		addr := n.View.Offset
		for d, s := range n.View.Strides {
			if n.View.Mask != nil && (idx[d] < n.View.Mask[d][0] || idx[d] >= n.View.Mask[d][1]) {
				return 0
			}
			addr += idx[d] * s
		}
		return bufs[n.Buf][addr]
	}
	if n.Op == ir.OpConst {
		return Round(n.DType, n.Value)
	}
	s := make([]float64, len(n.Src))
	for i, src := range n.Src {
		s[i] = evalNode(src, idx, bufs)
	}
	var v float64
	switch n.Op {
	case ir.OpNeg:
		v = -s[0]
	case ir.OpExp:
		v = math.Exp(s[0])
	case ir.OpLog:
		v = math.Log(s[0])
	case ir.OpSqrt:
		v = math.Sqrt(s[0])
	case ir.OpSin:
		v = math.Sin(s[0])
	case ir.OpCos:
		v = math.Cos(s[0])
	case ir.OpTanh:
		v = math.Tanh(s[0])
	case ir.OpSigmoid:
		v = 1 / (1 + math.Exp(-s[0]))
	case ir.OpRelu:
		v = math.Max(s[0], 0)
	case ir.OpAbs:
		v = math.Abs(s[0])
	case ir.OpNot:
		v = b2f(s[0] == 0)
	case ir.OpCast:
		v = s[0]
		if n.DType == ir.Int32 {
			v = math.Trunc(v)
		}
		if n.DType == ir.Bool {
			v = b2f(v != 0)
		}
	case ir.OpAdd:
		v = s[0] + s[1]
	case ir.OpSub:
		v = s[0] - s[1]
	case ir.OpMul:
		v = s[0] * s[1]
	case ir.OpDiv:
		if n.DType == ir.Int32 {
			if s[1] == 0 {
				return 0
			}
			v = math.Trunc(s[0] / s[1])
		} else {
			v = s[0] / s[1]
		}
	case ir.OpPow:
		v = math.Pow(s[0], s[1])
	case ir.OpMax:
		v = math.Max(s[0], s[1])
	case ir.OpMin:
		v = math.Min(s[0], s[1])
	case ir.OpLt:
		v = b2f(s[0] < s[1])
	case ir.OpLe:
		v = b2f(s[0] <= s[1])
	case ir.OpGt:
		v = b2f(s[0] > s[1])
	case ir.OpGe:
		v = b2f(s[0] >= s[1])
	case ir.OpEq:
		v = b2f(s[0] == s[1])
	case ir.OpNe:
		v = b2f(s[0] != s[1])
	case ir.OpWhere:
		v = s[2]
		if s[0] != 0 {
			v = s[1]
		}
	}
	return Round(n.DType, v)
}

// Data fills a buffer with varied values: negatives, fractions, zeros.
func Data(b ir.BufferSpec, seed int) []float64 {
	out := make([]float64, b.Size)
	for i := range out {
		out[i] = float64((i*7+seed*13)%23-11) / 4
	}
	return out
}

// Put stores v in b as elements of dt.
func Put(b []byte, dt ir.DType, v []float64) {
	for i, x := range v {
		switch dt {
		case ir.Float32:
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(x)))
		case ir.Float64:
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		case ir.Int32:
			binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(x)))
		case ir.Bool:
			b[i] = 0
			if x != 0 {
				b[i] = 1
			}
		}
	}
}

// Get reads n elements of dt from b as float64.
func Get(b []byte, dt ir.DType, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		switch dt {
		case ir.Float32:
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		case ir.Float64:
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		case ir.Int32:
			out[i] = float64(int32(binary.LittleEndian.Uint32(b[4*i:])))
		case ir.Bool:
			out[i] = float64(b[i])
		}
	}
	return out
}

// FMA32 is a*b + c rounded once to float32 (a fused multiply-add), the
// step of a GEMM that contracts; the sign of an exact zero is IEEE's
// (-0 only when a*b and c are both -0).
func FMA32(a, b, c float32) float32 {
	// a*b is exact in float64 and the sum rounds once there; rounding that
	// to float32 again is the correct rounding unless it lies exactly
	// halfway between two float32 values (then the exact sum decides).
	s := float64(a)*float64(b) + float64(c)
	if bits := math.Float64bits(s); bits&(1<<29-1) != 1<<28 && math.Abs(s) >= 0x1p-126 && math.Abs(s) <= math.MaxFloat32 {
		return float32(s)
	}
	p := new(big.Float).SetPrec(200).SetFloat64(float64(a))
	p.Mul(p, new(big.Float).SetPrec(200).SetFloat64(float64(b)))
	p.Add(p, new(big.Float).SetPrec(200).SetFloat64(float64(c)))
	r, _ := p.Float32()
	if r == 0 {
		if math.Signbit(float64(a*b)) && math.Signbit(float64(c)) {
			return float32(math.Copysign(0, -1))
		}
		return 0
	}
	return r
}
