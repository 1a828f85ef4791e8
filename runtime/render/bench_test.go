package render

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/ir/irtest"
	"github.com/tick-kernel/tick/runtime/native"
)

// BenchmarkCPUCompileCold compiles a typical elementwise kernel (a*c+1 on
// 256 float32, c new each time so neither cache hits) with gcc, alternating
// the source as rendered ("rendered_ms") with the same source plus the
// immintrin.h stream prelude every kernel used to include ("immintrin_ms";
// the streaming loop kernels of short rows also carried is not added back).
// "rendered_cpu_ms" is the compiler's own CPU time (user + system of the
// waited-for child processes) for the rendered source: on a loaded machine
// the wall time is mostly waiting for a core, the CPU time is not.
func BenchmarkCPUCompileCold(b *testing.B) {
	c, err := native.Default()
	if err != nil {
		b.Skip(err)
	}
	cc, err := native.NewCompiler(native.Options{CacheDir: b.TempDir(), Flags: c.Flags()})
	if err != nil {
		b.Fatal(err)
	}
	base := float64(time.Now().UnixNano() % 1e6)
	var plain, withIntrin, plainCPU time.Duration
	for i := 0; i < b.N; i++ {
		a := irtest.Ld(1, ir.Float32, []int{1}, 0, nil)
		k := &ir.Kernel{Name: "E_256", Shape: []int{256},
			Expr: irtest.Bin(ir.OpAdd, ir.Float32, irtest.Bin(ir.OpMul, ir.Float32, a, irtest.Cst(ir.Float32, base+float64(i))), irtest.Cst(ir.Float32, 1)),
			Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: 256}, {DType: ir.Float32, Size: 256}}}
		sym := Symbol(k)
		src := C{FMA: true}.Render(k, sym)
		c0, t0 := childrenCPU(), time.Now()
		if _, err := cc.Compile(src, sym); err != nil {
			b.Fatal(err)
		}
		plain += time.Since(t0)
		plainCPU += childrenCPU() - c0
		t0 = time.Now()
		if _, err := cc.Compile(strings.Replace(src, cPrelude, cPrelude+cStreamPrelude, 1), sym); err != nil {
			b.Fatal(err)
		}
		withIntrin += time.Since(t0)
	}
	b.ReportMetric(plain.Seconds()*1e3/float64(b.N), "rendered_ms")
	b.ReportMetric(plainCPU.Seconds()*1e3/float64(b.N), "rendered_cpu_ms")
	b.ReportMetric(withIntrin.Seconds()*1e3/float64(b.N), "immintrin_ms")
	b.ReportMetric(withIntrin.Seconds()/plain.Seconds(), "ratio")
}
