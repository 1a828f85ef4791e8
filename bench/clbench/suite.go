package main

// The throughput suite (-suite, bench/gpu.sh): on one device, JIT-replayed
// and synchronized per call, an elementwise chain at 16M, a sum at 16M,
// matmul 1024 and the copies host→device and back, each timed by the
// host's clock around the synchronized calls and, on a device with a clock
// of its own, by its stamps (the runtime's counters); rates from the
// bytes each call must read and write (elementwise, sum), its FLOPs
// (matmul, 2n³) or the bytes it copies. Each line also gives the rate per
// CPU-second (the process's CPU time over all samples, every thread's;
// not on a GPU):
// on a loaded machine the wall rates follow the share of the cores the
// process got, the per-CPU-second rates much less so.

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// work is one line of the suite: a JIT'd function of inputs on the device.
type work struct {
	name   string
	inputs func(dev string) []*tensor.Tensor
	fn     func(...*tensor.Tensor) *tensor.Tensor
	calls  int     // per sample
	flops  float64 // per call: a rate in FLOP/s (0: in bytes per second)
	bytes  float64 // per call: the bytes read and written, or copied
}

const n16M = 1 << 24

func suiteWork(host string, nMM int) []work {
	on := func(dev string, ts ...*tensor.Tensor) []*tensor.Tensor {
		for i, t := range ts {
			ts[i] = t.To(dev).Realize()
		}
		return ts
	}
	return []work{
		{name: "elementwise chain 16M (x*1.0001+0.5)*0.999, one kernel", calls: 5,
			inputs: func(dev string) []*tensor.Tensor { return on(dev, tensor.RandSeed(1, n16M)) },
			fn:     func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(1.0001).Add(0.5).Mul(0.999).Realize() },
			bytes:  2 * 4 * n16M},
		{name: "sum 16M", calls: 5,
			inputs: func(dev string) []*tensor.Tensor { return on(dev, tensor.RandSeed(2, n16M)) },
			fn:     func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Sum().Realize() },
			bytes:  4 * n16M},
		{name: fmt.Sprintf("matmul %d×%d", nMM, nMM), calls: 2,
			inputs: func(dev string) []*tensor.Tensor {
				return on(dev, tensor.RandSeed(3, nMM, nMM), tensor.RandSeed(4, nMM, nMM))
			},
			fn:    func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Matmul(a[1]).Realize() },
			flops: 2 * float64(nMM) * float64(nMM) * float64(nMM)},
		{name: "copy " + host + "→device 64 MiB", calls: 3,
			inputs: func(string) []*tensor.Tensor { return on(host, tensor.RandSeed(5, n16M)) },
			bytes:  4 * n16M},
		{name: "copy device→" + host + " 64 MiB", calls: 3,
			inputs: func(dev string) []*tensor.Tensor { return on(dev, tensor.RandSeed(6, n16M)) },
			bytes:  4 * n16M},
	}
}

// runSuite times each line of the suite on dev, samples times.
func runSuite(dev, host string, samples, nMM int) error {
	info, err := tensor.DescribeDevice(dev)
	if err != nil {
		return err
	}
	fmt.Printf("#device\t%s\n", info)
	// Rates per CPU-second only where the host's CPUs do the work (CPU,
	// GO, an OpenCL device of kind cpu such as pocl): a GPU's time is not
	// the process's.
	onHost := !strings.Contains(info.Backend, ", gpu") && !strings.Contains(info.Backend, ", accelerator")
	fmt.Printf("#matmul\tfused multiply-adds: %v (TICK_FMA=0: separate)\n", info.MatmulFMA)
	for i, w := range suiteWork(host, nMM) {
		in := w.inputs(dev)
		fn := w.fn
		switch i {
		case 3:
			fn = func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].To(dev).Realize() }
		case 4:
			fn = func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].To(host).Realize() }
		}
		if dev == host && i >= 3 {
			continue // no copy to time
		}
		j := tensor.JIT(fn)
		for range 3 {
			j.Call(in...)
		}
		if err := tensor.SynchronizeAll(); err != nil {
			return err
		}
		var hostT, devT []time.Duration
		cpu0 := cpuSeconds()
		for range samples {
			before := tensor.Counters()
			t0 := time.Now()
			for range w.calls {
				j.Call(in...)
				if err := tensor.SynchronizeAll(); err != nil {
					return err
				}
			}
			hostT = append(hostT, time.Since(t0)/time.Duration(w.calls))
			after := tensor.Counters()
			d := after.DeviceClock - before.DeviceClock + after.TransferDevice - before.TransferDevice
			if after.KernelsClocked+after.TransfersClocked > before.KernelsClocked+before.TransfersClocked {
				devT = append(devT, d/time.Duration(w.calls))
			}
		}
		perCPU := "per CPU-second: -"
		if cpu := (cpuSeconds() - cpu0) / float64(samples*w.calls); cpu > 0 && onHost {
			perCPU = fmt.Sprintf("per CPU-second: %.1f ms CPU per call, %s", cpu*1e3, rate(cpu, w))
		}
		fmt.Printf("%s\t%s\t%s\t%s\n", w.name, rates(hostT, w, "host"), rates(devT, w, "device clock"), perCPU)
	}
	return nil
}

// rates is "median (min–max) per call, GB/s [GFLOP/s]" of ds, by clock.
func rates(ds []time.Duration, w work, clock string) string {
	if len(ds) == 0 {
		return clock + ": -"
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	med := ds[len(ds)/2]
	s := fmt.Sprintf("%s: %v (%v–%v) per call, ", clock, med.Round(time.Microsecond),
		ds[0].Round(time.Microsecond), ds[len(ds)-1].Round(time.Microsecond))
	return s + rate(med.Seconds(), w)
}

// rate is w's rate for one call taking secs: GFLOP/s or GB/s.
func rate(secs float64, w work) string {
	if w.flops > 0 {
		return fmt.Sprintf("%.1f GFLOP/s", w.flops/secs/1e9)
	}
	return fmt.Sprintf("%.2f GB/s", w.bytes/secs/1e9)
}
