package gobackend

// Branch-free float loops of the GO backend. A select whose branch depends
// on the data (relu, abs, max, min, where over random signs) mispredicts
// about half the time; these loops instead turn each comparison into an
// all-ones or all-zero mask (an integer select, which the Go compiler emits
// without a branch) and pick bits with it. Results are bit-identical to the
// comparisons they replace: relu is x > 0 ? x : +0, max is x > y || x is NaN
// ? x : y (as the C renderer's tick_max), abs clears the sign bit (math.Abs).
//
// The loops are plain functions, not closures in the generic selectors: in
// a closure stenciled for a generic shape, go1.26 emits calls to mask32
// and math.Float32bits instead of inlining them (the -m output says
// inlined; the binary has the CALLs), which made relu 5.4 ns per element.

import (
	"github.com/tick-kernel/tick/runtime/ir"
	"math"
)

func mask32(c bool) uint32 {
	var m uint32
	if c {
		m = ^uint32(0)
	}
	return m
}

func mask64(c bool) uint64 {
	var m uint64
	if c {
		m = ^uint64(0)
	}
	return m
}

// selectUnary returns the branch-free loop for op over float32 or float64
// slices, or nil (other types, other ops).
func selectUnary[T num](op ir.Op) func(o, x []T) {
	var z T
	switch any(z).(type) {
	case float32:
		f := selectUnary32(op)
		if f == nil {
			return nil
		}
		return func(o, x []T) { f(any(o).([]float32), any(x).([]float32)) }
	case float64:
		f := selectUnary64(op)
		if f == nil {
			return nil
		}
		return func(o, x []T) { f(any(o).([]float64), any(x).([]float64)) }
	}
	return nil
}

func selectUnary32(op ir.Op) func(o, x []float32) {
	switch op {
	case ir.OpRelu:
		return relu32
	case ir.OpAbs:
		return abs32
	}
	return nil
}

func selectUnary64(op ir.Op) func(o, x []float64) {
	switch op {
	case ir.OpRelu:
		return relu64
	case ir.OpAbs:
		return abs64
	}
	return nil
}

func relu32(o, x []float32) {
	x = x[:len(o)]
	for i, v := range x {
		o[i] = math.Float32frombits(math.Float32bits(v) & mask32(v > 0))
	}
}

func abs32(o, x []float32) {
	x = x[:len(o)]
	for i, v := range x {
		o[i] = math.Float32frombits(math.Float32bits(v) &^ (1 << 31))
	}
}

func relu64(o, x []float64) {
	x = x[:len(o)]
	for i, v := range x {
		o[i] = math.Float64frombits(math.Float64bits(v) & mask64(v > 0))
	}
}

func abs64(o, x []float64) {
	x = x[:len(o)]
	for i, v := range x {
		o[i] = math.Float64frombits(math.Float64bits(v) &^ (1 << 63))
	}
}

// selectBinary returns the branch-free max or min loop over float32 or
// float64 slices, or nil.
func selectBinary[T num](op ir.Op) func(o, x, y []T) {
	if op != ir.OpMax && op != ir.OpMin {
		return nil
	}
	isMax := op == ir.OpMax
	var z T
	switch any(z).(type) {
	case float32:
		return func(o, x, y []T) { maxMin32(any(o).([]float32), any(x).([]float32), any(y).([]float32), isMax) }
	case float64:
		return func(o, x, y []T) { maxMin64(any(o).([]float64), any(x).([]float64), any(y).([]float64), isMax) }
	}
	return nil
}

// maxMin32 is max (isMax) or min of x and y into o.
func maxMin32(o, x, y []float32, isMax bool) {
	x, y = x[:len(o)], y[:len(o)]
	for i, a := range x {
		b := y[i]
		m := mask32(a != a) | mask32(isMax && a > b) | mask32(!isMax && a < b)
		o[i] = math.Float32frombits(math.Float32bits(a)&m | math.Float32bits(b)&^m)
	}
}

// maxMin64 is maxMin32 for float64.
func maxMin64(o, x, y []float64, isMax bool) {
	x, y = x[:len(o)], y[:len(o)]
	for i, a := range x {
		b := y[i]
		m := mask64(a != a) | mask64(isMax && a > b) | mask64(!isMax && a < b)
		o[i] = math.Float64frombits(math.Float64bits(a)&m | math.Float64bits(b)&^m)
	}
}

// selectWhere returns the branch-free where loop over float32 or float64
// slices, or nil.
func selectWhere[T any]() func(o []T, m []bool, x, y []T) {
	var z T
	switch any(z).(type) {
	case float32:
		return func(o []T, c []bool, x, y []T) {
			where32(any(o).([]float32), c, any(x).([]float32), any(y).([]float32))
		}
	case float64:
		return func(o []T, c []bool, x, y []T) {
			where64(any(o).([]float64), c, any(x).([]float64), any(y).([]float64))
		}
	}
	return nil
}

func where32(o []float32, c []bool, x, y []float32) {
	c, x, y = c[:len(o)], x[:len(o)], y[:len(o)]
	for i, k := range c {
		m := mask32(k)
		o[i] = math.Float32frombits(math.Float32bits(x[i])&m | math.Float32bits(y[i])&^m)
	}
}

func where64(o []float64, c []bool, x, y []float64) {
	c, x, y = c[:len(o)], x[:len(o)], y[:len(o)]
	for i, k := range c {
		m := mask64(k)
		o[i] = math.Float64frombits(math.Float64bits(x[i])&m | math.Float64bits(y[i])&^m)
	}
}
