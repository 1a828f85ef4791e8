package cl

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
)

// gemmShapes are matmuls (batch, M, N, K, B transposed) at the edges of
// both kernels' blocks: the blocked kernel's 6 rows and 64 columns (four
// float16s; narrower outputs get fewer) and the tiled kernel's 16×16
// tiles. N = 70 and 130 are whole 64-column blocks plus an edge block, 5,
// 17, 19, 33 and 40 only an edge block (of one, two, two, three and three
// vectors), 64 and 128 whole blocks; M = 1, 5, 7, 13, 37 leave rows past
// M in the last block; K = 300 and 600 run in k blocks of 256 between
// barriers, and M = 100 (17 row blocks in groups of 16) has work items
// past the last row block; transposed B takes the gathering path; batches
// place each output matrix.
var gemmShapes = [][5]int{
	{1, 1, 1, 1, 0}, {1, 7, 5, 3, 0}, {1, 33, 19, 70, 0}, {2, 25, 40, 17, 1}, {1, 100, 70, 130, 1},
	{1, 37, 70, 33, 0}, {3, 9, 130, 20, 0}, {1, 5, 128, 7, 0}, {2, 6, 33, 5, 1}, {1, 1, 17, 3, 0}, {2, 13, 64, 200, 0},
	{1, 100, 70, 600, 0}, {2, 7, 33, 300, 1},
}

// gemmData is irregular float32 data: sums of its products round at
// almost every step, so an output summed in any order but k's differs
// from the reference in its last bits (irtest.Data's quarter steps sum
// exactly in any order).
func gemmData(n, seed int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(float32(math.Sin(float64(i)*0.731+float64(seed)) * 1.37))
	}
	return out
}

// withKernel runs f with $TICK_CL_MATMUL set to kernel ("blocked": the
// register-blocked matmul; "tiled": the local-memory tiles), so pocl
// checks both kernels.
func withKernel(t *testing.T, kernel string, f func()) {
	t.Setenv(envMatmul, kernel)
	f()
}

// TestMatmulKernelsMatchReference runs both matmul kernels at every shape
// of gemmShapes on irregular data, with and without fused multiply-adds:
// with TICK_FMA=0 bit-identical to the reference interpreter (each output
// summed in k order, products and sums rounded separately); fused, bit
// for bit the in-order chain of fused multiply-adds (the CPU and GO
// devices' matmul), and some outputs differ from the reference (the
// contraction is in effect).
func TestMatmulKernelsMatchReference(t *testing.T) {
	d := testDevice(t)
	for _, fused := range []bool{false, true} {
		if fused && !d.f.fma {
			t.Logf("%s has no hardware FMA: the fused kernels are not tested", d.f.name)
			continue
		}
		t.Setenv(envFMA, map[bool]string{false: "0", true: ""}[fused])
		for _, kind := range []string{"blocked", "tiled"} {
			differ := 0
			for _, s := range gemmShapes {
				t.Run(fmt.Sprintf("%s fma=%v %v", kind, fused, s), func(t *testing.T) {
					differ += checkGemm(t, d, kind, fused, s)
				})
			}
			if fused && differ == 0 {
				t.Errorf("%s kernel with fma: every output equals the separately rounded reference: no contraction happened", kind)
			}
		}
	}
}

// checkGemm runs the matmul of shape s with the kernel for kind and
// compares it bit for bit with the reference (fused: the in-order chain of
// fused multiply-adds); it returns the number of outputs that differ from
// the separately rounded reference.
func checkGemm(t *testing.T, d *Device, kind string, fused bool, s [5]int) int {
	k := gemmKernel(s[0], s[1], s[2], s[3], s[4] == 1)
	in := [][]float64{nil, gemmData(k.Bufs[1].Size, 1), gemmData(k.Bufs[2].Size, 2)}
	ref := irtest.Eval(k, in)
	want := ref
	if fused {
		want = fmaChain(k, in)
	}
	var got []float64
	var src string
	withKernel(t, kind, func() { got, src = clRun(t, d, k, in) })
	if want := map[string]string{"blocked": "register-blocked", "tiled": "local memory"}[kind]; !strings.Contains(src, want) {
		t.Fatalf("the %s kernel does not say %q:\n%s", kind, want, src)
	}
	if strings.Contains(src, "fma(") != fused {
		t.Fatalf("fused %v, but the kernel's source says otherwise:\n%s", fused, src)
	}
	differ := 0
	for i := range want {
		if math.Float32bits(float32(got[i])) != math.Float32bits(float32(want[i])) {
			t.Fatalf("out[%d] (row %d, column %d of batch %d) = %v, want %v (fused %v)\nsource:\n%s",
				i, i%(s[1]*s[2])/s[2], i%s[2], i/(s[1]*s[2]), got[i], want[i], fused, src)
		}
		if got[i] != ref[i] {
			differ++
		}
	}
	return differ
}

