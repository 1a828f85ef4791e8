package timing

import (
	"fmt"
	"time"
)

// Result is one measurement: raw samples, statistics, warnings and
// provenance. json.Marshal keeps all of it (durations in nanoseconds).
type Result struct {
	// Label names what was measured (the caller sets it, e.g. the statement).
	Label string `json:"label,omitempty"`
	// Samples are every timed interval in order: cold, capture, warm-up,
	// calibration and measured samples.
	Samples []Sample `json:"samples"`
	// Loops is the number of calls per measured sample; Repeats the number
	// of measured samples.
	Loops   int      `json:"loops"`
	Repeats int      `json:"repeats"`
	Sync    SyncMode `json:"sync"`
	GC      GCMode   `json:"gc"`
	// Stats are per-loop times of the measured samples with the floor
	// subtracted.
	Stats Stats `json:"stats"`
	// EnqueueMedian is the median per-loop time until the calls returned,
	// before the final sync (ns, floor not subtracted).
	EnqueueMedian float64 `json:"enqueue_median_ns"`
	// Floor is the harness cost per loop (ns) subtracted from Stats, and
	// FloorSource how it was measured ("empty statement" or "empty sample").
	Floor       float64 `json:"floor_ns"`
	FloorSource string  `json:"floor_source"`
	// Resolution is the measured timer resolution; SyncCost the median cost
	// of an empty Sync; SampleTarget the sample length calibration aimed at.
	Resolution   time.Duration `json:"resolution_ns"`
	SyncCost     time.Duration `json:"sync_cost_ns"`
	SampleTarget time.Duration `json:"sample_target_ns"`
	// Cold is the first call.
	Cold Cold `json:"cold"`
	// Captures is the number of capture calls; Replaying reports that the
	// probe showed the JIT replaying before measurement.
	Captures  int  `json:"captures"`
	Replaying bool `json:"replaying"`
	// Warmups is the number of warm-up calls and WarmCall the median time
	// of one synchronized warm-up call.
	Warmups  int           `json:"warmups"`
	WarmCall time.Duration `json:"warm_call_ns"`
	// Counters are runtime counters per loop; nil without a probe.
	Counters *Counters `json:"counters,omitempty"`
	// Memory is Go heap activity during the measured samples.
	Memory Memory `json:"memory"`
	// Async and Debug are what the probe reported about the device.
	Async bool `json:"async"`
	Debug int  `json:"debug"`
	// Elapsed is the wall time of the whole measurement.
	Elapsed    time.Duration `json:"elapsed_ns"`
	Warnings   []Warning     `json:"warnings"`
	Provenance Provenance    `json:"provenance"`
}

// Cold describes the first call.
type Cold struct {
	Time      time.Duration `json:"time_ns"`
	Compiles  int64         `json:"compiles"`
	CacheHits int64         `json:"cache_hits"`
	Kernels   int64         `json:"kernels"`
}

// Counters are runtime counters per loop during the measured samples.
// FLOPs and bytes are compiler estimates.
type Counters struct {
	Kernels float64 `json:"kernels_per_loop"`
	FLOPs   float64 `json:"flops_per_loop"`
	Bytes   float64 `json:"bytes_per_loop"`
	// GFLOPS and GBps divide the estimates by the median per-loop time.
	GFLOPS float64 `json:"gflops"`
	GBps   float64 `json:"gbps"`
}

// Memory is Go heap activity during the measured samples.
type Memory struct {
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	// GCCycles is the number of collections that completed inside timed
	// intervals.
	GCCycles uint32 `json:"gc_cycles"`
}

// Measured returns the per-loop times (ns, floor not subtracted) of the
// measured samples.
func (r *Result) Measured() []float64 {
	var xs []float64
	for _, s := range r.Samples {
		if s.Phase == PhaseMeasured {
			xs = append(xs, s.PerLoop())
		}
	}
	return xs
}

// CheckError reports that Target.Check returned false after the cold call.
type CheckError struct{}

func (e *CheckError) Error() string { return "timing: " + e.detail() }

func (*CheckError) detail() string {
	return "the check after the cold call is false: the statement computed a wrong result, so its time would mean nothing; fix the statement or the --check expression"
}

// RecaptureError reports that JIT captures or kernel compiles increased
// while samples were taken, so samples would mix compiling and running.
// With tensor.JIT a changed input shape, dtype or device fails at the call
// (a JITError) before sampling; this error means the statement builds a new
// JIT or new kernels on every call.
type RecaptureError struct {
	Sample   int   // index of the measured sample
	Captures int64 // new JIT captures during it
	Compiles int64 // new kernel compilations during it
}

func (e *RecaptureError) Error() string { return "timing: " + e.detail() }

func (e *RecaptureError) detail() string {
	return fmt.Sprintf("JIT captures and kernel compiles increased during measured sample %d (+%d captures, +%d compiles): "+
		"the statement builds a new JIT or new kernels on every call (for example tensor.JIT(...) inside the timed statement, "+
		"or, without a JIT, inputs whose shape changes from call to call), so its samples would mix compiling and running; "+
		"create the JIT once outside the timed statement (in an earlier cell or the setup), keep input shapes fixed, "+
		"or time the cold path once with %%time", e.Sample, e.Captures, e.Compiles)
}

// ErrNoCall reports a Target without a Call function.
var ErrNoCall error = sentinel("target has no Call function")
