package ir

import "fmt"

// DType is the element type of a tensor or buffer.
type DType uint8

// The supported element types. Float32 is the default for creation functions.
const (
	Float32 DType = iota
	Float64
	Int32
	Bool
)

// Size is the number of bytes one element occupies in a buffer.
func (d DType) Size() int {
	switch d {
	case Float64:
		return 8
	case Bool:
		return 1
	default:
		return 4
	}
}

// IsFloat reports whether d is a floating-point type.
func (d DType) IsFloat() bool { return d == Float32 || d == Float64 }

// String returns the numpy-style name: float32, float64, int32, bool.
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Int32:
		return "int32"
	case Bool:
		return "bool"
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}
