package gobackend

// gemmMicro4x8 adds A·B into a 4×8 tile of C (gemm_amd64.s, SSE).
//
//go:noescape
func gemmMicro4x8(k int, a, b, c *float32, ldc int)
