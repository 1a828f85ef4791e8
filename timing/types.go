package timing

import (
	"fmt"
	"time"
)

// Target is what gets measured. Only Call is required.
type Target struct {
	// Call runs the statement n times. Callers compile the statement once
	// into a loop (for the interpreter: an interpreted func(n int)); Call
	// must not recompile it.
	Call func(n int) error
	// Sync waits until all queued device work has finished. Nil means the
	// target is synchronous.
	Sync func() error
	// Probe returns a snapshot of the runtime's cumulative counters. Nil
	// means no counters: no capture phase and no per-loop device counters.
	Probe func() Probe
	// Check verifies the statement's result. It runs outside every timed
	// interval, after a synchronize: after the cold call, after each
	// capture call, after the first replay (before sampling) and after the
	// last measured sample — so the call that is timed is the call that is
	// verified. ok false (or an error) stops the measurement with a
	// *CheckError naming the call; seen says what the check saw (for
	// example "y.Float32s()[5] is 13"), for that error.
	Check func() (ok bool, seen string, err error)
	// Record, when set, starts recording runtime facts and returns the
	// function that stops the recording and returns them. The engine
	// records around the cold call and the capture calls only, never
	// around a measured sample: the facts give the result's provenance
	// (devices, tensors read, compile-cache outcomes, JIT calls).
	Record func() (stop func() Facts)
	// Label names the target in errors ("statement 2: ..." reads better
	// as the statement itself). Optional.
	Label string
}

// CallKind says what one call of the statement did, as the probe saw it.
type CallKind string

// Call kinds. A JIT's first call runs its function normally: it is an
// ordinary call, like any call of a statement without a JIT.
const (
	CallOrdinary CallKind = "ordinary"
	CallCapture  CallKind = "capture"
	CallReplay   CallKind = "replay"
)

// kindOf classifies a call (or a run of calls) from its probe difference:
// a capture if the JIT captured, else a replay if it replayed, else an
// ordinary call.
func kindOf(d Probe) CallKind {
	switch {
	case d.JITCaptures > 0:
		return CallCapture
	case d.JITReplays > 0:
		return CallReplay
	}
	return CallOrdinary
}

// Probe is a snapshot of cumulative runtime counters. The engine works with
// differences between snapshots.
type Probe struct {
	Kernels     int64 `json:"kernels"`      // kernels launched
	Compiles    int64 `json:"compiles"`     // kernels compiled (cache misses), disk-cache loads included
	DiskHits    int64 `json:"disk_hits"`    // of Compiles: objects loaded from a disk cache, not compiled
	CacheHits   int64 `json:"cache_hits"`   // compile-cache hits
	JITCaptures int64 `json:"jit_captures"` // JIT capture calls
	JITReplays  int64 `json:"jit_replays"`  // JIT replay calls
	// FLOPs and Bytes are compiler estimates, not hardware counters.
	FLOPs float64 `json:"flops"`
	Bytes float64 `json:"bytes"`
	// Phases is cumulative time per runtime phase; see the Phase* keys.
	Phases map[string]time.Duration `json:"phases,omitempty"`
	// DeviceTime is kernel time by the clocks of devices that have one
	// (OpenCL's profiling stamps: each kernel from its started to its ended
	// stamp), read when the device synchronizes, and DeviceKernels the
	// kernels it covers; both 0 where the host's clock times the kernels.
	DeviceTime    time.Duration `json:"device_ns,omitempty"`
	DeviceKernels int64         `json:"device_kernels,omitempty"`
	// Transfers are copies between the host and a device's own memory or
	// between devices, TransferBytes their bytes and TransferHost their
	// time on the host; TransferDevice is the time by the device's clock
	// of TransfersClocked of them.
	Transfers        int64         `json:"transfers,omitempty"`
	TransferBytes    int64         `json:"transfer_bytes,omitempty"`
	TransferHost     time.Duration `json:"transfer_host_ns,omitempty"`
	TransferDevice   time.Duration `json:"transfer_device_ns,omitempty"`
	TransfersClocked int64         `json:"transfers_clocked,omitempty"`
	// Async reports that the device returns before work has finished.
	Async bool `json:"async"`
	// Debug is the runtime's DEBUG level.
	Debug int `json:"debug"`
}

