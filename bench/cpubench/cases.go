package main

// The cases: every row of docs/benchmarks.md's CPU table, at the sizes the
// table names. bench/cpu_numpy.py has the same names, sizes and work, and
// times numpy doing the same thing (into preallocated outputs).

import (
	"fmt"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/tensor"
)

type kernelCase struct {
	name, size string
	work       string // "B:bytes" or "F:flops" per call
	heavy      bool   // long calls: fewer samples
	goToo      bool   // timed on the GO device as well
	inputs     func() []*tensor.Tensor
	f          func(in ...*tensor.Tensor) *tensor.Tensor
}

func (c kernelCase) runsOn(dev string) bool { return dev != "GO" || c.goToo }

// budget is the sampling time of one case (measure takes at least
// minSamples samples whatever it is).
func (c kernelCase) budget() time.Duration {
	switch {
	case *quick:
		return 40 * time.Millisecond
	case c.heavy:
		return 200 * time.Millisecond
	}
	return 300 * time.Millisecond
}

// Sizes: 4K, 256K and 16M float32 elements (16 KB in L1, 1 MB in L2, 64 MB
// in memory), as vectors and as square matrices.
func fullSizes() []int {
	if *quick {
		return []int{4 << 10, 256 << 10, 1 << 20}
	}
	return []int{4 << 10, 256 << 10, 16 << 20}
}

func sides() []int {
	if *quick {
		return []int{64, 512, 1024}
	}
	return []int{64, 512, 4096}
}

func matmulSizes() []int {
	if *quick {
		return []int{64, 256, 512}
	}
	return []int{64, 128, 256, 512, 1024, 2048}
}

type unary = func(in ...*tensor.Tensor) *tensor.Tensor

func kernelCases() []kernelCase {
	var cs []kernelCase
	full := []struct {
		name  string
		bytes int // per element: read + written
		f     unary
	}{
		{"relu(a*2+1)", 8, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Mul(2).Add(1).Relu() }},
		{"sum", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Sum() }},
		{"max", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Max() }},
		{"min", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Min() }},
		{"mean", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Mean() }},
	}
	for _, n := range fullSizes() {
		for _, op := range full {
			cs = append(cs, kernelCase{name: op.name, size: sizeName(n), work: fmt.Sprintf("B:%d", op.bytes*n), goToo: true,
				inputs: func() []*tensor.Tensor { return []*tensor.Tensor{tensor.RandnSeed(3, n)} }, f: op.f})
		}
	}
	axis := []struct {
		name  string
		bytes int
		f     unary
	}{
		{"sum axis 1", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Sum(1) }},
		{"max axis 1", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Max(1) }},
		{"min axis 1", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Min(1) }},
		{"mean axis 1", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Mean(1) }},
		{"sum axis 0", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Sum(0) }},
		{"max axis 0", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Max(0) }},
		{"min axis 0", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Min(0) }},
		{"mean axis 0", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Mean(0) }},
		{"softmax axis 1", 8, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Softmax(1) }},
	}
	for _, s := range sides() {
		for _, op := range axis {
			cs = append(cs, kernelCase{name: op.name, size: fmt.Sprintf("%dx%d", s, s), work: fmt.Sprintf("B:%d", op.bytes*s*s), goToo: true,
				inputs: func() []*tensor.Tensor { return []*tensor.Tensor{tensor.RandnSeed(4, s, s)} }, f: op.f})
		}
	}
	return append(cs, matmulCases()...)
}

