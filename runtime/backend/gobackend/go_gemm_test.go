package gobackend

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
)

// goGemmKernel is the contraction Matmul schedules for batch × [M,K]·[K,N],
// A read transposed when aT (stored [K,M]), B when bT (stored [N,K]).
func goGemmKernel(batch, M, N, K int, aT, bT bool) *ir.Kernel {
	f := ir.Float32
	aS, bS := []int{M * K, K, 0, 1}, []int{K * N, 0, 1, N}
	if aT {
		aS = []int{M * K, 1, 0, M}
	}
	if bT {
		bS = []int{K * N, 0, K, 1}
	}
	return &ir.Kernel{Name: fmt.Sprintf("R_gemm_%d_%d_%d_%d_%v_%v", batch, M, N, K, aT, bT), Shape: []int{batch, M, N, K}, ReduceAxes: []int{3}, Reduce: ir.ReduceSum,
		Expr: irtest.Bin(ir.OpMul, f, irtest.Ld(1, f, aS, 0, nil), irtest.Ld(2, f, bS, 0, nil)),
		Bufs: []ir.BufferSpec{{DType: f, Size: batch * M * N}, {DType: f, Size: batch * M * K}, {DType: f, Size: batch * K * N}}}
}

// goGemmShapes are tiles short of every register tile in rows and
// columns, B read in place and packed, transposed operands, batches and K
// blocks; rows made of every row kernel (12, 4, 1 and 6, 4, 1) and columns
// with a half-width strip (48, 80, 272, 784 on AVX-512), in place and
// packed, with and without an edge after it; tall ones (rows outer).
var goGemmShapes = []struct {
	batch, M, N, K int
	aT, bT         bool
}{
	{1, 1, 1, 1, false, false}, {1, 7, 5, 3, false, false}, {1, 13, 33, 300, false, false}, {2, 25, 40, 17, false, true},
	{1, 100, 70, 520, false, true}, {1, 3, 1100, 9, false, false}, {3, 12, 64, 64, false, false}, {1, 29, 50, 33, true, false},
	{1, 64, 64, 64, false, false}, {1, 37, 300, 200, true, false}, {1, 130, 200, 300, false, false},
	{1, 21, 48, 70, false, false}, {2, 11, 56, 33, true, false}, {1, 19, 80, 129, false, true}, {1, 30, 272, 300, false, false},
	{1, 17, 784, 5, false, false}, {1, 9, 25, 600, false, false}, {1, 200, 20, 30, false, false}, {2, 90, 24, 40, true, false},
}

// The GO device compiles a contraction to the GEMM with this machine's
// widest fused micro-kernel (the CPU device's arithmetic) unless
// TICK_FMA=0 (or the machine has no FMA): then the separately rounded one.
// Every output is the in-order chain, bit for bit (checkGoGemm).
func TestGoGemmIsTheInOrderChain(t *testing.T) {
	for _, fma := range []string{"", "0"} {
		t.Run("TICK_FMA="+fma, func(t *testing.T) {
			t.Setenv(envFMA, fma)
			fused := len(fmaKernels()) > 0 && fma != "0"
			for _, sh := range goGemmShapes {
				k := goGemmKernel(sh.batch, sh.M, sh.N, sh.K, sh.aT, sh.bT)
				t.Run(k.Name, func(t *testing.T) {
					p, err := goDevice{}.Compile(k)
					if err != nil {
						t.Fatal(err)
					}
					if !strings.Contains(p.Source(), "tiled float32 GEMM") || fused != strings.Contains(p.Source(), "fused") {
						t.Fatalf("not the GEMM with the expected micro-kernel (fused: %v):\n%s", fused, p.Source())
					}
					checkGoGemm(t, k, p.(*goProgram), fused)
				})
			}
		})
	}
}

// Every micro-kernel this machine can run, not only the one it picks (on
// an AVX-512 machine the AVX2 kernel is what a machine without AVX-512
// runs), gives the in-order chain bit for bit.
func TestGoGemmEveryMicroKernel(t *testing.T) {
	for _, mk := range append(fmaKernels(), exactKernel) {
		t.Run(mk.name, func(t *testing.T) {
			for _, sh := range goGemmShapes {
				k := goGemmKernel(sh.batch, sh.M, sh.N, sh.K, sh.aT, sh.bT)
				g := &gemmPlan{Gemm: ir.MatchGemm(k), mk: mk}
				checkGoGemm(t, k, &goProgram{k: k, run: g.run, dims: host.Dims(k)}, mk.name != exactName)
			}
		})
	}
}

