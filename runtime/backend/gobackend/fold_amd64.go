//go:build !purego

package gobackend

import "golang.org/x/sys/cpu"

//go:generate go run gen_fold.go

// The AVX2 lane folds (fold_amd64.s); fold.go calls them when haveFold.

//go:noescape
func addLanes32(acc, x *float32, n int)

//go:noescape
func maxLanes32(acc, x *float32, n int)

//go:noescape
func minLanes32(acc, x *float32, n int)

//go:noescape
func sumRows64(acc, x *float32, rows, stride int)

//go:noescape
func maxRows64(acc, x *float32, rows, stride int)

//go:noescape
func minRows64(acc, x *float32, rows, stride int)

//go:noescape
func maxRows64f(acc, x *float32, rows, stride int) (nan bool)

//go:noescape
func minRows64f(acc, x *float32, rows, stride int) (nan bool)

//go:noescape
func sumBlocks64(out, x *float32, blocks, rows int)

//go:noescape
func sumSeqRows(out, x *float32, rows, r int)

//go:noescape
func sumSeqRowsT(out, x *float32, rows, r int)

//go:noescape
func maxRowsAny32(out, x *float32, rows, r int) (nan bool)

//go:noescape
func minRowsAny32(out, x *float32, rows, r int) (nan bool)

//go:noescape
func maxAny32(x *float32, n int, out *[8]float32) (nan bool)

//go:noescape
func minAny32(x *float32, n int, out *[8]float32) (nan bool)

// haveFold reports whether the assembly folds may run (AVX2).
var haveFold = cpu.X86.HasAVX2
