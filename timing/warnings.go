package timing

import (
	"fmt"
	"github.com/tick-kernel/tick/internal/version"
	"runtime"
	"time"
)

// WarningKind classifies a Warning so callers and tests can branch on it.
type WarningKind string

// Warning kinds. docs/timing.md explains each one.
const (
	// WarnColdDominates: the cold call compiled kernels and took ≥
	// ColdFactor × a warm call (≥ 10·ColdFactor × when it compiled
	// nothing) — one-time work dominates the first call.
	WarnColdDominates WarningKind = "cold-dominates"
	// WarnWorstBest: the slowest measured sample per loop is ≥
	// WorstBestFactor × the fastest — something is being cached or the
	// machine was disturbed.
	WarnWorstBest WarningKind = "worst-best"
	// WarnHighVariation: the robust coefficient of variation
	// (1.4826·MAD/median) exceeds VariationLimit.
	WarnHighVariation WarningKind = "high-variation"
	// WarnTooFewSamples: too few samples for a confidence interval.
	WarnTooFewSamples WarningKind = "too-few-samples"
	// WarnEnqueueOnly: --sync=none on an asynchronous device; the times
	// are enqueue times.
	WarnEnqueueOnly WarningKind = "enqueue-only"
	// WarnDebugActive: the runtime's DEBUG level is 2 or more.
	WarnDebugActive WarningKind = "debug-active"
	// WarnGC: garbage collections completed inside timed intervals.
	WarnGC WarningKind = "gc-during-timing"
	// WarnNearResolution: a sample lasts less than ResolutionFactor × the
	// timer resolution.
	WarnNearResolution WarningKind = "near-resolution"
	// WarnNearFloor: the statement costs less than the harness floor.
	WarnNearFloor WarningKind = "near-floor"
	// WarnNoReplay: the JIT never replayed during the capture calls.
	WarnNoReplay WarningKind = "no-replay"
	// WarnBacklog: with --sync=none the device needed a long time after
	// the calls returned (≥ BacklogShare of the sampled time): it is slower
	// than the enqueueing, which the times do not show.
	WarnBacklog WarningKind = "sync-none-backlog"
	// WarnImplausible: the estimated throughput is more than the machine
	// can do (ImplausibleGFLOPS or ImplausibleGBps per CPU): the time
	// cannot include the work.
	WarnImplausible WarningKind = "implausible-throughput"
	// WarnNoCompute: the statement ran on a device that runs no kernels
	// (NULL): the time is the host's part only.
	WarnNoCompute WarningKind = "device-runs-nothing"
	// WarnSmallN: loops per sample were given (-n) and a sample is shorter
	// than SmallNShare of what calibration aims at.
	WarnSmallN WarningKind = "small-n"
	// WarnJITWarmBefore: the JIT had been called before the measurement,
	// so its compile (and capture) are not in the result.
	WarnJITWarmBefore WarningKind = "jit-called-before"
	// WarnMutatesInput: the statement changed a Go slice or array it
	// reads (hashed before and after the measurement, outside the timed
	// intervals), so later calls ran on changed data (%timeit in
	// kernel/magic).
	WarnMutatesInput WarningKind = "mutates-input"
	// WarnDescheduled: the process's threads waited for a CPU for more
	// than DescheduledShare of the sampling time.
	WarnDescheduled WarningKind = "descheduled"
	// WarnUnidentifiedBuild: tick's build records no commit (no -ldflags,
	// no VCS stamp, no module version), so the result cannot be traced to
	// the code that produced it. %timeit shows it once per kernel.
	WarnUnidentifiedBuild WarningKind = "unidentified-build"
)

// Warning thresholds.
const (
	ColdFactor       = 10.0
	WorstBestFactor  = 4.0
	VariationLimit   = 0.10
	ResolutionFactor = 100
	BacklogShare     = 0.10
	// ImplausibleGFLOPS and ImplausibleGBps are per CPU: twice what a core
	// with two 16-lane FMA units at 4 GHz computes, and about what its L1
	// cache moves, so no honest measurement exceeds them.
	ImplausibleGFLOPS = 512.0
	ImplausibleGBps   = 1000.0
	SmallNShare       = 0.1
	DescheduledShare  = 0.05
)

