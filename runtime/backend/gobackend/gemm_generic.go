//go:build !amd64 || purego

package gobackend

import "unsafe"

// gemmMicro4x8 adds A·B into a 4×8 tile of C: A packed k-major (a[4*p+r]),
// B packed k-major (b[8*p+j]); each output adds its products to C in k
// order. The portable version of gemm_amd64.s. (The float32 conversions
// keep compilers that fuse x*y + z, as Go's does on arm64, from fusing.)
func gemmMicro4x8(k int, a, b, c *float32, ldc int) {
	as := unsafe.Slice(a, 4*k)
	bs := unsafe.Slice(b, 8*k)
	cs := unsafe.Slice(c, 3*ldc+8)
	var acc [32]float32
	for r := 0; r < 4; r++ {
		for j := 0; j < 8; j++ {
			acc[8*r+j] = cs[r*ldc+j]
		}
	}
	for p := 0; p < k; p++ {
		for r := 0; r < 4; r++ {
			x := as[4*p+r]
			for j := 0; j < 8; j++ {
				acc[8*r+j] += float32(x * bs[8*p+j])
			}
		}
	}
	for r := 0; r < 4; r++ {
		for j := 0; j < 8; j++ {
			cs[r*ldc+j] = acc[8*r+j]
		}
	}
}

// fmaKernels: none in portable Go (its float32 arithmetic has no fused
// multiply-add the compiler is bound to emit).
func fmaKernels() []microKernel { return nil }

const exactName = "portable 4×8 multiply, add"

// packT8, packT4: no transposes in portable Go (packStrips' scalar loop
// runs).
const haveTranspose = false

func packT8(n int, dst *float32, dw int, src *float32, ss int) {}
func packT4(n int, dst *float32, dw int, src *float32, ss int) {}
