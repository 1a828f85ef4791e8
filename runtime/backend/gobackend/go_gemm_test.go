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
// blocks.
var goGemmShapes = []struct {
	batch, M, N, K int
	aT, bT         bool
}{
	{1, 1, 1, 1, false, false}, {1, 7, 5, 3, false, false}, {1, 13, 33, 300, false, false}, {2, 25, 40, 17, false, true},
	{1, 100, 70, 520, false, true}, {1, 3, 1100, 9, false, false}, {3, 12, 64, 64, false, false}, {1, 29, 50, 33, true, false},
	{1, 64, 64, 64, false, false}, {1, 37, 300, 200, true, false}, {1, 130, 200, 300, false, false},
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
