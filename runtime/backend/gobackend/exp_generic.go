//go:build !amd64 || purego

package gobackend

// Without the assembly exp (another architecture, or -tags purego),
// exp32s calls math.Exp per element.

// haveExp is false: there is no assembly exp.
var haveExp = false

func expLanes32(o, x *float32, n int) { panic("unreachable") }
