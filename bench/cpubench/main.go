// Command cpubench measures tick's CPU and GO devices and this machine's
// limits (peak FLOP/s with the widest vector FMA it has; read, copy and
// read-modify-write bandwidth), printing one tab-separated line per
// measurement:
//
//	case  size  implementation  value  unit  work
//
// value is the median over samples of the time per call in µs (unit "us"),
// or a throughput for the limits (GB/s, GFLOP/s); work is what one call
// does ("B:bytes" moved or "F:flops"), from which the report derives
// throughputs. bench/cpu.sh runs it in rounds interleaved with
// bench/cpu_numpy.py, which times numpy and OpenBLAS the same way (timing.go),
// and bench/cpu_report.py turns the lines into the tables of
// docs/benchmarks.md.
//
// Kernels are timed through a warmed-up JIT (tick's replay: buffers are
// reused, as numpy's out= arguments are, so a call measures the kernels and
// the replay, not allocation), synchronized after each call. "eager op"
// times the eager path of one small op, allocation and scheduling included.
// The implementation's label carries the thread count (GOMAXPROCS): "tick
// CPU 2T".
//
// Usage: go run ./bench/cpubench [-quick] [-cases a,b] [-devices CPU,GO]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/tick-kernel/tick/runtime/tensor"
)

var (
	quick   = flag.Bool("quick", false, "smaller sizes and shorter sampling (a smoke run)")
	cases   = flag.String("cases", "", "comma-separated case names to run (e.g. \"relu(a*2+1),max\"); empty: all")
	devices = flag.String("devices", "CPU,GO", "devices to time, comma-separated")
	limits  = flag.Bool("limits", true, "measure the machine's limits (peak, bandwidth) first")
	only    = flag.String("only", "", "run only this group: kernels, overheads, limits")
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

// threads is the label suffix of this run's thread count.
func threads() string { return fmt.Sprintf("%dT", runtime.GOMAXPROCS(0)) }

// emit prints one measurement line.
func emit(cs, size, impl string, v float64, unit, work string) {
	fmt.Printf("%s\t%s\t%s\t%.4g\t%s\t%s\n", cs, size, impl, v, unit, work)
}

func main() {
	flag.Parse()
	info, _ := tensor.DescribeDevice("CPU")
	fmt.Printf("#device\t%s\n", info)
	fmt.Printf("#threads\t%s: GOMAXPROCS=%d\n", threads(), runtime.GOMAXPROCS(0))
	if *limits && (*only == "" || *only == "limits") {
		limitsNow()
	}
	if *only == "limits" {
		return
	}
	for _, dev := range strings.Split(*devices, ",") {
		dev = strings.TrimSpace(dev)
		if dev == "" {
			continue
		}
		must(tensor.SetDefaultDevice(dev))
		if *only == "" || *only == "kernels" {
			for _, c := range kernelCases() {
				if want(c.name) && c.runsOn(dev) {
					runCase(dev, c)
				}
			}
		}
		if *only == "" || *only == "overheads" {
			overheads(dev)
		}
	}
}

// runCase times c on the default device dev and prints its line.
func runCase(dev string, c kernelCase) {
	in := c.inputs()
	for _, t := range in {
		t.Realize()
	}
	wait()
	d := measure(c.budget(), replayed(c.f, in...))
	emit(c.name, c.size, "tick "+dev+" "+threads(), d.Seconds()*1e6, "us", c.work)
}

func wait() { _ = tensor.SynchronizeAll() }

// replayed returns a call of f through a warmed-up JIT, synchronized: the
// kernels run on buffers the JIT reuses, so a call measures the kernels and
// the replay, not allocation.
func replayed(f func(in ...*tensor.Tensor) *tensor.Tensor, in ...*tensor.Tensor) func() {
	j := tensor.JIT(func(in ...*tensor.Tensor) *tensor.Tensor { return f(in...).Realize() })
	j.Call(in...)
	j.Call(in...)
	wait()
	return func() { j.Call(in...); wait() }
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "cpubench:", err)
		os.Exit(1)
	}
}
