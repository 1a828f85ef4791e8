// Interpreted in every session (see stdgo.go): the constraints of
// golang.org/x/exp/constraints. A compiled package cannot carry them (an
// interface with a type set is not a type reflect can hold, so the
// plugin of the module exported none); the session binds the import path
// to an empty package (Packages) and pass std-generics points
// constraints.Float at ᐩconstraintsᐩFloat. Each union is written out:
// the interpreter does not check a type against an interface embedded in
// a union.

package stdgo

type ᐩconstraintsᐩSigned interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

type ᐩconstraintsᐩUnsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

type ᐩconstraintsᐩInteger interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

type ᐩconstraintsᐩFloat interface {
	~float32 | ~float64
}

type ᐩconstraintsᐩComplex interface {
	~complex64 | ~complex128
}

type ᐩconstraintsᐩOrdered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}
