// Package render turns kernels (package ir) into source text for the
// backends that compile C dialects: the CPU backend's C (c.go, c_gemm.go)
// and OpenCL C. What the dialects share — scalar types, constants, math
// functions, the expression of every op, the reduce folds and the scalar
// helpers' semantics — is the C-style base in this file (Lang); each
// renderer adds its own loop structure (C: ranges of output elements split
// across host threads, vector registers and packed GEMM; OpenCL: one work
// item per output element, work groups, local memory).
package render

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tick-kernel/tick/runtime/ir"
)

// Lang is a C dialect's spelling of the IR's scalar operations.
type Lang struct {
	// Types are the scalar types of ir.Float32, Float64, Int32 and Bool
	// (bool buffers hold one byte per element, 0 or 1).
	Types [4]string
	// SuffixF says float32 math functions take an "f" suffix (C's expf);
	// otherwise they are overloaded (OpenCL C's exp).
	SuffixF bool
	// IntMin and IntMax name the int32 limits (the identities of max and
	// min folds): INT32_MIN in C, INT_MIN in OpenCL C.
	IntMin, IntMax string
	// ExpF, when set, is the function float32 exp (and sigmoid's exp) is
	// spelled with instead of the dialect's own (C: tick_expf, c_exp.go,
	// which vectorizes; OpenCL keeps its overloaded exp).
	ExpF string
}

// Type is dt's scalar type.
func (l *Lang) Type(dt ir.DType) string { return l.Types[dt] }

// Const is x as a constant of dt.
func (l *Lang) Const(dt ir.DType, x float64) string {
	switch {
	case dt == ir.Bool:
		if x != 0 {
			return "1"
		}
		return "0"
	case dt == ir.Int32:
		return fmt.Sprintf("((%s)%d)", l.Types[ir.Int32], int64(x))
	case math.IsNaN(x):
		return "NAN"
	case math.IsInf(x, 1):
		return "INFINITY"
	case math.IsInf(x, -1):
		return "(-INFINITY)"
	case dt == ir.Float32:
		return "(" + strconv.FormatFloat(float64(float32(x)), 'e', -1, 32) + "f)"
	}
	return "(" + strconv.FormatFloat(x, 'e', -1, 64) + ")"
}

// Math is the math function name at dtype dt (expf or exp).
func (l *Lang) Math(name string, dt ir.DType) string {
	if dt == ir.Float32 && l.SuffixF {
		return name + "f"
	}
	return name
}

// mathName is Math but for a float32 exp where the dialect has its own
// (ExpF).
func (l *Lang) mathName(name string, dt ir.DType) string {
	if name == "exp" && dt == ir.Float32 && l.ExpF != "" {
		return l.ExpF
	}
	return l.Math(name, dt)
}

// Op is the scalar expression of n given its sources' expressions. The
// dialect's prelude defines the helpers it calls: tick_max{f,,i},
// tick_min{f,,i} (a NaN operand propagates, like the GO backend's select)
// and tick_divi (integer division truncating toward zero, 0 for a zero
// divisor, no overflow trap).
func (l *Lang) Op(n *ir.Node, s []string) string {
	dt := n.DType
	switch n.Op {
	case ir.OpNeg:
		return "-" + s[0]
	case ir.OpExp, ir.OpLog, ir.OpSqrt, ir.OpSin, ir.OpCos, ir.OpTanh:
		return fmt.Sprintf("%s(%s)", l.mathName(n.Op.String(), dt), s[0])
	case ir.OpSigmoid:
		return fmt.Sprintf("1 / (1 + %s(-%s))", l.mathName("exp", dt), s[0])
	case ir.OpRelu:
		return fmt.Sprintf("%s > 0 ? %s : 0", s[0], s[0])
	case ir.OpAbs:
		if dt.IsFloat() {
			return fmt.Sprintf("%s(%s)", l.Math("fabs", dt), s[0])
		}
		return fmt.Sprintf("%s < 0 ? -%s : %s", s[0], s[0], s[0])
	case ir.OpNot:
		return "!" + s[0]
	case ir.OpCast:
		if dt == ir.Bool {
			return s[0] + " != 0"
		}
		return fmt.Sprintf("(%s)%s", l.Types[dt], s[0])
	case ir.OpAdd:
		return s[0] + " + " + s[1]
	case ir.OpSub:
		return s[0] + " - " + s[1]
	case ir.OpMul:
		return s[0] + " * " + s[1]
	case ir.OpDiv:
		if dt == ir.Int32 {
			return fmt.Sprintf("tick_divi(%s, %s)", s[0], s[1])
		}
		return s[0] + " / " + s[1]
	case ir.OpPow:
		if dt == ir.Int32 {
			return fmt.Sprintf("(%s)pow((double)%s, (double)%s)", l.Types[ir.Int32], s[0], s[1])
		}
		return fmt.Sprintf("%s(%s, %s)", l.Math("pow", dt), s[0], s[1])
	case ir.OpMax, ir.OpMin:
		return l.MaxMin(n.Op, n.Src[0].DType, s[0], s[1])
	case ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpEq, ir.OpNe:
		return fmt.Sprintf("%s %s %s", s[0], compare[n.Op-ir.OpLt], s[1])
	case ir.OpWhere:
		return fmt.Sprintf("%s ? %s : %s", s[0], s[1], s[2])
	}
	panic(fmt.Sprintf("unsupported op %s", n.Op)) // Compile recovers: "rendering K as C: unsupported op X"
}