// Runtime phase keys used in Probe.Phases, in the order TimeOnce reports
// them. Other keys are reported after these, sorted.
const (
	PhaseGraph    = "graph construction"
	PhaseSchedule = "scheduling"
	PhaseCodegen  = "code generation"
	PhaseCompile  = "compilation"
	PhaseAlloc    = "allocation"
	PhaseTransfer = "transfer"
	PhaseLaunch   = "launch"
	PhaseDevice   = "device execution"
	PhaseWait     = "waiting"
)

// RuntimePhases lists the Phase* keys in report order.
var RuntimePhases = []string{PhaseGraph, PhaseSchedule, PhaseCodegen, PhaseCompile,
	PhaseAlloc, PhaseTransfer, PhaseLaunch, PhaseDevice, PhaseWait}

func (p Probe) sub(q Probe) Probe {
	d := Probe{
		Kernels: p.Kernels - q.Kernels, Compiles: p.Compiles - q.Compiles, DiskHits: p.DiskHits - q.DiskHits,
		CacheHits: p.CacheHits - q.CacheHits, JITCaptures: p.JITCaptures - q.JITCaptures,
		JITReplays: p.JITReplays - q.JITReplays, FLOPs: p.FLOPs - q.FLOPs, Bytes: p.Bytes - q.Bytes,
		Async: p.Async, Debug: p.Debug,
	}
	d.setDevice(p.deviceOf().sub(q.deviceOf()))
	if len(p.Phases) > 0 {
		d.Phases = make(map[string]time.Duration, len(p.Phases))
		for k, v := range p.Phases {
			d.Phases[k] = v - q.Phases[k]
		}
	}
	return d
}

// add returns p plus the counter differences d (Async and Debug from d).
func (p Probe) add(d Probe) Probe {
	s := Probe{
		Kernels: p.Kernels + d.Kernels, Compiles: p.Compiles + d.Compiles, DiskHits: p.DiskHits + d.DiskHits,
		CacheHits: p.CacheHits + d.CacheHits, JITCaptures: p.JITCaptures + d.JITCaptures,
		JITReplays: p.JITReplays + d.JITReplays, FLOPs: p.FLOPs + d.FLOPs, Bytes: p.Bytes + d.Bytes,
		Async: d.Async, Debug: d.Debug,
	}
	s.setDevice(p.deviceOf().add(d.deviceOf()))
	if len(p.Phases)+len(d.Phases) > 0 {
		s.Phases = make(map[string]time.Duration, len(p.Phases)+len(d.Phases))
		for k, v := range p.Phases {
			s.Phases[k] = v
		}
		for k, v := range d.Phases {
			s.Phases[k] += v
		}
	}
	return s
}

// deviceCounts are a Probe's device-clock and transfer counters, so sub
// and add treat them alike.
type deviceCounts struct {
	time, transferHost, transferDevice       time.Duration
	kernels, transfers, bytes, clockedCopies int64
}

func (p Probe) deviceOf() deviceCounts {
	return deviceCounts{p.DeviceTime, p.TransferHost, p.TransferDevice, p.DeviceKernels, p.Transfers, p.TransferBytes, p.TransfersClocked}
}

func (p *Probe) setDevice(c deviceCounts) {
	p.DeviceTime, p.TransferHost, p.TransferDevice = c.time, c.transferHost, c.transferDevice
	p.DeviceKernels, p.Transfers, p.TransferBytes, p.TransfersClocked = c.kernels, c.transfers, c.bytes, c.clockedCopies
}

func (c deviceCounts) sub(d deviceCounts) deviceCounts {
	return deviceCounts{c.time - d.time, c.transferHost - d.transferHost, c.transferDevice - d.transferDevice,
		c.kernels - d.kernels, c.transfers - d.transfers, c.bytes - d.bytes, c.clockedCopies - d.clockedCopies}
}

func (c deviceCounts) add(d deviceCounts) deviceCounts {
	return deviceCounts{c.time + d.time, c.transferHost + d.transferHost, c.transferDevice + d.transferDevice,
		c.kernels + d.kernels, c.transfers + d.transfers, c.bytes + d.bytes, c.clockedCopies + d.clockedCopies}
}

// clocked is the device-clock time of the kernels and copies counted.
func (p Probe) clocked() time.Duration { return p.DeviceTime + p.TransferDevice }

// SyncMode says where the engine waits for device work.
type SyncMode string

