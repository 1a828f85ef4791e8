package timing

import (
	"context"
	"math"
	"runtime"
	"runtime/metrics"
	"slices"
	"time"
)

// The sampling harness: what happens around every timed interval. One
// function takes the statement's samples, the floor's samples and the
// calibration samples, so whatever the bookkeeping costs — and whatever it
// leaves behind for the timed calls, such as cold allocator caches — the
// floor pays it too and it cancels. The bookkeeping is chosen so that it
// leaves almost nothing behind:
//   - no exact heap statistics per sample (runtime.ReadMemStats stops the
//     world and flushes every allocator cache, so the next allocations of
//     the timed calls would refill them): allocations are measured once,
//     in an untimed batch (memoryBatch);
//   - no collection before every sample: with GCCollect the harness
//     collects between samples only when the next sample would likely
//     trigger one (gcDue);
//   - GC cycles are counted with runtime/metrics, which does not stop the
//     world;
//   - with SyncNone, the queue the sample left is drained after t1.

// heapMetrics are read before and after each sample (no stop-the-world,
// no allocation).
type heapMetrics struct {
	s []metrics.Sample
}

const (
	metricGCCycles = "/gc/cycles/total:gc-cycles"
	metricHeapGoal = "/gc/heap/goal:bytes"
	metricHeapLive = "/memory/classes/heap/objects:bytes"
)

func newHeapMetrics() *heapMetrics {
	return &heapMetrics{s: []metrics.Sample{{Name: metricGCCycles}, {Name: metricHeapGoal}, {Name: metricHeapLive}}}
}

// read refreshes all three values.
func (h *heapMetrics) read() { metrics.Read(h.s) }

func (h *heapMetrics) value(i int) uint64 {
	if h.s[i].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return h.s[i].Value.Uint64()
}

func (h *heapMetrics) cycles() uint64 { return h.value(0) }

// gcDue reports whether a collection should run before a sample expected
// to allocate alloc bytes: when the heap would reach most of its goal
// during the sample. Twice the expected allocation leaves a margin for
// what the harness allocates between samples.
func (h *heapMetrics) gcDue(alloc float64) bool {
	goal, live := h.value(1), h.value(2)
	if goal == 0 {
		return false
	}
	return float64(live)+2*alloc >= 0.9*float64(goal)
}

// sampleOf runs one sample of n calls of t through the harness: the
// collector policy, a probe and GC count before and after, the timed
// interval, and with SyncNone the drain. alloc is the bytes one sample of
// t is expected to allocate (for the collector policy). It returns the
// sample and the probe's difference over it.
func (r *runner) sampleOf(t *Target, n int, mode SyncMode, alloc float64) (Sample, Probe, error) {
	h := r.heap
	if r.o.GC == GCCollect {
		h.read()
		if h.gcDue(alloc) {
			runtime.GC()
			r.collections++
		}
	}
	h.read()
	var p0 Probe
	if t.Probe != nil {
		p0 = t.Probe()
	}
	g0 := h.cycles()
	s, err := r.timed(t, n, mode)
	if err != nil {
		return Sample{}, Probe{}, err
	}
	h.read()
	s.GCs = uint32(h.cycles() - g0)
	var d Probe
	if t.Probe != nil {
		d = t.Probe().sub(p0)
	}
	if mode == SyncNone && t.Sync != nil {
		t2 := r.now()
		if err := r.sync(t); err != nil {
			return Sample{}, Probe{}, wrapf(err, "draining the queue after the sample")
		}
		s.Drain = r.now() - t2
		if t.Probe != nil { // the drain read the stamps of the sample's commands
			d.setDevice(t.Probe().sub(p0).deviceOf())
		}
	}
	s.Device = d.clocked()
	return s, d, nil
}

// byDevice makes the device's clock time a measured sample (ClockDevice):
// Elapsed becomes its device time, Host keeps the host's.
func (r *runner) byDevice(s Sample) Sample {
	if r.o.TimeBy == ClockDevice {
		s.Host, s.Elapsed = s.Elapsed, s.Device
	}
	return s
}

// floorEvery is how many measured samples pass between floor samples;
// floorMin is how many floor samples a measurement takes at least.
const (
	floorEvery = 4
	floorMin   = 5
)

