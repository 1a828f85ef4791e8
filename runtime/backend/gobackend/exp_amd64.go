//go:build !purego

package gobackend

import "golang.org/x/sys/cpu"

//go:generate go run gen_exp.go

// expLanes32 sets o[i] = e^x[i] for i < n (a multiple of 4): exp_amd64.s,
// see go_exp.go.
//
//go:noescape
func expLanes32(o, x *float32, n int)

// haveExp reports whether expLanes32 may run (AVX2 and FMA).
var haveExp = cpu.X86.HasAVX2 && cpu.X86.HasFMA
