// Command cpubench measures tick's CPU and GO devices, gonum, and this
// machine's peak FLOP/s and memory bandwidth, printing one tab-separated line
// per measurement (case, size, implementation, value, unit). bench/cpu.sh
// runs it interleaved with bench/cpu_numpy.py and bench/cpu_report.py turns
// the lines into the table in docs/benchmarks.md.
//
// Kernels are timed through a warmed-up JIT (tick's replay: buffers are
// reused, so the time is the kernels'); "eager op" times the eager path of
// one small op, allocation and scheduling included.
//
// Usage: go run ./bench/cpubench [-quick]
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/tick-kernel/tick/runtime/tensor"
)

var (
	quick       = flag.Bool("quick", false, "smaller sizes and fewer trials (a smoke run)")
	matmulLabel = flag.String("matmul-only", "", "only the CPU device's matmul rows, labelled with this name (bench/cpu.sh runs it with TICK_FMA=0)")
	cases       = flag.String("cases", "", "comma-separated case names to run (e.g. \"relu(a*2+1),max\"); empty: all")
)

// want reports whether the case named cs is selected by -cases.
func want(cs string) bool {
	if *cases == "" {
		return true
	}
	for _, c := range strings.Split(*cases, ",") {
		if strings.TrimSpace(c) == cs {
			return true
		}
	}
	return false
}

func emit(cs, size, impl string, v float64, unit string) {
	fmt.Printf("%s\t%s\t%s\t%.4g\t%s\n", cs, size, impl, v, unit)
}

// best returns the fastest single run of f among the runs that fit in
// trials × 50 ms (at least three): the run least disturbed by other work,
// as the machine's limits are measured (peak.go) and as cpu_numpy.py times
// numpy. A loaded machine slows averages much more than minimums, so
// averages would compare badly with the limits.
func best(trials int, f func()) time.Duration {
	f() // warm-up: compiles kernels, touches memory
	b := time.Duration(1 << 62)
	budget := time.Duration(trials) * 50 * time.Millisecond
	t0 := time.Now()
	for n := 0; n < 3 || time.Since(t0) < budget; n++ {
		s := time.Now()
		f()
		b = min(b, time.Since(s))
	}
	return b
}

func wait() { _ = tensor.SynchronizeAll() }

// replayed returns a call of f through a warmed-up JIT: the kernels run on
// buffers the JIT reuses, so a run measures the kernels, not allocation.
func replayed(f func(in ...*tensor.Tensor) *tensor.Tensor, in ...*tensor.Tensor) func() {
	j := tensor.JIT(func(in ...*tensor.Tensor) *tensor.Tensor { return f(in...).Realize() })
	j.Call(in...)
	j.Call(in...)
	wait()
	return func() { j.Call(in...); wait() }
}

func main() {
	flag.Parse()
	trials := 5
	if *quick {
		trials = 2
	}
	mm := []int{256, 512, 1024, 2048}
	big, side := 16<<20, 4096
	if *quick {
		mm, big, side = []int{256, 512}, 1<<20, 1024
	}
	if *matmulLabel != "" {
		must(tensor.SetDefaultDevice("CPU"))
		for _, n := range mm {
			a, b := tensor.RandSeed(1, n, n).Realize(), tensor.RandSeed(2, n, n).Realize()
			d := best(min(trials, 3), replayed(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Matmul(in[1]) }, a, b))
			emit("matmul f32", fmt.Sprint(n), *matmulLabel, 2*float64(n*n*n)/d.Seconds()/1e9, "GFLOP/s")
		}
		return
	}
	// The limits are measured before and after each group of cases: the
	// report keeps each round's best sample, so a busy moment at one sample
	// does not set the limit.
	limitsNow()
	info, _ := tensor.DescribeDevice("CPU")
	fmt.Printf("#device\t%s\n", info)
	devs := []string{"CPU", "GO"}
	if want("matmul f32") {
		matmuls(devs, mm, trials)
		limitsNow()
	}
	memoryBound(devs, []int{256 << 10, big}, trials)
	limitsNow()
	axes(devs, side, trials)
	limitsNow()
	overheads(devs, trials)
}

// matmuls times n×n float32 matmul on each device and gonum.
func matmuls(devs []string, sizes []int, trials int) {
	for _, n := range sizes {
		for _, dev := range devs {
			must(tensor.SetDefaultDevice(dev))
			a, b := tensor.RandSeed(1, n, n).Realize(), tensor.RandSeed(2, n, n).Realize()
			wait()
			tr := trials
			if n >= 2048 {
				tr = 2
			}
			run := replayed(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Matmul(in[1]) }, a, b)
			d := best(tr, run)
			emit("matmul f32", fmt.Sprint(n), "tick "+dev, 2*float64(n*n*n)/d.Seconds()/1e9, "GFLOP/s")
			if dev == "CPU" && n >= 1024 { // per CPU-second: see cputime.go
				emit("matmul f32 per CPU-s", fmt.Sprint(n), "tick "+dev, perCPUSecond(2*float64(n*n*n), run)/1e9, "GFLOP/s")
			}
		}
		if n <= 1024 {
			g := func(seed int) blas32.General {
				v := tensor.RandSeed(int64(seed), n*n).Float32s()
				return blas32.General{Rows: n, Cols: n, Stride: n, Data: v}
			}
			x, y, z := g(1), g(2), g(3)
			d := best(min(trials, 2), func() { blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, x, y, 0, z) })
			emit("matmul f32", fmt.Sprint(n), "gonum", 2*float64(n*n*n)/d.Seconds()/1e9, "GFLOP/s")
		}
	}
}

