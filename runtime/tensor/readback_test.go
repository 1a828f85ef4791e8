package tensor

import (
	"runtime"
	"testing"
)

// TestReadBackOneCopy: Float32s, Float64s, Int32s and Bools of a realized tensor
// allocate the slice they return and nothing of its size besides (one
// copy out of device memory, no intermediate byte slice), on every device.
func TestReadBackOneCopy(t *testing.T) {
	const n = 1 << 20
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			x := Arange(n).Add(1).Realize()
			for _, c := range []struct {
				name string
				t    *Tensor
				size int
				read func(*Tensor) int
			}{
				{"Float32s", x, 4, func(t *Tensor) int { return len(t.Float32s()) }},
				{"Float64s", x.Cast(Float64).Realize(), 8, func(t *Tensor) int { return len(t.Float64s()) }},
				{"Int32s", x.Cast(Int32).Realize(), 4, func(t *Tensor) int { return len(t.Int32s()) }},
				{"Bools", x.Gt(float32(n / 2)).Realize(), 1, func(t *Tensor) int { return len(t.Bools()) }},
			} {
				c.read(c.t) // warm
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				got := c.read(c.t)
				runtime.ReadMemStats(&m1)
				if got != n {
					t.Fatalf("%s: %d elements, want %d", c.name, got, n)
				}
				if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > uint64(c.size*n)+64<<10 {
					t.Errorf("%s of %d elements allocated %d bytes, want one slice of %d", c.name, n, alloc, c.size*n)
				}
			}
		})
	}
}

// TestItemAndAt: Item and At read one element in the tensor's own dtype
// (no conversion kernel is launched) and agree with the full read, for
// every dtype and for a strided view.
func TestItemAndAt(t *testing.T) {
	onDevice(t, "GO")
	x := Arange(12).Reshape(3, 4).Realize()
	want := x.Float64s()
	for _, dt := range []DType{Float32, Float64, Int32} {
		y := x.Cast(dt).Realize()
		ResetCounters()
		for i := range 3 {
			for j := range 4 {
				if got := y.At(i, j); got != want[i*4+j] {
					t.Errorf("%v At(%d, %d) = %v, want %v", dt, i, j, got, want[i*4+j])
				}
			}
		}
		if s := y.Sum().Realize(); s.Item() != 66 {
			t.Errorf("%v Sum().Item() = %v, want 66", dt, s.Item())
		}
		if k := Counters().KernelsLaunched; k != 1 { // the Sum only
			t.Errorf("%v: %d kernels launched by At and Item (and one Sum), want 1", dt, k)
		}
	}
	tr := x.T() // a strided view: At reads through it
	if got := tr.At(3, 2); got != want[2*4+3] {
		t.Errorf("transposed At(3, 2) = %v, want %v", got, want[2*4+3])
	}
	b := x.Gt(5).Realize()
	if b.At(1, 2) != 1 || b.At(0, 0) != 0 {
		t.Errorf("bool At: %v %v, want 1 0", b.At(1, 2), b.At(0, 0))
	}
}

// BenchmarkReadBack: Float32s of 8M elements computed by a kernel, against
// what the same read costs in compiled Go (a new slice and one copy of
// 32 MB), side by side (docs/benchmarks.md, "Read-back").
func BenchmarkReadBack(b *testing.B) {
	const n = 8 << 20
	setDev(b, "CPU")
	y := Arange(n).Mul(2).Realize()
	src := y.Float32s()
	// The process's CPU time per read beside the wall time: on a shared
	// machine the wall time includes waiting for a CPU.
	run := func(b *testing.B, read func()) {
		b.SetBytes(4 * n)
		c0 := processCPU()
		for range b.N {
			read()
		}
		b.ReportMetric(float64(processCPU()-c0)/float64(b.N), "cpu-ns/op")
	}
	b.Run("Float32s", func(b *testing.B) { run(b, func() { _ = y.Float32s() }) })
	b.Run("compiled-copy", func(b *testing.B) {
		run(b, func() {
			out := make([]float32, n)
			copy(out, src)
		})
	})
}
