// Package ir is the kernel IR: what the tensor runtime's scheduler produces
// and what every backend consumes. It is deliberately small and explicit so
// a renderer (the GO backend's closure compiler, the CPU backend's C, the
// OpenCL backend's OpenCL C) can walk it without knowing anything about
// lazy tensors; it imports nothing of tick's.
//
// A Kernel computes one output buffer, Bufs[0], over an iteration space
// Shape. Without a reduce, output element i (row-major over Shape) is Expr
// evaluated at the multi-index of i. With a reduce, the output is contiguous
// over Shape with every axis in ReduceAxes set to 1; output element o is the
// fold (Reduce) of Expr over all multi-indices whose non-reduced coordinates
// are o's. Every Load addresses its buffer through a View over Shape, so a
// renderer computes, for a multi-index idx:
//
//	addr  = View.Offset + Σ idx[d]*View.Strides[d]
//	value = Bufs[Load.Buf][addr], or 0 when idx is outside View.Mask
//
// A backend launches a kernel over a grid it chooses (package device): host
// backends over ranges [start, end) of OUTPUT elements (0 ≤ start ≤ end ≤
// OutSize()), split across threads; OpenCL over work items and groups.
package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// Op is the operation of an expression Node.
type Op uint8

// Expression operations. Unary ops have one source, binary two, OpWhere three
// (condition, then, else). OpLoad and OpConst are leaves.
const (
	OpLoad  Op = iota // read Bufs[Buf] through View
	OpConst           // the constant Value (converted to DType)
	// Unary.
	OpNeg
	OpExp
	OpLog
	OpSqrt
	OpSin
	OpCos
	OpTanh
	OpSigmoid
	OpRelu
	OpAbs
	OpNot  // logical not (bool)
	OpCast // convert Src[0] to DType (bool: x != 0; from bool: 0 or 1)
	// Binary; sources have the same dtype; result dtype is that dtype, or Bool
	// for comparisons.
	OpAdd
	OpSub
	OpMul
	OpDiv // integer division truncates toward zero; division by zero gives 0 for int32
	OpPow
	OpMax
	OpMin
	OpLt
	OpLe
	OpGt
	OpGe
	OpEq
	OpNe
	// Ternary.
	OpWhere // Src[0] is Bool; Src[1], Src[2] have the result dtype
	numOps
)

var opNames = [...]string{
	OpLoad: "load", OpConst: "const", OpNeg: "neg", OpExp: "exp", OpLog: "log",
	OpSqrt: "sqrt", OpSin: "sin", OpCos: "cos", OpTanh: "tanh", OpSigmoid: "sigmoid",
	OpRelu: "relu", OpAbs: "abs", OpNot: "not", OpCast: "cast", OpAdd: "add",
	OpSub: "sub", OpMul: "mul", OpDiv: "div", OpPow: "pow", OpMax: "max",
	OpMin: "min", OpLt: "lt", OpLe: "le", OpGt: "gt", OpGe: "ge", OpEq: "eq",
	OpNe: "ne", OpWhere: "where",
}

// String returns the op's lower-case name ("add", "exp", ...).
func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return "op" + strconv.Itoa(int(o))
}

// Arity is the number of sources the op takes.
func (o Op) Arity() int {
	switch {
	case o <= OpConst:
		return 0
	case o <= OpCast:
		return 1
	case o <= OpNe:
		return 2
	}
	return 3
}

// IsComparison reports whether the op yields Bool from two operands.
func (o Op) IsComparison() bool { return o >= OpLt && o <= OpNe }

// ReduceOp is the fold of a reducing kernel.
type ReduceOp uint8

// Reduce operations. ReduceNone marks a purely elementwise kernel.
const (
	ReduceNone ReduceOp = iota
	ReduceSum           // identity 0
	ReduceMax           // identity -Inf (float) or MinInt32
	ReduceMin           // identity +Inf (float) or MaxInt32
)

// String returns "none", "sum", "max" or "min".
func (r ReduceOp) String() string {
	return [...]string{"none", "sum", "max", "min"}[r]
}

// View maps a multi-index over the kernel's Shape to an element of a buffer:
// Offset + Σ idx[d]*Strides[d]. Strides may be 0 (broadcast) or negative
// (flip). Mask, when non-nil, gives per axis the valid half-open range
// [Mask[d][0], Mask[d][1]); indices outside it read 0 (padding) and must not
// be dereferenced.
type View struct {
	Shape   []int
	Strides []int
	Offset  int
	Mask    [][2]int
}

// Node is one node of a kernel's elementwise expression tree.
type Node struct {
	Op    Op
	DType DType   // the dtype of this node's value
	Src   []*Node // Op.Arity() sources
	Buf   int     // OpLoad: index into Kernel.Bufs (never 0, the output)
	View  View    // OpLoad: how Shape indices address the buffer
	Value float64 // OpConst: the value
}

// Arity is the number of sources of n's op.
func (n *Node) Arity() int { return n.Op.Arity() }

// BufferSpec describes one kernel buffer argument.
type BufferSpec struct {
	DType DType
	Size  int // elements
}