// memoryBound times the fused relu chain and the full reductions over n
// float32 (GB/s: bytes read plus bytes written).
func memoryBound(devs []string, sizes []int, trials int) {
	ops := []struct {
		name  string
		bytes float64 // per element
		f     func(in ...*tensor.Tensor) *tensor.Tensor
	}{
		{"relu(a*2+1)", 8, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Mul(2).Add(1).Relu() }},
		{"sum", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Sum() }},
		{"max", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Max() }},
		{"min", 4, func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Min() }},
	}
	for _, n := range sizes {
		for _, dev := range devs {
			must(tensor.SetDefaultDevice(dev))
			a := tensor.RandnSeed(3, n).Realize()
			wait()
			for _, op := range ops {
				if want(op.name) {
					d := best(trials, replayed(op.f, a))
					emit(op.name, sizeName(n), "tick "+dev, op.bytes*float64(n)/d.Seconds()/1e9, "GB/s")
				}
			}
		}
	}
}

// axes times reductions over one axis of a side×side matrix and a softmax
// over rows.
func axes(devs []string, side, trials int) {
	for _, dev := range devs {
		must(tensor.SetDefaultDevice(dev))
		m := tensor.RandnSeed(4, side, side).Realize()
		sm := tensor.RandnSeed(5, side, 1024).Realize()
		wait()
		size := fmt.Sprintf("%dx%d", side, side)
		if want("sum axis 1") {
			d := best(trials, replayed(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Sum(1) }, m))
			emit("sum axis 1", size, "tick "+dev, 4*float64(side*side)/d.Seconds()/1e9, "GB/s")
		}
		if want("sum axis 0") {
			d := best(trials, replayed(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Sum(0) }, m))
			emit("sum axis 0", size, "tick "+dev, 4*float64(side*side)/d.Seconds()/1e9, "GB/s")
		}
		if want("max axis 1") {
			d := best(trials, replayed(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Max(1) }, m))
			emit("max axis 1", size, "tick "+dev, 4*float64(side*side)/d.Seconds()/1e9, "GB/s")
		}
		if want("softmax axis 1") {
			d := best(trials, replayed(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Softmax(1) }, sm))
			emit("softmax axis 1", fmt.Sprintf("%dx1024", side), "tick "+dev, 8*float64(side*1024)/d.Seconds()/1e9, "GB/s")
		}
	}
}

// overheads times the eager path of one small op, JIT replay per kernel,
// and counts a replayed tutorial step's allocations.
func overheads(devs []string, trials int) {
	if !want("eager op") && !want("JIT replay") && !want("tutorial replay") {
		return
	}
	for _, dev := range devs {
		must(tensor.SetDefaultDevice(dev))
		x := tensor.RandSeed(6, 256).Realize()
		wait()
		const ops = 200
		d := best(trials, func() {
			for i := 0; i < ops; i++ {
				x.Add(1).Realize()
			}
			wait()
		})
		emit("eager op", "256", "tick "+dev, float64(d.Nanoseconds())/ops/1e3, "us/op")
		step := tensor.JIT(tenKernels)
		step.Call(x)
		step.Call(x)
		wait()
		d = best(trials, func() {
			for i := 0; i < ops; i++ {
				step.Call(x)
			}
			wait()
		})
		emit("JIT replay", "256", "tick "+dev, float64(d.Nanoseconds())/ops/10, "ns/kernel")
		tut := tensor.JIT(func(in ...*tensor.Tensor) *tensor.Tensor { return in[0].Mul(2).Add(1).Realize() })
		tut.Call(x)
		tut.Call(x)
		wait()
		allocs := testing.AllocsPerRun(200, func() { tut.Call(x); wait() })
		emit("tutorial replay", "256", "tick "+dev, allocs, "allocs/call")
	}
}

// limitsNow measures and prints the machine's limits.
func limitsNow() {
	lim, err := measureLimits()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cpubench: machine limits:", err)
		os.Exit(1)
	}
	emit("peak", "-", "fma", lim.fma, "GFLOP/s")
	emit("peak", "-", "muladd", lim.muladd, "GFLOP/s")
	emit("peak", "-", "fma per CPU-s", lim.fmaCPU, "GFLOP/s")
	emit("bandwidth", "-", "read", lim.read, "GB/s")
	emit("bandwidth", "-", "copy", lim.copy, "GB/s")
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

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "cpubench:", err)
		os.Exit(1)
	}
}
