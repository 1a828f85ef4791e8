package tensor

import (
	"testing"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/native"
)

// BenchmarkSmallReduce says where the time of a small full reduction goes
// on the CPU device (docs/benchmarks.md, "Small reductions"): the fixed
// cost of a JIT replay and its Synchronize (a one-element kernel), the
// replayed Sum and Max of 4,096 float32 as scheduled now, their kernels
// called directly on the calling thread (no replay, no queue, no
// synchronization), and the single sequential kernel a sum of 4,096 was
// before lane partials (one accumulator: a chain of 4,096 dependent adds).
//
//	go test -run '^$' -bench SmallReduce -count 5 ./runtime/tensor/
func BenchmarkSmallReduce(b *testing.B) {
	if err := native.Available(); err != nil {
		b.Skip(err)
	}
	prev := DefaultDevice()
	if err := SetDefaultDevice("CPU"); err != nil {
		b.Skip(err)
	}
	defer func() { _ = SetDefaultDevice(prev) }()
	one := RandSeed(1, 1).Realize()
	x := RandnSeed(2, 4096).Realize()
	_ = SynchronizeAll()
	replay := func(f func(*Tensor) *Tensor, in *Tensor) func() {
		j := JIT(func(in ...*Tensor) *Tensor { return f(in[0]).Realize() })
		j.Call(in)
		j.Call(in)
		_ = SynchronizeAll()
		return func() { j.Call(in); _ = SynchronizeAll() }
	}
	sum := func(t *Tensor) *Tensor { return t.Sum() }
	mx := func(t *Tensor) *Tensor { return t.Max() }
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"replay+sync/1-element kernel", replay(func(t *Tensor) *Tensor { return t.Add(1) }, one)},
		{"replay+sync/sum 4096", replay(sum, x)},
		{"replay+sync/max 4096", replay(mx, x)},
		{"kernels alone/sum 4096", kernelsAlone(b, scheduleOf(x.Sum()))},
		{"kernels alone/max 4096", kernelsAlone(b, scheduleOf(x.Max()))},
		{"kernels alone/sum 4096 sequential (before)", kernelsAlone(b, []*Kernel{{Name: "R_r4096", Shape: []int{4096}, ReduceAxes: []int{0},
			Reduce: ir.ReduceSum, Expr: &Node{Op: ir.OpLoad, DType: Float32, Buf: 1, View: View{Shape: []int{4096}, Strides: []int{1}}},
			Bufs: []BufferSpec{{DType: Float32, Size: 1}, {DType: Float32, Size: 4096}}}})},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.f()
			}
		})
	}
}

// kernelsAlone compiles ks on the CPU device and returns a call of them in
// order on the calling goroutine, each over its whole range, on buffers of
// zeros of the kernels' sizes.
func kernelsAlone(b *testing.B, ks []*Kernel) func() {
	d := Device("CPU").dev
	var progs []host.Program
	var mems [][]device.Memory
	for _, k := range ks {
		p, err := d.Compile(k)
		if err != nil {
			b.Fatal(err)
		}
		var ms []device.Memory
		for _, s := range k.Bufs {
			m, err := d.Alloc(s.DType, s.Size)
			if err != nil {
				b.Fatal(err)
			}
			if err := d.CopyIn(m, 0, make([]byte, s.Size*s.DType.Size())); err != nil {
				b.Fatal(err)
			}
			ms = append(ms, m)
		}
		progs, mems = append(progs, p.(host.Program)), append(mems, ms)
	}
	return func() {
		for i, p := range progs {
			p.Run(mems[i], 0, ks[i].OutSize())
		}
	}
}
