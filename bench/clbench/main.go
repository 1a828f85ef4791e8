// Command clbench times tick's CL device on the kernel bench/cl_pyopencl.py
// runs through pyopencl: ten dependent launches of the same 256-element
// elementwise kernel (x*1.0001+0.5), JIT-replayed, per kernel, both with
// the queue finished after each replay ("launch+finish") and enqueued only
// (finished after the timed calls), and one eager op. It writes the
// kernel's OpenCL C, its name and its work-group size for the Python side
// (-kernel FILE). bench/cl.sh runs both alternately.
//
// -device CL:N picks the OpenCL device; -suite runs the throughput suite
// instead (suite.go: elementwise, sum, matmul, copies) on -device, and
// -list prints each OpenCL device with its kind (cpu, gpu) and exits:
// bench/gpu.sh uses them.
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/tick-kernel/tick/runtime/tensor"
)

var (
	kernelFile = flag.String("kernel", "", "write the kernel's source, name and local size here")
	calls      = flag.Int("calls", 2000, "replays per sample")
	samples    = flag.Int("samples", 15, "samples (the median is reported, with the range)")
	devName    = flag.String("device", "CL", "the device: CL, CL:N, or a host device (CPU, GO) for -suite")
	suite      = flag.Bool("suite", false, "run the throughput suite (elementwise, sum, matmul, copies) instead")
	hostName   = flag.String("host", "CPU", "the host side of -suite's copies")
	listDevs   = flag.Bool("list", false, "list the OpenCL devices (CL:N, kind, name) and exit")
	matmulN    = flag.Int("matmul", 1024, "-suite's matmul size")
)

func tenKernels(in ...*tensor.Tensor) *tensor.Tensor {
	x := in[0]
	for range 10 {
		x = x.Mul(1.0001).Add(0.5).Realize()
	}
	return x
}

func main() {
	flag.Parse()
	if *listDevs {
		list()
		return
	}
	if *suite {
		must(runSuite(*devName, *hostName, *samples, *matmulN))
		return
	}
	if err := tensor.SetDefaultDevice(*devName); err != nil {
		fmt.Fprintln(os.Stderr, "clbench:", err)
		os.Exit(1)
	}
	x := tensor.RandSeed(6, 256).Realize()
	step := tensor.JIT(tenKernels)
	for range 3 {
		step.Call(x)
	}
	must(tensor.SynchronizeAll())
	if *kernelFile != "" {
		k := step.Plan().Kernels[0]
		name := "tick_" + k.Name
		must(os.WriteFile(*kernelFile, []byte(fmt.Sprintf("%s\n%d %d\n%s", name, k.Global[0], k.Local[0], k.Source)), 0o644))
	}
	finished := measure(func() {
		for range *calls {
			step.Call(x)
			must(tensor.SynchronizeAll())
		}
	})
	enqueued := measure(func() {
		for range *calls {
			step.Call(x)
		}
	})
	eager := measure(func() {
		for range *calls {
			x.Add(1).Realize()
		}
	})
	report("tick CL JIT replay, launch+finish", finished, float64(*calls*10), "per kernel")
	report("tick CL JIT replay, enqueue only", enqueued, float64(*calls*10), "per kernel")
	report("tick CL eager op (x.Add(1).Realize())", eager, float64(*calls), "per op")
}

// measure runs f samples times, each timed and followed (untimed) by a
// synchronize.
func measure(f func()) []time.Duration {
	var out []time.Duration
	for range *samples {
		t0 := time.Now()
		f()
		out = append(out, time.Since(t0))
		must(tensor.SynchronizeAll())
	}
	return out
}

func report(what string, ds []time.Duration, n float64, per string) {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	us := func(d time.Duration) float64 { return d.Seconds() * 1e6 / n }
	fmt.Printf("%s\t%.2f\t%.2f\t%.2f\tµs %s (median, min, max of %d samples)\n", what, us(ds[len(ds)/2]), us(ds[0]), us(ds[len(ds)-1]), per, len(ds))
}

// list prints "CL:N<TAB>backend<TAB>device" for each OpenCL device (the
// backend line ends with its kind: "OpenCL C (pocl 3.1, cpu)").
func list() {
	for i := 0; ; i++ {
		info, err := tensor.DescribeDevice(fmt.Sprintf("CL:%d", i))
		if err != nil {
			if i == 0 {
				must(err)
			}
			return
		}
		fmt.Printf("CL:%d\t%s\t%s\n", i, info.Backend, info.Device)
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "clbench:", err)
		os.Exit(1)
	}
}
