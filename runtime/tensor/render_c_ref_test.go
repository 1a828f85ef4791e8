package tensor

import "math"

// cpuRefEval interprets k over float64 buffers point by point: the reference
// the CPU backend is checked against. Values are rounded to each node's dtype.
func cpuRefEval(k *Kernel, bufs [][]float64) []float64 {
	out := make([]float64, k.Bufs[0].Size)
	outShape := k.OutShape()
	n := prod(k.Shape)
	if k.Reduce != ReduceNone {
		id := map[ReduceOp]float64{ReduceSum: 0, ReduceMax: math.Inf(-1), ReduceMin: math.Inf(1)}[k.Reduce]
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
		v := cpuRefNode(k.Expr, idx, bufs)
		o := 0
		for d := range k.Shape {
			c := idx[d]
			if outShape[d] == 1 {
				c = 0
			}
			o = o*outShape[d] + c
		}
		switch k.Reduce {
		case ReduceNone:
			out[o] = v
		case ReduceSum:
			out[o] = cpuRound(k.Expr.DType, out[o]+v)
		case ReduceMax:
			out[o] = math.Max(out[o], v)
		case ReduceMin:
			out[o] = math.Min(out[o], v)
		}
	}
	if k.Bufs[0].DType == Bool {
		for i, v := range out {
			out[i] = cpuB2F(v != 0)
		}
	}
	return out
}

func cpuRound(dt DType, x float64) float64 {
	switch dt {
	case Float32:
		return float64(float32(x))
	case Int32:
		return float64(int32(int64(x)))
	}
	return x
}

func cpuB2F(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func cpuRefNode(n *Node, idx []int, bufs [][]float64) float64 {
	if n.Op == OpLoad {
		addr := n.View.Offset
		for d, s := range n.View.Strides {
			if n.View.Mask != nil && (idx[d] < n.View.Mask[d][0] || idx[d] >= n.View.Mask[d][1]) {
				return 0
			}
			addr += idx[d] * s
		}
		return bufs[n.Buf][addr]
	}
	if n.Op == OpConst {
		return cpuRound(n.DType, n.Value)
	}
	s := make([]float64, len(n.Src))
	for i, src := range n.Src {
		s[i] = cpuRefNode(src, idx, bufs)
	}
	var v float64
	switch n.Op {
	case OpNeg:
		v = -s[0]
	case OpExp:
		v = math.Exp(s[0])
	case OpLog:
		v = math.Log(s[0])
	case OpSqrt:
		v = math.Sqrt(s[0])
	case OpSin:
		v = math.Sin(s[0])
	case OpCos:
		v = math.Cos(s[0])
	case OpTanh:
		v = math.Tanh(s[0])
	case OpSigmoid:
		v = 1 / (1 + math.Exp(-s[0]))
	case OpRelu:
		v = math.Max(s[0], 0)
	case OpAbs:
		v = math.Abs(s[0])
	case OpNot:
		v = cpuB2F(s[0] == 0)
	case OpCast:
		v = s[0]
		if n.DType == Int32 {
			v = math.Trunc(v)
		}
		if n.DType == Bool {
			v = cpuB2F(v != 0)
		}
	case OpAdd:
		v = s[0] + s[1]
	case OpSub:
		v = s[0] - s[1]
	case OpMul:
		v = s[0] * s[1]
	case OpDiv:
		if n.DType == Int32 {
			if s[1] == 0 {
				return 0
			}
			v = math.Trunc(s[0] / s[1])
		} else {
			v = s[0] / s[1]
		}
	case OpPow:
		v = math.Pow(s[0], s[1])
	case OpMax:
		v = math.Max(s[0], s[1])
	case OpMin:
		v = math.Min(s[0], s[1])
	case OpLt:
		v = cpuB2F(s[0] < s[1])
	case OpLe:
		v = cpuB2F(s[0] <= s[1])
	case OpGt:
		v = cpuB2F(s[0] > s[1])
	case OpGe:
		v = cpuB2F(s[0] >= s[1])
	case OpEq:
		v = cpuB2F(s[0] == s[1])
	case OpNe:
		v = cpuB2F(s[0] != s[1])
	case OpWhere:
		v = s[2]
		if s[0] != 0 {
			v = s[1]
		}
	}
	return cpuRound(n.DType, v)
}