// Sync modes.
const (
	// SyncSample synchronizes before t0 and before t1 of every sample: the
	// time includes completion of the work enqueued by the n calls.
	SyncSample SyncMode = "sample"
	// SyncIter synchronizes after every call: no overlap between calls.
	SyncIter SyncMode = "iter"
	// SyncNone never synchronizes inside the timed interval: on an
	// asynchronous device the time is enqueue time only, and the result
	// carries a warning. The queue is drained after every sample, outside
	// the timed interval, and the drain time is reported.
	SyncNone SyncMode = "none"
)

// ClockSource says which clock times the measured samples.
type ClockSource string

// Clock sources.
const (
	// ClockHost (the default): each sample is the host's time from before
	// its first call to after its final sync.
	ClockHost ClockSource = "host"
	// ClockDevice: each sample is the time of the kernels and copies its
	// calls ran on devices with a clock of their own (OpenCL's profiling
	// stamps), each from its started to its ended stamp, summed. The host's
	// time of the same samples is kept (DeviceTime.Host). The statement
	// must run work on such a device (ErrNoDeviceClock).
	ClockDevice ClockSource = "device"
)

// ParseClockSource parses "host" or "device".
func ParseClockSource(s string) (ClockSource, error) {
	switch c := ClockSource(s); c {
	case ClockHost, ClockDevice:
		return c, nil
	}
	return "", fmt.Errorf("timing: unknown clock %q: use host or device", s)
}

// GCMode says what the engine does about Go's garbage collector.
type GCMode string

// GC modes.
const (
	// GCCollect runs a collection between samples, outside the timed
	// region, whenever the next sample would otherwise be likely to
	// trigger one (the heap is near its goal), so collections stay out of
	// the samples without the cost of a collection before every sample.
	GCCollect GCMode = "collect"
	// GCOff disables the collector while sampling (restored afterwards).
	GCOff GCMode = "off"
	// GCKeep leaves the collector alone.
	GCKeep GCMode = "keep"
)

// ParseSyncMode parses "sample", "iter" or "none".
func ParseSyncMode(s string) (SyncMode, error) {
	switch m := SyncMode(s); m {
	case SyncSample, SyncIter, SyncNone:
		return m, nil
	}
	return "", fmt.Errorf("timing: unknown sync mode %q: use sample, iter or none", s)
}

// ParseGCMode parses "collect", "off" or "keep".
func ParseGCMode(s string) (GCMode, error) {
	switch m := GCMode(s); m {
	case GCCollect, GCOff, GCKeep:
		return m, nil
	}
	return "", fmt.Errorf("timing: unknown gc mode %q: use collect, off or keep", s)
}

// Clock reads a monotonic time. Tests inject synthetic clocks.
type Clock interface {
	// Now returns the time elapsed since some fixed origin.
	Now() time.Duration
}

type wallClock struct{ origin time.Time }

func (c wallClock) Now() time.Duration { return time.Since(c.origin) }

// WallClock returns the real monotonic clock.
func WallClock() Clock { return wallClock{time.Now()} }

// CallPhase names the phase a recorded call belongs to.
type CallPhase string

// Call phases, in the order they happen.
const (
	PhaseCold      CallPhase = "cold"
	PhaseCapture   CallPhase = "capture"
	PhaseWarmup    CallPhase = "warm-up"
	PhaseCalibrate CallPhase = "calibrate"
	PhaseMeasured  CallPhase = "measured"
)

// Options configure a measurement. The zero value is usable: every zero
// field takes the default documented on it.
type Options struct {
	// Loops is the number of calls per sample; 0 calibrates it.
	Loops int
	// Repeats is the number of measured samples; 0 samples until Budget is
	// spent (at least MinRepeats, at most MaxRepeats).
	Repeats int
	// Warmup is the number of warm-up calls; 0 warms up until stable.
	// Use NoWarmup for none.
	Warmup int
	// Budget is the total time a measurement aims to take; default 2 s.
	Budget time.Duration
	// Sync is where to wait for device work; default SyncSample.
	Sync SyncMode
	// GC is what to do about the garbage collector; default GCCollect.
	GC GCMode
	// Clock is the clock; default WallClock().
	Clock Clock
	// TimeBy is which clock times the measured samples; default
	// ClockHost.
	TimeBy ClockSource
	// Floor, when set, is the empty statement compiled the same way as the
	// target. Its samples go through exactly the harness the statement's
	// samples use (same loops, sync mode, collector policy and
	// bookkeeping), interleaved with them; their median per loop is the
	// harness floor subtracted from reported times. Without it the floor is
	// an empty sample (a call that does nothing, the syncs and the clock
	// reads) through the same harness.
	Floor *Target
	// Progress, when set, is called after every phase change and sample.
	// It runs outside the timed region; callers throttle their own output.
	Progress func(Progress)
	// Seed, when not 0, seeds Interleave's random order of the two
	// statements in each round (for repeatable tests); 0 draws a fresh
	// order for every comparison, which the sign test's exactness needs: a
	// fixed order would meet the same position effects (the first round
	// after preparation, the floor samples) the same way every time.
	Seed uint64
	// Provenance is what the caller knows (backend, device, inputs); the
	// engine fills the rest.
	Provenance Provenance
	// Confidence is the confidence level of the median's interval; default 0.95.
	Confidence float64
	// MaxCapture caps the capture calls; default 4.
	MaxCapture int
}

