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
	Loops   int `json:"loops"`
	Repeats int `json:"repeats"`
	// LoopsGiven reports that Loops was given (-n), not calibrated.
	LoopsGiven bool     `json:"loops_given"`
	Sync       SyncMode `json:"sync"`
	// TimeBy is the clock that timed the samples: ClockHost, or
	// ClockDevice (--clock=device), where Stats, the samples' Elapsed and
	// the floor are device-clock times and Device.Host has the host's.
	TimeBy ClockSource `json:"time_by"`
	GC     GCMode      `json:"gc"`
	// Stats are per-loop times of the measured samples with the floor
	// subtracted.
	Stats Stats `json:"stats"`
	// CPU summarizes the calling thread's CPU time per loop over the
	// measured samples, the floor's median subtracted (at least 0); nil
	// where the thread's CPU time is not measured. For a statement that
	// runs on the host it is what the statement costs when it has a CPU:
	// the wall time less the waits for one. FloorCPU is the floor's CPU
	// time per loop.
	CPU      *Stats  `json:"cpu,omitempty"`
	FloorCPU float64 `json:"floor_cpu_ns,omitempty"`
	// EnqueueMedian is the median per-loop time until the calls returned,
	// before the final sync (ns, floor not subtracted).
	EnqueueMedian float64 `json:"enqueue_median_ns"`
	// Floor is the harness cost per loop (ns) subtracted from Stats, and
	// FloorSource how it was measured ("empty statement" or "empty sample").
	// FloorSamples are the floor's samples, taken through the same harness
	// and interleaved with the measured ones.
	Floor        float64  `json:"floor_ns"`
	FloorSource  string   `json:"floor_source"`
	FloorSamples []Sample `json:"floor_samples,omitempty"`
	// FloorClamped counts measured samples whose per-loop time was below
	// the floor: they count as 0 in Stats (a time is never negative), and
	// Text says so.
	FloorClamped int `json:"floor_clamped,omitempty"`
	// Resolution is the measured timer resolution; SyncCost the median cost
	// of an empty Sync; SampleTarget the sample length calibration aimed at.
	Resolution   time.Duration `json:"resolution_ns"`
	SyncCost     time.Duration `json:"sync_cost_ns"`
	SampleTarget time.Duration `json:"sample_target_ns"`
	// Cold is the first call.
	Cold Cold `json:"cold"`
	// JIT reports that the statement called a JIT; JITCallsBefore how many
	// times that JIT had been called before this measurement (from the
	// runtime's facts; 0 when fresh or unknown).
	JIT            bool `json:"jit"`
	JITCallsBefore int  `json:"jit_calls_before"`
	// Captures is the number of calls that captured (the cold call
	// included, when it was the capture); CaptureTime their total time.
	// Replaying reports that the JIT replayed before measurement (always
	// true for a statement without a JIT); FirstReplay is the time of the
	// first replay (the cold call's when that was one).
	Captures    int           `json:"captures"`
	CaptureTime time.Duration `json:"capture_ns"`
	Replaying   bool          `json:"replaying"`
	FirstReplay time.Duration `json:"first_replay_ns,omitempty"`
	// Warmups is the number of warm-up calls and WarmCall the median time
	// of one synchronized warm-up call.
	Warmups  int           `json:"warmups"`
	WarmCall time.Duration `json:"warm_call_ns"`
	// Checks lists the --check runs, in order; all passed (a failed one
	// stops the measurement with a *CheckError).
	Checks []CheckRun `json:"checks,omitempty"`
	// Drain is, with SyncNone, the total time the device needed after the
	// measured samples' t1 to finish their work (outside the timed
	// intervals); DrainMax the longest after one sample.
	Drain    time.Duration `json:"drain_ns,omitempty"`
	DrainMax time.Duration `json:"drain_max_ns,omitempty"`
	// Group identifies the results measured together by one Interleave
	// call (empty for Measure); Started and Finished bound the sampling.
	Group    string    `json:"group,omitempty"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Counters are runtime counters per loop; nil without a probe.
	Counters *Counters `json:"counters,omitempty"`
	// Device is the measured samples' work by the clocks of the devices
	// that have one (CL), beside the host's time; nil when no kernel or
	// copy ran on such a device.
	Device *DeviceTime `json:"device,omitempty"`
	// Transfers are the copies per loop of the measured samples; nil
	// without any.
	Transfers *Transfers `json:"transfers,omitempty"`
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
	Time time.Duration `json:"time_ns"`
	// Compiles are kernels the backend compiled, DiskHits those it loaded
	// from its disk cache instead, CacheHits those found in memory.
	Compiles  int64 `json:"compiles"`
	DiskHits  int64 `json:"disk_hits"`
	CacheHits int64 `json:"cache_hits"`
	Kernels   int64 `json:"kernels"`
	// Kind is what the call did; JITCall its number in the JIT's life (0
	// without a JIT or facts): 1 ran the function, 2 captured, 3+ replayed.
	Kind    CallKind `json:"kind,omitempty"`
	JITCall int      `json:"jit_call,omitempty"`
}

// CheckRun is one run of the check: when, and on what kind of call.
type CheckRun struct {
	When string   `json:"when"`
	Call CallKind `json:"call,omitempty"`
}

// Counters are runtime counters per loop during the measured samples.
// FLOPs and bytes are compiler estimates.
type Counters struct {
	Kernels float64 `json:"kernels_per_loop"`
	FLOPs   float64 `json:"flops_per_loop"`
	Bytes   float64 `json:"bytes_per_loop"`
	// GFLOPS and GBps divide the estimates by the median per-loop time;
	// both are 0 when NoThroughput says why no rate can be claimed (the
	// times exclude the device's work, or the device runs no kernels).
	GFLOPS       float64 `json:"gflops"`
	GBps         float64 `json:"gbps"`
	NoThroughput string  `json:"no_throughput,omitempty"`
}

// DeviceTime is what the clocks of devices with a clock of their own
// (OpenCL's profiling stamps) measured of the samples: each kernel and
// copy from its started to its ended stamp, summed. It excludes what the
// host does (the interpreter, launching, synchronizing) and the device's
// idle time between commands.
type DeviceTime struct {
	// Devices names the devices whose clocks these are ("CL").
	Devices []string `json:"devices,omitempty"`
	// Stats are the per-loop device times of the measured samples
	// (kernels and copies).
	Stats Stats `json:"stats"`
	// Kernels and Copies are the commands per loop the clocks timed,
	// KernelTime and CopyTime their mean device time per loop over all
	// measured samples (ns; Stats has the median of both together).
	Kernels    float64 `json:"kernels_per_loop"`
	KernelTime float64 `json:"kernel_ns_per_loop"`
	Copies     float64 `json:"copies_per_loop,omitempty"`
	CopyTime   float64 `json:"copy_ns_per_loop,omitempty"`
	// Host are the same samples by the host's clock, HostFloor (ns per
	// loop, the floor's samples by the host's clock) subtracted, when the
	// device clock timed the samples (Result.TimeBy is ClockDevice); nil
	// otherwise (then Result.Stats are the host's).
	Host      *Stats  `json:"host_stats,omitempty"`
	HostFloor float64 `json:"host_floor_ns,omitempty"`
}

// Transfers are the copies of the measured samples per loop: between the
// host and a device's own memory, or between devices. Directions come
// from the calls before sampling ("host→CL").
type Transfers struct {
	Directions []string `json:"directions,omitempty"`
	Copies     float64  `json:"copies_per_loop"`
	Bytes      float64  `json:"bytes_per_loop"`
	// Host is their time on the host per loop (ns, the median of the
	// samples'); Device by the device's clock (the median of the samples'),
	// of Clocked copies per loop (0 where no device has a clock).
	Host    float64 `json:"host_ns_per_loop"`
	Device  float64 `json:"device_ns_per_loop,omitempty"`
	Clocked float64 `json:"clocked_per_loop,omitempty"`
}

// Memory is Go heap activity. Bytes and allocations per call come from one
// untimed batch of Loops calls between two exact heap readings (reading
// the heap's statistics exactly flushes the allocator's caches, so it is
// never done around a timed sample), minus the same batch of the floor.
type Memory struct {
	// BytesPerOp and AllocsPerOp are the statement's own, the harness's
	// (the interpreted loop's, from the floor) subtracted.
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	// HarnessBytesPerOp and HarnessAllocsPerOp are the floor's.
	HarnessBytesPerOp  float64 `json:"harness_bytes_per_op,omitempty"`
	HarnessAllocsPerOp float64 `json:"harness_allocs_per_op,omitempty"`
	// Source says who allocates: SourceInterpreter, SourceRuntime or
	// SourceCode ("" when nothing is allocated).
	Source string `json:"source,omitempty"`
	// GCCycles is the number of collections that completed inside timed
	// intervals; Collections the number the harness ran between samples
	// (GCCollect).
	GCCycles    uint32 `json:"gc_cycles"`
	Collections int    `json:"collections,omitempty"`
}

// Memory sources: who allocates what Memory counts.
const (
	// SourceInterpreter: the statement only replays JITs, which allocate
	// nothing; the allocations are the interpreter's, calling into the
	// runtime. Nothing in the statement can change them.
	SourceInterpreter = "interpreter"
	// SourceRuntime: the runtime builds and schedules graphs on every call
	// (eager tensor operations); a JIT replays them without allocating.
	SourceRuntime = "runtime"
	// SourceCode: the statement's own Go code (as interpreted).
	SourceCode = "code"
)

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

// NetOfFloor returns r's measured per-loop times with the floor
// subtracted, each at least 0, and how many were below the floor.
func (r *Result) NetOfFloor() (xs []float64, clamped int) {
	xs = r.Measured()
	for i := range xs {
		if xs[i] -= r.Floor; xs[i] < 0 {
			xs[i], clamped = 0, clamped+1
		}
	}
	return xs, clamped
}

// CheckError reports that Target.Check was false: When says at which call
// ("the cold call", "capture call 1", "the first replay, before
// sampling", "the last call, after sampling"), Call what that call did,
// and Seen what the check saw.
type CheckError struct {
	When string
	Call CallKind
	Seen string
}

func (e *CheckError) Error() string { return "timing: " + e.detail() }

func (e *CheckError) detail() string {
	what := "the check is false"
	if e.Seen != "" {
		what = e.Seen
	}
	call, fix := "", "the statement or the --check expression"
	why := "the statement computed a wrong result, so its time would mean nothing"
	switch e.Call {
	case CallOrdinary:
		call = " (an ordinary call)"
	case CallCapture:
		call, fix = " (the JIT's capture call)", "the statement, the JIT's function or the --check expression"
		why = "the capture call computed a wrong result, and its replays would repeat it"
	case CallReplay:
		call, fix = " (a replay of the JIT)", "the statement, the JIT's function or the --check expression"
		why = "a replay runs only the kernels captured on the JIT's second call (Go code in the JIT's function, and values " +
			"it reads from outside its inputs, are frozen at the capture), so it can compute something else than the " +
			"ordinary call did; the time of a wrong answer means nothing"
	}
	return fmt.Sprintf("--check is false after %s%s: %s; %s. Nothing was timed: fix %s", e.When, call, what, why, fix)
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

// ErrNoDeviceClock reports that ClockDevice was asked for and the
// statement's calls ran no kernel or copy on a device with a clock of its
// own.
type ErrNoDeviceClock struct {
	Kernels int64 // kernels a call launched (timed by the host's clock)
}

func (e *ErrNoDeviceClock) Error() string {
	ran := "it launched no kernels"
	if e.Kernels > 0 {
		ran = fmt.Sprintf("its %d kernels per call ran on devices the host's clock times (CPU, GO)", e.Kernels)
	}
	return "timing: --clock=device times kernels and copies by the clock of a device that has one (OpenCL's profiling " +
		"stamps), but the statement ran none there: " + ran + "; run it on such a device (DEVICE=CL, x.To(\"CL\")) or time it by the host's clock"
}

// ErrNoCall reports a Target without a Call function.
var ErrNoCall error = sentinel("target has no Call function")
