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
		xs[i] = x - res.Floor
	}
	res.Stats = Summarize(xs, r.o.Confidence)
	var enq []float64
	for _, s := range res.Samples {
		if s.Phase == PhaseMeasured {
			enq = append(enq, float64(s.Enqueued)/float64(max(s.N, 1)))
			res.Memory.GCCycles += s.GCs
		}
	}
	slices.Sort(enq)
	if len(enq) > 0 {
		res.EnqueueMedian = Quantile(enq, 0.5)
	}
	if len(r.warm) > 0 {
		w := slices.Clone(r.warm)
		slices.Sort(w)
		res.WarmCall = durationOf(Quantile(w, 0.5))
	}
	if r.loops > 0 {
		res.Memory.BytesPerOp = float64(r.allocBytes) / float64(r.loops)
		res.Memory.AllocsPerOp = float64(r.mallocs) / float64(r.loops)
	}
	if r.t.Probe != nil {
		p := r.probe()
		d := r.counted // this statement's measured samples only
		res.Async, res.Debug = p.Async, p.Debug
		if r.loops > 0 {
			l := float64(r.loops)
			c := &Counters{Kernels: float64(d.Kernels) / l, FLOPs: d.FLOPs / l, Bytes: d.Bytes / l}
			if t := res.Stats.Median; t > 0 {
				c.GFLOPS = c.FLOPs / t // FLOP per ns = GFLOP/s
				c.GBps = c.Bytes / t
			}
			res.Counters = c
		}
	}
	res.Elapsed = r.now() - r.start
	fillProvenance(&res.Provenance, res)
	res.Warnings = Diagnose(res)
	return res
}