func matmulCases() []kernelCase {
	mm := func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Matmul(in[1]) }
	var cs []kernelCase
	for _, n := range matmulSizes() {
		cs = append(cs, kernelCase{name: "matmul", size: fmt.Sprint(n), work: fmt.Sprintf("F:%d", 2*n*n*n), heavy: n >= 1024, goToo: true,
			inputs: func() []*tensor.Tensor { return []*tensor.Tensor{tensor.RandSeed(1, n, n), tensor.RandSeed(2, n, n)} }, f: mm})
	}
	// The training step's shapes (an MLP layer of 784 inputs and 256
	// outputs on a batch of 128): forward x·w, and the backward pass's
	// xᵀ·dy (the weight gradient) and dy·wᵀ (the input gradient), read
	// through transposed views as autodiff builds them.
	type shape struct {
		name, size string
		flops      int
		in         func() []*tensor.Tensor
		f          unary
	}
	for _, s := range []shape{
		{"matmul x.w", "128x784.784x256", 2 * 128 * 784 * 256,
			func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.RandSeed(1, 128, 784), tensor.RandSeed(2, 784, 256)}
			}, mm},
		{"matmul xT.dy", "784x128.128x256", 2 * 128 * 784 * 256,
			func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.RandSeed(1, 128, 784), tensor.RandSeed(2, 128, 256)}
			},
			func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].T().Matmul(in[1]) }},
		{"matmul dy.wT", "128x256.256x784", 2 * 128 * 784 * 256,
			func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.RandSeed(1, 128, 256), tensor.RandSeed(2, 784, 256)}
			},
			func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Matmul(in[1].T()) }},
		{"matmul batched", "32x64x64.64x64", 2 * 32 * 64 * 64 * 64,
			func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.RandSeed(1, 32, 64, 64), tensor.RandSeed(2, 32, 64, 64)}
			}, mm},
		{"matmul tall", "16384x64.64x64", 2 * 16384 * 64 * 64,
			func() []*tensor.Tensor {
				return []*tensor.Tensor{tensor.RandSeed(1, 16384, 64), tensor.RandSeed(2, 64, 64)}
			}, mm},
	} {
		cs = append(cs, kernelCase{name: s.name, size: s.size, work: fmt.Sprintf("F:%d", s.flops), goToo: true, inputs: s.in, f: s.f})
	}
	return cs
}

// overheads times the eager path of one small op, JIT replay per kernel,
// and counts a replayed tutorial step's allocations.
func overheads(dev string) {
	impl := "tick " + dev + " " + threads()
	x := tensor.RandSeed(6, 256).Realize()
	wait()
	const ops = 100
	budget := 300 * time.Millisecond
	if *quick {
		budget = 40 * time.Millisecond
	}
	if want("eager op") {
		f := func() {
			for i := 0; i < ops; i++ {
				x.Add(1).Realize()
			}
			wait()
		}
		// Warm up for 100 ms, not two calls: each op's result is new
		// memory until the garbage collector's first cycles hand the
		// dead results' buffers back to the device's pool, so the first
		// ~10,000 ops of a process fault in fresh pages (4,650 page faults
		// in a run of this row that sampled them: 1.3–2.4 µs an op against
		// 0.7–1.1 µs once the pool is full, docs/benchmarks.md "The eager
		// op's warm-up"). The row is the steady state, as numpy's is.
		for t0 := time.Now(); time.Since(t0) < 100*time.Millisecond; {
			f()
		}
		d := measure(budget, f)
		emit("eager op", "256", impl, d.Seconds()*1e6/ops, "us", "-")
	}
	if want("JIT replay") {
		step := tensor.JIT(tenKernels)
		d := measure(budget, func() {
			for i := 0; i < ops; i++ {
				step.Call(x)
			}
			wait()
		})
		emit("JIT replay", "10x256", impl, float64(d.Nanoseconds())/ops/10, "ns/kernel", "-")
	}
	if want("tutorial replay") {
		tut := tensor.JIT(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Mul(2).Add(1).Realize() })
		tut.Call(x)
		tut.Call(x)
		wait()
		allocs := testing.AllocsPerRun(200, func() { tut.Call(x); wait() })
		emit("tutorial replay", "256", impl, allocs, "allocs/call", "-")
	}
}

// tenKernels is ten dependent elementwise kernels (each realized).
func tenKernels(in ...*tensor.Tensor) *tensor.Tensor {
	x := in[0]
	for i := 0; i < 10; i++ {
		x = x.Mul(1.0001).Add(0.5).Realize()
	}
	return x
}

func sizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return fmt.Sprint(n)
}