// floorTarget returns the target whose samples are the floor, and what it
// is called.
func (r *runner) floorTarget() (*Target, string, error) {
	if f := r.o.Floor; f != nil {
		if f.Call == nil {
			return nil, "", wrapf(ErrNoCall, "floor")
		}
		return f, "empty statement", nil
	}
	return &Target{Call: func(int) error { return nil }, Sync: r.t.Sync}, "empty sample", nil
}

// floorSample takes one sample of the floor through the harness.
func (r *runner) floorSample(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return wrapf(err, "floor")
	}
	s, _, err := r.sampleOf(r.floor, r.res.Loops, r.o.Sync, r.floorAlloc)
	if err != nil {
		return wrapf(err, "floor")
	}
	s = r.byDevice(s)
	s.Phase = PhaseMeasured
	r.res.FloorSamples = append(r.res.FloorSamples, s)
	r.floorPer = append(r.floorPer, s.PerLoop())
	r.updateFloor()
	return nil
}

// updateFloor sets the floor to the median of the floor's samples.
func (r *runner) updateFloor() {
	xs := slices.Clone(r.floorPer)
	slices.Sort(xs)
	r.res.Floor = Quantile(xs, 0.5)
}

// memoryBatch runs n calls of t once, untimed, between two exact heap
// readings, and returns the bytes and allocations per call and the probe's
// difference over the batch.
func (r *runner) memoryBatch(t *Target, n int) (bytes, allocs float64, d Probe, err error) {
	if err := r.sync(t); err != nil {
		return 0, 0, Probe{}, err
	}
	var p0 Probe
	if t.Probe != nil {
		p0 = t.Probe()
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	if err := t.Call(n); err != nil {
		return 0, 0, Probe{}, err
	}
	if err := r.sync(t); err != nil {
		return 0, 0, Probe{}, err
	}
	runtime.ReadMemStats(&m1)
	if t.Probe != nil {
		d = t.Probe().sub(p0)
	}
	k := float64(max(n, 1))
	return float64(m1.TotalAlloc-m0.TotalAlloc) / k, float64(m1.Mallocs-m0.Mallocs) / k, d, nil
}

// memory measures allocations per call of the statement and of the floor
// (untimed, after calibration) and says who allocates. The heap's counts
// are the process's: another goroutine allocating during a batch (the
// code assistant type-checking an import, a cell's own goroutines) counts
// as the statement's. Its allocations only add, so each side is measured
// twice, interleaved, and the smaller batch kept.
func (r *runner) memory() error {
	n := r.res.Loops
	b, a, fb, fa := math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
	var d Probe
	for range memoryBatches {
		bi, ai, di, err := r.memoryBatch(&r.t, n)
		if err != nil {
			return wrapf(err, "memory batch")
		}
		if ai < a || ai == a && bi < b {
			b, a, d = bi, ai, di
		}
		fbi, fai, _, err := r.memoryBatch(r.floor, n)
		if err != nil {
			return wrapf(err, "floor memory batch")
		}
		if fai < fa || fai == fa && fbi < fb {
			fb, fa = fbi, fai
		}
	}
	m := &r.res.Memory
	m.HarnessBytesPerOp, m.HarnessAllocsPerOp = fb, fa
	m.BytesPerOp, m.AllocsPerOp = max(b-fb, 0), max(a-fa, 0)
	r.stmtAlloc, r.floorAlloc = b*float64(n), fb*float64(n)
	if m.AllocsPerOp >= 0.5 {
		m.Source = allocSource(d, n)
	}
	return nil
}

// memoryBatches is how many batches of each side memory takes.
const memoryBatches = 2

// allocSource says who allocates, from the probe's difference over a
// batch of n calls: the runtime when it built or scheduled graphs, the
// interpreter when every call only replayed a JIT (a replay allocates
// nothing), else the statement's own code.
func allocSource(d Probe, n int) string {
	switch {
	case d.Phases[PhaseGraph] > 0 || d.Phases[PhaseSchedule] > 0:
		return SourceRuntime
	case d.JITReplays >= int64(n) && d.JITCaptures == 0:
		return SourceInterpreter
	}
	return SourceCode
}

// progressEvery throttles the running median Progress reports (sorting
// every sample's times would grow with the samples).
const progressEvery = 50 * time.Millisecond
