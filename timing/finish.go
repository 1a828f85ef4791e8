package timing

import (
	"slices"
)

// finish computes statistics, counters, warnings and provenance.
func (r *runner) finish() *Result {
	res := r.res
	res.Repeats = len(r.measured)
	xs := make([]float64, len(r.measured))
	for i, x := range r.measured {
		if xs[i] = x - res.Floor; xs[i] < 0 {
			xs[i] = 0 // below the floor: the harness's noise, not a negative time
			res.FloorClamped++
		}
	}
	res.Stats = Summarize(xs, r.o.Confidence)
	res.CPU, res.FloorCPU = cpuStats(res, r.o.Confidence)
	var enq []float64
	for _, s := range res.Samples {
		if s.Phase == PhaseMeasured {
			enq = append(enq, float64(s.Enqueued)/float64(max(s.N, 1)))
			res.Memory.GCCycles += s.GCs
			res.Drain += s.Drain
			res.DrainMax = max(res.DrainMax, s.Drain)
		}
	}
	res.Memory.Collections = r.collections
	slices.Sort(enq)
	if len(enq) > 0 {
		res.EnqueueMedian = Quantile(enq, 0.5)
	}
	if len(r.warm) > 0 {
		w := slices.Clone(r.warm)
		slices.Sort(w)
		res.WarmCall = durationOf(Quantile(w, 0.5))
	}
	if r.t.Probe != nil {
		p := r.probe()
		res.Async, res.Debug = p.Async, p.Debug
		if r.loops > 0 {
			res.Counters = r.counters()
			res.Device = r.deviceTime()
			res.Transfers = r.transfers()
		}
	}
	res.Elapsed = r.now() - r.start
	fillProvenance(&res.Provenance, res, r.facts)
	res.Warnings = Diagnose(res)
	return res
}

// cpuStats summarizes the measured samples' CPU time per loop less the
// floor's median (nil when no sample has a CPU time).
func cpuStats(res *Result, confidence float64) (*Stats, float64) {
	var fl []float64
	for _, s := range res.FloorSamples {
		if s.CPU > 0 {
			fl = append(fl, float64(s.CPU)/float64(max(s.N, 1)))
		}
	}
	floor := 0.0
	if len(fl) > 0 {
		slices.Sort(fl)
		floor = Quantile(fl, 0.5)
	}
	var xs []float64
	for _, s := range res.Samples {
		if s.Phase == PhaseMeasured && s.CPU > 0 {
			xs = append(xs, max(float64(s.CPU)/float64(max(s.N, 1))-floor, 0))
		}
	}
	if len(xs) == 0 {
		return nil, 0
	}
	st := Summarize(xs, confidence)
	return &st, floor
}

// counters are the runtime's counters per loop over the measured samples,
// with throughput only when the times include the device's work on a
// device that does it.
func (r *runner) counters() *Counters {
	res, d, l := r.res, r.counted, float64(r.loops) // this statement's measured samples only
	c := &Counters{Kernels: float64(d.Kernels) / l, FLOPs: d.FLOPs / l, Bytes: d.Bytes / l}
	switch t := res.Stats.Median; {
	case !r.facts.computes():
		c.NoThroughput = "the device runs no kernels"
	case res.Sync == SyncNone && res.Async && res.TimeBy != ClockDevice:
		c.NoThroughput = "--sync=none times enqueueing only, not the device's work"
	case t > 0:
		c.GFLOPS = c.FLOPs / t // FLOP per ns = GFLOP/s
		c.GBps = c.Bytes / t
	}
	return c
}

// deviceTime is what the device clocks measured of the measured samples
// (nil when they timed nothing): their per-loop stats, the commands they
// timed and, when they timed the samples, the host's stats beside them.
func (r *runner) deviceTime() *DeviceTime {
	res, d, l := r.res, r.counted, float64(r.loops)
	if d.DeviceKernels == 0 && d.TransfersClocked == 0 {
		return nil
	}
	var dev, host, floor []float64
	for _, s := range res.Samples {
		if s.Phase == PhaseMeasured {
			dev = append(dev, float64(s.Device)/float64(max(s.N, 1)))
			host = append(host, float64(s.HostElapsed())/float64(max(s.N, 1)))
		}
	}
	dt := &DeviceTime{Devices: r.facts.clocks(), Stats: Summarize(dev, r.o.Confidence),
		Kernels: float64(d.DeviceKernels) / l, KernelTime: float64(d.DeviceTime) / l,
		Copies: float64(d.TransfersClocked) / l, CopyTime: float64(d.TransferDevice) / l}
	if res.TimeBy == ClockDevice {
		for _, s := range res.FloorSamples {
			floor = append(floor, float64(s.HostElapsed())/float64(max(s.N, 1)))
		}
		slices.Sort(floor)
		if len(floor) > 0 {
			dt.HostFloor = Quantile(floor, 0.5)
		}
		for i := range host {
			host[i] = max(host[i]-dt.HostFloor, 0)
		}
		st := Summarize(host, r.o.Confidence)
		dt.Host = &st
	}
	return dt
}

// transfers are the measured samples' copies per loop (nil without any):
// counts and bytes over all samples, times the median of the samples' per
// loop, directions from the calls before sampling.
func (r *runner) transfers() *Transfers {
	d, l := r.counted, float64(r.loops)
	if d.Transfers == 0 {
		return nil
	}
	med := func(xs []float64) float64 {
		xs = slices.Clone(xs)
		slices.Sort(xs)
		return Quantile(xs, 0.5)
	}
	t := &Transfers{Copies: float64(d.Transfers) / l, Bytes: float64(d.TransferBytes) / l, Host: med(r.xferHost),
		Device: med(r.xferDev), Clocked: float64(d.TransfersClocked) / l}
	for _, f := range r.facts.Transfers {
		if !slices.Contains(t.Directions, f.Direction()) {
			t.Directions = append(t.Directions, f.Direction())
		}
	}
	return t
}
