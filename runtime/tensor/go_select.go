package tensor

// Branch-free float loops of the GO backend. A select whose branch depends
// on the data (relu, abs, max, min, where over random signs) mispredicts
// about half the time; these loops instead turn each comparison into an
// all-ones or all-zero mask (an integer select, which the Go compiler emits
// without a branch) and pick bits with it. Results are bit-identical to the
// comparisons they replace: relu is x > 0 ? x : +0, max is x > y || x is NaN
// ? x : y (as the C renderer's tick_max), abs clears the sign bit (math.Abs).

import "math"

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
func selectUnary[T num](op Op) func(o, x []T) {
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

func selectUnary32(op Op) func(o, x []float32) {
	switch op {
	case OpRelu:
		return func(o, x []float32) {
			x = x[:len(o)]
			for i, v := range x {
				o[i] = math.Float32frombits(math.Float32bits(v) & mask32(v > 0))
			}
		}
	case OpAbs:
		return func(o, x []float32) {
			x = x[:len(o)]
			for i, v := range x {
				o[i] = math.Float32frombits(math.Float32bits(v) &^ (1 << 31))
			}
		}
	}
	return nil
}

func selectUnary64(op Op) func(o, x []float64) {
	switch op {
	case OpRelu:
		return func(o, x []float64) {
			x = x[:len(o)]
			for i, v := range x {
				o[i] = math.Float64frombits(math.Float64bits(v) & mask64(v > 0))
			}
		}
	case OpAbs:
		return func(o, x []float64) {
			x = x[:len(o)]
			for i, v := range x {
				o[i] = math.Float64frombits(math.Float64bits(v) &^ (1 << 63))
			}
		}
	}
	return nil
}

// selectBinary returns the branch-free max or min loop over float32 or
// float64 slices, or nil.
func selectBinary[T num](op Op) func(o, x, y []T) {
	if op != OpMax && op != OpMin {
		return nil
	}
	max := op == OpMax
	var z T
	switch any(z).(type) {
	case float32:
		return func(o, x, y []T) {
			of, xf, yf := any(o).([]float32), any(x).([]float32)[:len(o)], any(y).([]float32)[:len(o)]
			for i, a := range xf {
				b := yf[i]
				m := mask32(a != a) | mask32(max && a > b) | mask32(!max && a < b)
				of[i] = math.Float32frombits(math.Float32bits(a)&m | math.Float32bits(b)&^m)
			}
		}
	case float64:
		return func(o, x, y []T) {
			of, xf, yf := any(o).([]float64), any(x).([]float64)[:len(o)], any(y).([]float64)[:len(o)]
			for i, a := range xf {
				b := yf[i]
				m := mask64(a != a) | mask64(max && a > b) | mask64(!max && a < b)
				of[i] = math.Float64frombits(math.Float64bits(a)&m | math.Float64bits(b)&^m)
			}
		}
	}
	return nil
}

// selectWhere returns the branch-free where loop over float32 or float64
// slices, or nil.
func selectWhere[T any]() func(o []T, m []bool, x, y []T) {
	var z T
	switch any(z).(type) {
	case float32:
		return func(o []T, c []bool, x, y []T) {
			of, xf, yf := any(o).([]float32), any(x).([]float32)[:len(o)], any(y).([]float32)[:len(o)]
			c = c[:len(o)]
			for i, k := range c {
				m := mask32(k)
				of[i] = math.Float32frombits(math.Float32bits(xf[i])&m | math.Float32bits(yf[i])&^m)
			}
		}
	case float64:
		return func(o []T, c []bool, x, y []T) {
			of, xf, yf := any(o).([]float64), any(x).([]float64)[:len(o)], any(y).([]float64)[:len(o)]
			c = c[:len(o)]
			for i, k := range c {
				m := mask64(k)
				of[i] = math.Float64frombits(math.Float64bits(xf[i])&m | math.Float64bits(yf[i])&^m)
			}
		}
	}
	return nil
}