// Warning is something the user should know before trusting a result: what
// happened, with numbers, and what to do about it.
type Warning struct {
	Kind    WarningKind `json:"kind"`
	Message string      `json:"message"`
	Fix     string      `json:"fix"`
}

func (w Warning) String() string { return w.Message + "; " + w.Fix }

// Has reports whether r carries a warning of kind k.
func (r *Result) Has(k WarningKind) bool {
	for _, w := range r.Warnings {
		if w.Kind == k {
			return true
		}
	}
	return false
}

// Diagnose returns the warnings that apply to r, in a fixed order.
func Diagnose(r *Result) []Warning {
	var ws []Warning
	add := func(k WarningKind, fix, format string, args ...any) {
		ws = append(ws, Warning{Kind: k, Message: fmt.Sprintf(format, args...), Fix: fix})
	}
	st := r.Stats
	// Without compilation a cold call is only a first call (the interpreter,
	// caches and allocator warming up): worth a warning only when extreme.
	coldFactor := ColdFactor
	if r.Cold.Compiles == 0 {
		coldFactor = 10 * ColdFactor
	}
	if r.WarmCall > 0 && float64(r.Cold.Time) >= coldFactor*float64(r.WarmCall) {
		what := "the first call does one-time work (the interpreter's first call, allocation, caches warming up) that warm calls do not"
		switch {
		case r.Cold.Compiles > 0:
			what = fmt.Sprintf("compilation dominates the first call (%d kernels compiled)", r.Cold.Compiles)
		case r.JIT && r.Cold.Kind == CallOrdinary:
			what = "the JIT's first call runs its function eagerly — it builds the graph, schedules it and launches the kernels " +
				"(found compiled already) — which the capture and the replays after it do not"
		}
		add(WarnColdDominates, "the cold time is reported separately and excluded from the statistics; time the cold path on its own if it matters",
			"cold call %s is %.0f× a warm call (%s): %s",
			FormatDuration(float64(r.Cold.Time), 3), float64(r.Cold.Time)/float64(r.WarmCall), FormatDuration(float64(r.WarmCall), 3), what)
	}
	if st.N > 1 && st.Min > 0 && st.Max >= WorstBestFactor*st.Min {
		add(WarnWorstBest, "an intermediate result may be cached, or the machine was busy; look at the trace plot and rerun on a quiet machine",
			"the slowest sample took %.1f× longer per loop than the fastest (%s vs %s)",
			st.Max/st.Min, FormatDuration(st.Max, 3), FormatDuration(st.Min, 3))
	}
	if st.N > 1 && st.Median > 0 && 1.4826*st.MAD/st.Median > VariationLimit {
		add(WarnHighVariation, "close other work, pin the CPU frequency, or raise -T so the interval narrows",
			"high variation: robust spread (1.4826·MAD) is %.0f%% of the median", 100*1.4826*st.MAD/st.Median)
	}
	if st.N > 0 && !st.CIValid {
		need := st.CIWarning
		if need == "" {
			need = "need more samples for the interval"
		}
		add(WarnTooFewSamples, "raise -r (or drop -r and let -T decide)",
			"only %d samples: too few for a confidence interval of the median (%s)", st.N, need)
	}
	if r.Sync == SyncNone && r.Async && r.TimeBy != ClockDevice { // the device's clock times the work wherever the host waits
		add(WarnEnqueueOnly, "use --sync=sample (the default) to include the device's work",
			"--sync=none on an asynchronous device: %s per loop is the enqueue time, not the time for the work to finish "+
				"(the device needed %s more after the samples' calls returned, drained outside the timed intervals)",
			FormatDuration(st.Median, 3), FormatDuration(float64(r.Drain), 3))
	}
	if r.Sync == SyncNone && r.Drain > 0 && float64(r.Drain) >= BacklogShare*float64(measuredTime(r)) {
		add(WarnBacklog, "the device, not the enqueueing, limits this statement: time it with --sync=sample",
			"--sync=none left a backlog: after the calls of a sample returned, the device needed up to %s more to finish them "+
				"(%s in all, %.0f%% of the sampled time); without the drain the next cell would have waited for it",
			FormatDuration(float64(r.DrainMax), 3), FormatDuration(float64(r.Drain), 3), 100*float64(r.Drain)/float64(max(measuredTime(r), 1)))
	}
	diagnoseDevice(r, add)
	if r.Debug >= 2 {
		add(WarnDebugActive, "set DEBUG=0 (or 1) when timing; use DEBUG≥2 to find a cause, not to measure it",
			"DEBUG=%d is active: per-kernel waits and printing perturb the timing", r.Debug)
	}
	if r.Memory.GCCycles > 0 {
		add(WarnGC, gcFix(r), "%d garbage collections ran inside timed samples%s", r.Memory.GCCycles, gcWhy(r))
	}
	if r.Repeats > 0 && r.Resolution > 0 && r.TimeBy != ClockDevice && medianSample(r) < ResolutionFactor*r.Resolution {
		add(WarnNearResolution, "raise -n (or drop it and let calibration choose)",
			"a sample lasts %s, less than %d× the timer resolution (%s): rounding shows in the result",
			FormatDuration(float64(medianSample(r)), 3), ResolutionFactor, FormatDuration(float64(r.Resolution), 3))
	}
	if r.Repeats > 0 && r.Floor > 0 && st.Median < r.Floor {
		add(WarnNearFloor, "time a larger unit of work (a loop inside the statement) for a trustworthy number",
			"the statement (%s per loop) costs less than the harness floor (%s per loop, %s): most of what was measured is the loop itself",
			FormatDuration(st.Median, 3), FormatDuration(r.Floor, 3), r.FloorSource)
	}
	if r.Captures > 0 && !r.Replaying {
		add(WarnNoReplay, "check that the JIT's inputs keep their shape, dtype and device between calls",
			"the JIT did not reach replay in %d capture calls: the samples may include capture work", r.Captures)
	}
	diagnoseMethod(r, add)
	return ws
}