// fmaChain is the matmul k as the in-order chain s = fma(a_k, b_k, s)
// from s = 0, per output (irtest.FMA32: one rounding per step).
func fmaChain(k *ir.Kernel, in [][]float64) []float64 {
	g := ir.MatchGemm(k)
	out := make([]float64, k.Bufs[0].Size)
	for o := range out {
		bi, i, j := o/(g.M*g.N), o/g.N%g.M, o%g.N
		oa, ob := g.OffA, g.OffB
		for d := len(g.Batch) - 1; d >= 0; d-- { // the batch index's digits, innermost last
			x := bi % g.Batch[d]
			bi /= g.Batch[d]
			oa, ob = oa+x*g.BsA[d], ob+x*g.BsB[d]
		}
		var s float32
		for kk := range g.K {
			a := in[g.BufA][oa+i*g.SAi+kk*g.SAk]
			b := in[g.BufB][ob+j*g.SBj+kk*g.SBk]
			s = irtest.FMA32(float32(a), float32(b), s)
		}
		out[o] = float64(s)
	}
	return out
}

// TestMatmulWritesOnlyItsOutput: the blocked kernel's edge blocks store
// no column past N and no row past M. The output buffer is allocated 64
// floats longer than the matrix, filled with a canary, and the canary must
// survive.
func TestMatmulWritesOnlyItsOutput(t *testing.T) {
	d := testDevice(t)
	t.Setenv(envMatmul, "blocked")
	for _, s := range [][5]int{{1, 37, 70, 33, 0}, {1, 6, 17, 4, 1}} {
		k := gemmKernel(s[0], s[1], s[2], s[3], s[4] == 1)
		p, err := d.Compile(k)
		if err != nil {
			t.Fatal(err)
		}
		n := k.Bufs[0].Size
		const pad = 64
		canary := make([]float64, n+pad)
		for i := range canary {
			canary[i] = -12345
		}
		mems := make([]device.Memory, 3)
		for i, vals := range [][]float64{canary, gemmData(k.Bufs[1].Size, 1), gemmData(k.Bufs[2].Size, 2)} {
			m, err := d.Alloc(ir.Float32, len(vals))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Free(m)
			raw := make([]byte, 4*len(vals))
			irtest.Put(raw, ir.Float32, vals)
			if err := d.CopyIn(m, 0, raw); err != nil {
				t.Fatal(err)
			}
			mems[i] = m
		}
		out := launchRead(t, d, p, mems, 4*(n+pad))
		for i, v := range irtest.Get(out, ir.Float32, n+pad)[n:] {
			if v != -12345 {
				t.Fatalf("%v: the kernel wrote %v at %d past its %d outputs\nsource:\n%s", s, v, i, n, p.Source())
			}
		}
	}
}

// TestMatmulKernelChoice: the device's kind picks the matmul kernel (a CPU
// device such as pocl the register-blocked one, a GPU or accelerator the
// local-memory tiles) and $TICK_CL_MATMUL overrides it both ways; the
// kernel's first line says which. Rendering only: no driver needed.
func TestMatmulKernelChoice(t *testing.T) {
	k := gemmKernel(1, 64, 64, 64, false)
	for _, c := range []struct{ kind, env, want string }{
		{"cpu", "", "register-blocked"},
		{"gpu", "", "local memory"},
		{"accelerator", "", "local memory"},
		{"cpu", "tiled", "local memory"},
		{"gpu", "blocked", "register-blocked"},
		{"cpu", "bogus", "register-blocked"},
		{"gpu", "bogus", "local memory"},
	} {
		t.Setenv(envMatmul, c.env)
		d := &Device{f: found{kind: c.kind}}
		src, err := d.Render(k)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(src, "\n")
		if !strings.HasPrefix(first, "// matmul: ") || !strings.Contains(first, c.want) {
			t.Errorf("%s device, %s=%q: the kernel's first line is %q, want the %s kernel named", c.kind, envMatmul, c.env, first, c.want)
		}
	}
}