// checkGoGemm runs p in launch ranges that start and end inside rows and
// checks every output against the in-order chain over k of fused
// multiply-adds (fused) or of separately rounded products and sums.
func checkGoGemm(t *testing.T, k *ir.Kernel, p *goProgram, fused bool) {
	t.Helper()
	in, mems := goGemmData(k)
	n := k.OutSize()
	for i := range n { // outputs start from +0, not from what was there
		mems[0].(*goMemory).typed.([]float32)[i] = float32(math.NaN())
	}
	for _, c := range [][2]int{{0, n / 3}, {n / 3, n/3 + n/5}, {n/3 + n/5, n}} {
		p.Run(mems, c[0], c[1])
	}
	got := mems[0].(*goMemory).typed.([]float32)
	g := ir.MatchGemm(k)
	for o := range got {
		bi, i, j := o/(g.M*g.N), o/g.N%g.M, o%g.N
		var s float32
		for kk := 0; kk < g.K; kk++ {
			a := float32(in[g.BufA][g.OffA+bi*g.BsA[0]+i*g.SAi+kk*g.SAk])
			b := float32(in[g.BufB][g.OffB+bi*g.BsB[0]+j*g.SBj+kk*g.SBk])
			if fused {
				s = irtest.FMA32(a, b, s)
			} else {
				s += a * b
			}
		}
		if math.Float32bits(got[o]) != math.Float32bits(s) {
			t.Fatalf("%s: out[%d] = %v, the in-order chain (fused: %v) gives %v\n%s", k.Name, o, got[o], fused, s, p.Source())
		}
	}
}

// goGemmData fills k's input buffers with float32 values whose products
// and sums round, and returns them (as float64) and the device memory.
func goGemmData(k *ir.Kernel) ([][]float64, []device.Memory) {
	x := uint32(12345)
	return goFloat32Mems(k, func(int) float32 {
		x = x*1664525 + 1013904223
		return float32(int32(x>>8)-1<<23) / (1 << 23)
	})
}

// goFloat32Mems allocates k's float32 buffers on the GO device, fills the
// inputs with value(j) for element j, and returns the inputs as float64
// (for irtest.Eval) and the memory.
func goFloat32Mems(k *ir.Kernel, value func(j int) float32) ([][]float64, []device.Memory) {
	in := make([][]float64, len(k.Bufs))
	mems := make([]device.Memory, len(k.Bufs))
	for i, b := range k.Bufs {
		m, _ := goDevice{}.Alloc(b.DType, b.Size)
		mems[i] = m
		if i == 0 {
			continue
		}
		in[i] = make([]float64, b.Size)
		v := m.(*goMemory).typed.([]float32)
		for j := range v {
			v[j] = value(j)
			in[i][j] = float64(v[j])
		}
	}
	return in, mems
}

// packStrips packs every line of every strip, transposed or copied,
// whatever the strides (negative: a flipped view), zero-padding the last
// strip: against packing one value at a time.
func TestPackStrips(t *testing.T) {
	for _, w := range []int{4, 6, 8, 12, 16, 32} {
		for _, n := range []int{1, 3, 5, 7, 8, 9, 12, 13, 31, 33, 40} {
			for _, kc := range []int{1, 7, 8, 9, 16, 30} {
				for _, st := range [][2]int{{1, 50}, {50, 1}, {1, 41}, {41, 1}, {-1, 41}, {41, -1}, {-45, 1}, {2, 90}, {1, -50}} {
					ls, ks := st[0], st[1]
					sign := func(x int) int { return x / max(x, -x) }
					if ls == 1 || ls == -1 {
						ks = max(ks, -ks, n) * sign(ks) // lines side by side: steps a row apart
					} else {
						ls = max(ls, -ls, kc) * sign(ls)
					}
					size := 1 + max(ls, -ls)*(n-1) + max(ks, -ks)*(kc-1)
					src := make([]float32, size+4)
					for i := range src {
						src[i] = float32(i + 1)
					}
					first := 2
					if ls < 0 {
						first += -ls * (n - 1)
					}
					if ks < 0 {
						first += -ks * (kc - 1)
					}
					strips := (n + w - 1) / w
					dst := make([]float32, strips*w*kc)
					for i := range dst {
						dst[i] = -1
					}
					packStrips(dst, src, w, n, kc, first, ls, ks)
					for s := 0; s < strips; s++ {
						for k := 0; k < kc; k++ {
							for l := 0; l < w; l++ {
								want := float32(0)
								if line := s*w + l; line < n {
									want = src[first+line*ls+k*ks]
								}
								if got := dst[s*w*kc+k*w+l]; got != want {
									t.Fatalf("w %d, %d lines, kc %d, strides %d, %d: strip %d, step %d, line %d = %v, want %v", w, n, kc, ls, ks, s, k, l, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
}
