package timing

import (
	"fmt"
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
)

// Warning thresholds.
const (
	ColdFactor       = 10.0
	WorstBestFactor  = 4.0
	VariationLimit   = 0.10
	ResolutionFactor = 100
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
		if r.Cold.Compiles > 0 {
			what = fmt.Sprintf("compilation dominates the first call (%d kernels compiled)", r.Cold.Compiles)
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
	if r.Sync == SyncNone && r.Async {
		add(WarnEnqueueOnly, "use --sync=sample (the default) to include the device's work",
			"--sync=none on an asynchronous device: %s per loop is the enqueue time, not the time for the work to finish",
			FormatDuration(st.Median, 3))
	}
	if r.Debug >= 2 {
		add(WarnDebugActive, "set DEBUG=0 (or 1) when timing; use DEBUG≥2 to find a cause, not to measure it",
			"DEBUG=%d is active: per-kernel waits and printing perturb the timing", r.Debug)
	}
	if r.Memory.GCCycles > 0 {
		add(WarnGC, "use --gc=off, or allocate less in the statement (see B/op)",
			"%d garbage collections ran inside timed samples", r.Memory.GCCycles)
	}
	if r.Repeats > 0 && r.Resolution > 0 && medianSample(r) < ResolutionFactor*r.Resolution {
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
	return ws
}

func medianSample(r *Result) time.Duration {
	var xs []float64
	for _, s := range r.Samples {
		if s.Phase == PhaseMeasured {
			xs = append(xs, float64(s.Elapsed))
		}
	}
	if len(xs) == 0 {
		return 0
	}
	st := Summarize(xs, DefaultConfidence)
	return durationOf(st.Median)
}