// NoWarmup, as Options.Warmup, skips the warm-up phase.
const NoWarmup = -1

// Defaults for Options and the calibration rule (see docs/timing.md).
const (
	DefaultBudget     = 2 * time.Second
	DefaultConfidence = 0.95
	MinRepeats        = 7
	MaxRepeats        = 1000
	maxWarmup         = 50
	stableWindow      = 3
	stableTolerance   = 0.10
)

func (o Options) withDefaults() Options {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.Sync == "" {
		o.Sync = SyncSample
	}
	if o.GC == "" {
		o.GC = GCCollect
	}
	if o.Clock == nil {
		o.Clock = WallClock()
	}
	if o.TimeBy == "" {
		o.TimeBy = ClockHost
	}
	if o.Confidence <= 0 || o.Confidence >= 1 {
		o.Confidence = DefaultConfidence
	}
	if o.MaxCapture <= 0 {
		o.MaxCapture = 4
	}
	return o
}

// Progress reports how far a measurement has come.
type Progress struct {
	Phase   CallPhase     `json:"phase"`
	Done    int           `json:"done"`  // samples taken in this phase
	Total   int           `json:"total"` // expected samples; 0 when unknown
	Elapsed time.Duration `json:"elapsed_ns"`
	// Median is the running median per loop of the measured samples (ns).
	Median float64 `json:"median_ns"`
}

// Sample is one timed interval.
type Sample struct {
	Phase CallPhase `json:"phase"`
	// N is the number of calls in the interval.
	N int `json:"n"`
	// Elapsed is t1 - t0: from before the first call to after the final sync.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Enqueued is t_enqueued - t0: until the last call returned, before the
	// final sync. Equal to Elapsed for SyncNone.
	Enqueued time.Duration `json:"enqueued_ns"`
	// GCs is the number of GC cycles that completed inside the interval.
	GCs uint32 `json:"gcs,omitempty"`
	// Call is what a single call before sampling did (cold, capture and
	// warm-up calls): ordinary, capture or replay; empty without a probe.
	Call CallKind `json:"call,omitempty"`
	// Drain is how long the device needed, after t1, to finish the work
	// the sample left queued (SyncNone only; not part of Elapsed).
	Drain time.Duration `json:"drain_ns,omitempty"`
	// CPU is the CPU time of the thread that made the calls, over the
	// interval (Linux, wall clock only; 0 otherwise): the interval less the
	// time the thread waited for a CPU, plus a clock read.
	CPU time.Duration `json:"cpu_ns,omitempty"`
	// Device is the time by the device's clock of the kernels and copies
	// the sample's calls ran on devices with a clock of their own (0 on
	// others). With ClockDevice, Elapsed is this time and Host keeps the
	// host's t1 - t0.
	Device time.Duration `json:"device_ns,omitempty"`
	Host   time.Duration `json:"host_ns,omitempty"`
	// Round is, for a measured sample of Interleave, the round it was
	// taken in (from 1): each round takes one sample of each statement,
	// back to back in random order.
	Round int `json:"round,omitempty"`
}

// HostElapsed is the sample's time by the host's clock, whichever clock
// timed it.
func (s Sample) HostElapsed() time.Duration {
	if s.Host > 0 {
		return s.Host
	}
	return s.Elapsed
}

// PerLoop returns the sample's time per call in nanoseconds.
func (s Sample) PerLoop() float64 { return float64(s.Elapsed) / float64(max(s.N, 1)) }
