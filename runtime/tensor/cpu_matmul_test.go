package tensor

import (
	"math"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/backend/cpu"
	"github.com/tick-kernel/tick/runtime/native"
)

// Through Matmul, the CPU device's GEMM agrees with the GO device's on
// values large enough to round (K of several blocks): bit for bit when
// both fuse multiply-adds or both do not (by default, where the compiler's
// target and the machine have FMA, each output is the in-order chain of
// fused multiply-adds on both), else within rounding.
func TestCPUGemmMatmulMatchesGO(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	ci, _ := DescribeDevice("CPU")
	gi, _ := DescribeDevice("GO")
	same := ci.MatmulFMA == gi.MatmulFMA
	for _, sh := range [][3]int{{70, 600, 90}, {64, 64, 64}, {33, 300, 784}} {
		a, b := RandnSeed(7, sh[0], sh[1]), RandnSeed(8, sh[1], sh[2])
		cpu := a.To("CPU").Matmul(b.To("CPU")).Float32s()
		gov := a.To("GO").Matmul(b.To("GO")).Float32s()
		for i := range cpu {
			if same && math.Float32bits(cpu[i]) != math.Float32bits(gov[i]) {
				t.Fatalf("%v [%d] CPU %v GO %v: not the same bits (both fuse: %v)", sh, i, cpu[i], gov[i], ci.MatmulFMA)
			}
			if d := cpu[i] - gov[i]; d > 1e-3 || d < -1e-3 {
				t.Fatalf("%v [%d] CPU %v GO %v", sh, i, cpu[i], gov[i])
			}
		}
	}
}

// The device description, and so the provenance %time and %timeit print,
// says whether matmul fuses multiply-adds: by default where the target has
// FMA, never with TICK_FMA=0.
func TestCPUMatmulFMAIsInProvenance(t *testing.T) {
	c, err := native.Default()
	if err != nil {
		t.Skip(err)
	}
	for _, env := range []string{"", "1", "0"} {
		t.Setenv(cpu.EnvFMA, env)
		info, err := DescribeDevice("CPU")
		if err != nil {
			t.Fatal(err)
		}
		want, text := c.VectorISA().FMA && env != "0", "matmul with fma"
		switch {
		case !c.VectorISA().FMA:
			text = "no fma"
		case env == "0":
			text = "matmul without fma (TICK_FMA=0)"
		}
		if info.MatmulFMA != want || !strings.Contains(info.Backend, text) || !strings.Contains(Device("CPU").Backend(), text) {
			t.Errorf("TICK_FMA=%q: MatmulFMA %v (want %v), backend %q / %q, want it to say %q", env, info.MatmulFMA, want, info.Backend, Device("CPU").Backend(), text)
		}
	}
}

// With TICK_FMA=0, Matmul on the CPU device is bit-identical to the GO
// device (a shape no other test compiles, so the kernel is rendered with
// the variable set).
func TestCPUMatmulNoFMAMatchesGOBitForBit(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	t.Setenv(cpu.EnvFMA, "0")
	a, b := RandnSeed(11, 37, 611), RandnSeed(12, 611, 53)
	cpu := a.To("CPU").Matmul(b.To("CPU")).Float32s()
	gov := a.To("GO").Matmul(b.To("GO")).Float32s()
	for i := range cpu {
		if math.Float32bits(cpu[i]) != math.Float32bits(gov[i]) {
			t.Fatalf("[%d] CPU %v GO %v", i, cpu[i], gov[i])
		}
	}
}