var compare = [...]string{"<", "<=", ">", ">=", "==", "!="}

// MaxMin is op (OpMax or OpMin) of a and b of dtype dt, through the
// prelude's helpers.
func (l *Lang) MaxMin(op ir.Op, dt ir.DType, a, b string) string {
	name := "tick_min"
	if op == ir.OpMax {
		name = "tick_max"
	}
	switch dt {
	case ir.Float32:
		name += "f"
	case ir.Int32, ir.Bool:
		name += "i"
	}
	return fmt.Sprintf("%s(%s, %s)", name, a, b)
}

// Identity is the starting value of a fold rop over values of dt.
func (l *Lang) Identity(rop ir.ReduceOp, dt ir.DType) string {
	switch rop {
	case ir.ReduceMax:
		if dt.IsFloat() {
			return "-INFINITY"
		}
		return l.IntMin
	case ir.ReduceMin:
		if dt.IsFloat() {
			return "INFINITY"
		}
		return l.IntMax
	}
	return "0"
}

// Fold is one step of the fold rop: the accumulator acc combined with v.
func (l *Lang) Fold(rop ir.ReduceOp, dt ir.DType, acc, v string) string {
	switch rop {
	case ir.ReduceMax:
		return l.MaxMin(ir.OpMax, dt, acc, v)
	case ir.ReduceMin:
		return l.MaxMin(ir.OpMin, dt, acc, v)
	}
	return acc + " + " + v
}

// Store is v converted to an output element of dt (a bool is stored as 0
// or 1).
func (l *Lang) Store(dt ir.DType, v string) string {
	if dt == ir.Bool {
		return fmt.Sprintf("(%s)((%s) != 0)", l.Types[ir.Bool], v)
	}
	return fmt.Sprintf("(%s)(%s)", l.Types[dt], v)
}

// ScalarHelpers is the C source of the helpers Op calls, for a dialect
// whose types are l's: every dialect's prelude includes it so the helpers
// have one definition. (Written with the dialect's own type names; the
// static inline functions compile as C99 and OpenCL C.)
func (l *Lang) ScalarHelpers() string {
	f, d, i := l.Types[ir.Float32], l.Types[ir.Float64], l.Types[ir.Int32]
	u := "u" + i
	if i == "int32_t" {
		u = "uint32_t"
	}
	return fmt.Sprintf(`static inline %[1]s tick_maxf(%[1]s a, %[1]s b) { return (a > b || a != a) ? a : b; }
static inline %[1]s tick_minf(%[1]s a, %[1]s b) { return (a < b || a != a) ? a : b; }
static inline %[2]s tick_max(%[2]s a, %[2]s b) { return (a > b || a != a) ? a : b; }
static inline %[2]s tick_min(%[2]s a, %[2]s b) { return (a < b || a != a) ? a : b; }
static inline %[3]s tick_maxi(%[3]s a, %[3]s b) { return a > b ? a : b; }
static inline %[3]s tick_mini(%[3]s a, %[3]s b) { return a < b ? a : b; }
static inline %[3]s tick_divi(%[3]s a, %[3]s b) {
	if (b == 0) return 0;
	if (b == -1) return (%[3]s)(0u - (%[4]s)a);
	return a / b;
}
`, f, d, i, u)
}