// hostFloor is the floor per loop by the host's clock, whichever clock
// timed the samples.
func hostFloor(r *Result) float64 {
	if r.TimeBy == ClockDevice && r.Device != nil {
		return r.Device.HostFloor
	}
	return r.Floor
}

// medianSample is the median length of a measured sample by the host's
// clock (whichever clock timed it).
func medianSample(r *Result) time.Duration {
	var xs []float64
	for _, s := range r.Samples {
		if s.Phase == PhaseMeasured {
			xs = append(xs, float64(s.HostElapsed()))
		}
	}
	if len(xs) == 0 {
		return 0
	}
	st := Summarize(xs, DefaultConfidence)
	return durationOf(st.Median)
}

// adder adds a warning (see Diagnose).
type adder func(k WarningKind, fix, format string, args ...any)

// diagnoseDevice warns about a device that computes nothing and about
// throughput no machine of this size reaches.
func diagnoseDevice(r *Result, add adder) {
	for _, d := range r.Provenance.Devices {
		if !d.Computes {
			add(WarnNoCompute, "time a device that computes (CPU or GO) to measure the work itself",
				"the statement ran on %s, which runs no kernels: the time is the host's part only (building, scheduling and "+
					"launching kernels, the interpreter), and no throughput is shown", d.Name)
			break
		}
	}
	c := r.Counters
	if c == nil {
		return
	}
	cpus := float64(r.Provenance.CPUs)
	if cpus <= 0 {
		cpus = float64(runtime.NumCPU())
	}
	if c.GFLOPS > ImplausibleGFLOPS*cpus || c.GBps > ImplausibleGBps*cpus {
		add(WarnImplausible, "check that the timed statement does the work (a result reused, work left queued, a device that skips it)",
			"estimated %sFLOP/s and %sB/s are more than %d CPUs can do (at most about %sFLOP/s and %sB/s): "+
				"the time cannot include the work", formatSI(c.GFLOPS*1e9, 3), formatSI(c.GBps*1e9, 3), int(cpus),
			formatSI(ImplausibleGFLOPS*cpus*1e9, 3), formatSI(ImplausibleGBps*cpus*1e9, 3))
	}
}

