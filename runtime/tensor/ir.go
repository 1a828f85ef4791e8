package tensor

// The kernel IR lives in package ir (so backends need not import this
// package); these aliases keep tensor.Kernel, tensor.Float32 and the rest
// the names cells and existing code use.

import "github.com/tick-kernel/tick/runtime/ir"

// IR types, aliases of package ir's.
type (
	DType      = ir.DType
	Op         = ir.Op
	ReduceOp   = ir.ReduceOp
	View       = ir.View
	Node       = ir.Node
	BufferSpec = ir.BufferSpec
	Kernel     = ir.Kernel
)

// Element types.
const (
	Float32 = ir.Float32
	Float64 = ir.Float64
	Int32   = ir.Int32
	Bool    = ir.Bool
)

// Expression operations (see ir.Op).
const (
	OpLoad    = ir.OpLoad
	OpConst   = ir.OpConst
	OpNeg     = ir.OpNeg
	OpExp     = ir.OpExp
	OpLog     = ir.OpLog
	OpSqrt    = ir.OpSqrt
	OpSin     = ir.OpSin
	OpCos     = ir.OpCos
	OpTanh    = ir.OpTanh
	OpSigmoid = ir.OpSigmoid
	OpRelu    = ir.OpRelu
	OpAbs     = ir.OpAbs
	OpNot     = ir.OpNot
	OpCast    = ir.OpCast
	OpAdd     = ir.OpAdd
	OpSub     = ir.OpSub
	OpMul     = ir.OpMul
	OpDiv     = ir.OpDiv
	OpPow     = ir.OpPow
	OpMax     = ir.OpMax
	OpMin     = ir.OpMin
	OpLt      = ir.OpLt
	OpLe      = ir.OpLe
	OpGt      = ir.OpGt
	OpGe      = ir.OpGe
	OpEq      = ir.OpEq
	OpNe      = ir.OpNe
	OpWhere   = ir.OpWhere
)

// Reduce operations (see ir.ReduceOp).
const (
	ReduceNone = ir.ReduceNone
	ReduceSum  = ir.ReduceSum
	ReduceMax  = ir.ReduceMax
	ReduceMin  = ir.ReduceMin
)

func prod(s []int) int                { return ir.Prod(s) }
func walk(n *Node, f func(*Node))     { ir.Walk(n, f) }
func contiguousView(shape []int) View { return ir.ContiguousView(shape) }
func denseView(v View) bool           { return ir.DenseView(v) }