// Kernel is one scheduled kernel: the unit a backend compiles and a device
// launches. Expr is a DAG: a *Node may be the source of several nodes (a
// common subexpression); renderers should evaluate each distinct *Node once
// per point. Bufs[0] is the output, the rest are inputs in the order their
// Loads first appear. Kernels hold no buffers, only their specs, so the same
// Kernel (same Key) is compiled once and launched with many buffer sets.
type Kernel struct {
	Name       string       // a readable name such as "E_256" or "R_16_16"
	Shape      []int        // the iteration space
	ReduceAxes []int        // sorted axes of Shape folded by Reduce; empty when Reduce is ReduceNone
	Reduce     ReduceOp     // the fold, or ReduceNone
	Expr       *Node        // evaluated at every point of Shape; a DAG (see below)
	Bufs       []BufferSpec // Bufs[0] is the output

	key string // cached Key()
}

// OutShape is Shape with the reduced axes set to 1 (the output's layout).
func (k *Kernel) OutShape() []int {
	out := append([]int(nil), k.Shape...)
	for _, a := range k.ReduceAxes {
		out[a] = 1
	}
	return out
}

// OutSize is the number of output elements (the launch range).
func (k *Kernel) OutSize() int { return Prod(k.OutShape()) }

// ReduceSize is the number of elements folded into each output element (1
// without a reduce).
func (k *Kernel) ReduceSize() int {
	n := 1
	for _, a := range k.ReduceAxes {
		n *= k.Shape[a]
	}
	return n
}

// FLOPs estimates the arithmetic operations one launch performs: one per
// non-leaf expression node per point of Shape, plus one per folded element.
// It is an estimate, not a hardware count.
func (k *Kernel) FLOPs() int64 {
	ops := 0
	Walk(k.Expr, func(n *Node) {
		if n.Op != OpLoad && n.Op != OpConst {
			ops++
		}
	})
	if k.Reduce != ReduceNone {
		ops++
	}
	return int64(ops) * int64(Prod(k.Shape))
}

// Bytes estimates memory traffic: each buffer counted once in full (inputs
// read, output written). Caches and broadcasting change the real figure.
func (k *Kernel) Bytes() int64 {
	var b int64
	for _, s := range k.Bufs {
		b += int64(s.Size * s.DType.Size())
	}
	return b
}

// Key is the kernel's canonical source: two kernels with the same Key compute
// the same function of their buffers. Compiled programs are cached by it.
func (k *Kernel) Key() string {
	if k.key == "" {
		var sb strings.Builder
		sb.Grow(256)
		sb.WriteString("kernel ")
		sb.WriteString(k.Name)
		sb.WriteString(" shape=")
		writeInts(&sb, k.Shape)
		sb.WriteString(" reduce=")
		sb.WriteString(k.Reduce.String())
		sb.WriteString(" axes=")
		writeInts(&sb, k.ReduceAxes)
		sb.WriteString(" bufs=")
		for i, b := range k.Bufs {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(b.DType.String())
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(b.Size))
			sb.WriteByte(']')
		}
		sb.WriteString("\n  out = ")
		writeExpr(&sb, k.Expr, map[*Node]int{})
		k.key = sb.String()
	}
	return k.key
}

func writeInts(sb *strings.Builder, v []int) {
	sb.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(x))
	}
	sb.WriteByte(']')
}

// String is the readable pseudo-source (the same text as Key).
func (k *Kernel) String() string { return k.Key() }

// writeExpr prints n; a non-leaf node seen before prints as #i, its index in
// first-visit order, so shared subexpressions stay shared in the key.
func writeExpr(sb *strings.Builder, n *Node, seen map[*Node]int) {
	if n.Op != OpLoad && n.Op != OpConst {
		if id, ok := seen[n]; ok {
			fmt.Fprintf(sb, "#%d", id)
			return
		}
		seen[n] = len(seen)
	}
	switch n.Op {
	case OpLoad:
		sb.WriteByte('b')
		sb.WriteString(strconv.Itoa(n.Buf))
		sb.WriteByte('[')
		sb.WriteString(strconv.Itoa(n.View.Offset))
		for d, st := range n.View.Strides {
			if st != 0 {
				sb.WriteString("+i")
				sb.WriteString(strconv.Itoa(d))
				sb.WriteByte('*')
				sb.WriteString(strconv.Itoa(st))
			}
		}
		sb.WriteByte(']')
		if n.View.Mask != nil {
			fmt.Fprintf(sb, "mask%v", n.View.Mask)
		}
	case OpConst:
		sb.WriteString(n.DType.String())
		sb.WriteByte('(')
		sb.WriteString(strconv.FormatFloat(n.Value, 'g', -1, 64))
		sb.WriteByte(')')
	default:
		sb.WriteString(n.Op.String())
		if n.Op == OpCast {
			sb.WriteString("<" + n.DType.String() + ">")
		}
		sb.WriteByte('(')
		for i, s := range n.Src {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeExpr(sb, s, seen)
		}
		sb.WriteByte(')')
	}
}

// walk visits each distinct node of the DAG at n once, sources first.
func Walk(n *Node, f func(*Node)) { walkSeen(n, f, map[*Node]bool{}) }

func walkSeen(n *Node, f func(*Node), seen map[*Node]bool) {
	if seen[n] {
		return
	}
	seen[n] = true
	for _, s := range n.Src {
		walkSeen(s, f, seen)
	}
	f(n)
}

func Prod(s []int) int {
	p := 1
	for _, v := range s {
		p *= v
	}
	return p
}