// diagnoseMethod warns about how the measurement was taken: a small -n,
// a JIT warmed before, a descheduled process.
func diagnoseMethod(r *Result, add adder) {
	if r.LoopsGiven && r.Repeats > 0 && r.SampleTarget > 0 && float64(medianSample(r)) < SmallNShare*float64(r.SampleTarget) {
		add(WarnSmallN, "drop -n and let calibration choose, or raise it",
			"with -n %d a sample lasts %s, under a tenth of the %s calibration aims at: the harness's fixed cost per sample "+
				"(the floor, %s a sample, subtracted) and the clock weigh more, and on an asynchronous device each sample "+
				"also waits for the device, which a longer loop overlaps with the calls",
			r.Loops, FormatDuration(float64(medianSample(r)), 3), FormatDuration(float64(r.SampleTarget), 3),
			FormatDuration(hostFloor(r)*float64(r.Loops), 3))
	}
	if r.JITCallsBefore > 0 {
		what := "its first call (which compiles) and its capture are"
		if r.Cold.Kind == CallCapture {
			what = "its first call (which compiles) is"
		}
		add(WarnJITWarmBefore, "to measure them, create the JIT anew (or call its Reset()) right before %timeit",
			"the JIT had been called %s before this measurement, so the cold call was its call %d (a %s): %s not in this result",
			plural(r.JITCallsBefore, "time", "times"), r.JITCallsBefore+1, r.Cold.Kind, what)
	}
	if r.Provenance.CommitSource == "none" {
		add(WarnUnidentifiedBuild, "build tick from its git checkout with ./run.sh, or: "+version.FixCommand,
			"this tick is an %s (no commit from -ldflags, no VCS stamp, no module version): a result cannot be traced to the code that produced it",
			version.Unidentified)
	}
	if s := r.Provenance.Sched; s.Descheduled() > DescheduledShare {
		share := fmt.Sprintf("%.0f%% of the %s of sampling", 100*s.Descheduled(), FormatDuration(float64(s.Wall), 3))
		if s.Descheduled() > 1 {
			share = fmt.Sprintf("%.1f× the %s of sampling: several threads waited at once", s.Descheduled(), FormatDuration(float64(s.Wall), 3))
		}
		add(WarnDescheduled, "rerun when the machine is quieter; the minimum is the sample least disturbed",
			"the process's threads waited %s in all for a CPU while samples were taken (%s; load %s → %s on %d CPUs): "+
				"other programs had the CPUs, and the times include waiting for them",
			FormatDuration(float64(s.RunDelay), 3), share,
			orUnknown(r.Provenance.Load.Start), orUnknown(r.Provenance.Load.End), r.Provenance.CPUs)
	}
}

// gcWhy and gcFix say where the collections came from and what the user
// can change: the collector setting always; allocations only when they are
// the statement's own or the runtime's eager graph building.
func gcWhy(r *Result) string {
	m := r.Memory
	switch m.Source {
	case SourceInterpreter:
		return fmt.Sprintf(": the statement allocates %s B per call, all of it the interpreter's own work calling into the runtime (a JIT replay allocates nothing)", group(int(m.BytesPerOp)))
	case SourceRuntime:
		return fmt.Sprintf(": the statement allocates %s B per call, most of it the runtime building and scheduling a graph on every call (eager tensor operations)", group(int(m.BytesPerOp)))
	case SourceCode:
		return fmt.Sprintf(": the statement allocates %s B per call", group(int(m.BytesPerOp)))
	}
	return ""
}

func gcFix(r *Result) string {
	fix := "use --gc=off to keep collections out of the samples"
	if r.GC == GCOff {
		fix = "the collector was off, so the statement allocates more than the heap can hold: measure a smaller batch (-n)"
	}
	switch r.Memory.Source {
	case SourceRuntime:
		fix += ", or wrap the computation in tensor.JIT: replays allocate nothing"
	case SourceCode:
		fix += ", or allocate less in the statement (see B/op)"
	}
	return fix
}

// measuredTime is the total elapsed time of the measured samples.
func measuredTime(r *Result) time.Duration {
	var t time.Duration
	for _, s := range r.Samples {
		if s.Phase == PhaseMeasured {
			t += s.HostElapsed()
		}
	}
	return t
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
