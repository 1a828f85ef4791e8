package cpu

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
	"github.com/tick-kernel/tick/runtime/native"
	"github.com/tick-kernel/tick/runtime/native/nativetest"
	"github.com/tick-kernel/tick/runtime/render"
)

// The vector width the generated C compiles to (TICK_VB, chosen by the
// compiler's target macros) is the one the device description reports.
func TestCPUVectorWidthIsInProvenance(t *testing.T) {
	c, err := native.Default()
	if err != nil {
		t.Skip(err)
	}
	src := render.CPrelude() + "void tick_vb(void **bufs, int64_t start, int64_t end) { ((int32_t *)bufs[0])[0] = TICK_VB; }\n"
	lib, err := c.Compile(src, "tick_vb")
	if err != nil {
		t.Fatal(err)
	}
	k, err := lib.Kernel("tick_vb")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Device{}.Alloc(ir.Int32, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer Device{}.Free(m)
	k.Call([]unsafe.Pointer{m.(*Memory).ptr}, 0, 1)
	got := int(*(*int32)(m.(*Memory).ptr))
	isa := c.VectorISA()
	if got != isa.Bytes {
		t.Errorf("kernels use %d-byte vectors, the compiler's ISA says %v", got, isa)
	}
	info, desc := Device{}.Info(), Device{}.Describe()
	if want := fmt.Sprintf("%d-byte vectors", got); !strings.Contains(info.String(), want) || !strings.Contains(desc, want) {
		t.Errorf("the CPU description %q / %q does not say %q", info, desc, want)
	}
}

// A vector tile broadcasting a -0 along its lanes keeps the sign: the max of
// -0s is -0 in the vector path as in the scalar one and the reference.
func TestCPUVectorBroadcastKeepsNegativeZero(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	f := ir.Float32
	k := &ir.Kernel{Name: "R_negzero", Shape: []int{9, 512}, ReduceAxes: []int{0}, Reduce: ir.ReduceMax,
		Expr: irtest.Bin(ir.OpMax, f, irtest.Ld(1, f, []int{1, 0}, 0, nil), irtest.Cst(f, math.Copysign(0, -1))),
		Bufs: []ir.BufferSpec{{DType: f, Size: 512}, {DType: f, Size: 9}}}
	in := [][]float64{nil, make([]float64, 9)}
	for i := range in[1] {
		in[1][i] = math.Copysign(0, -1)
	}
	want := irtest.Eval(k, in)
	got, src := cpuRun(t, k, in)
	if !strings.Contains(src, "va[u] = tick_vf_max(va[u]") {
		t.Fatalf("the max did not take the vector path:\n%s", src)
	}
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("out[%d] = %v (sign bit %v), want %v\n%s", i, got[i], math.Signbit(got[i]), want[i], src)
		}
	}
}

// The renderer's reference tests pass when kernels are built for AVX2 (the
// 32-byte path, as on AMD Zen 3) and for baseline SSE2.
func TestCPURenderOtherVectorWidths(t *testing.T) {
	nativetest.RerunForTargets(t, "^(TestCPURenderMatchesReference|TestCPUVectorWidthIsInProvenance|TestCPUVectorBroadcastKeepsNegativeZero|TestCPUGemm.*|TestCPUReduce.*|TestCPUExp.*)$")
}
