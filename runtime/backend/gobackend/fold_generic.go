//go:build !amd64 || purego

package gobackend

// Without the assembly folds (another architecture, or -tags purego),
// fold.go's portable loops run.

// haveFold is false: there are no assembly folds (a variable, as on
// amd64, so a test may set it alike).
var haveFold = false

func addLanes32(acc, x *float32, n int)                      { panic("unreachable") }
func maxLanes32(acc, x *float32, n int)                      { panic("unreachable") }
func minLanes32(acc, x *float32, n int)                      { panic("unreachable") }
func sumRows64(acc, x *float32, rows, stride int)            { panic("unreachable") }
func maxRows64(acc, x *float32, rows, stride int)            { panic("unreachable") }
func minRows64(acc, x *float32, rows, stride int)            { panic("unreachable") }
func maxRows64f(acc, x *float32, rows, stride int) bool      { panic("unreachable") }
func minRows64f(acc, x *float32, rows, stride int) bool      { panic("unreachable") }
func sumBlocks64(out, x *float32, blocks, rows int)          { panic("unreachable") }
func sumSeqRows(out, x *float32, rows, r int)                { panic("unreachable") }
func sumSeqRowsT(out, x *float32, rows, r int)               { panic("unreachable") }
func maxAny32(x *float32, n int, out *[8]float32) (nan bool) { panic("unreachable") }
func maxRowsAny32(out, x *float32, rows, r int) (nan bool)   { panic("unreachable") }
func minRowsAny32(out, x *float32, rows, r int) (nan bool)   { panic("unreachable") }
func minAny32(x *float32, n int, out *[8]float32) (nan bool) { panic("unreachable") }
