//go:build !amd64

package gobackend

// Without the assembly folds, fold.go's portable loops run.

const haveFold = false

func addLanes32(acc, x *float32, n int)                      { panic("unreachable") }
func maxLanes32(acc, x *float32, n int)                      { panic("unreachable") }
func minLanes32(acc, x *float32, n int)                      { panic("unreachable") }
func sumRows64(acc, x *float32, rows, stride int)            { panic("unreachable") }
func maxRows64(acc, x *float32, rows, stride int)            { panic("unreachable") }
func minRows64(acc, x *float32, rows, stride int)            { panic("unreachable") }
func sumSeqRows(out, x *float32, rows, r int)                { panic("unreachable") }
func maxAny32(x *float32, n int, out *[8]float32) (nan bool) { panic("unreachable") }
func minAny32(x *float32, n int, out *[8]float32) (nan bool) { panic("unreachable") }
