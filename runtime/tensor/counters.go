package tensor

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tick-kernel/tick/internal/units"
)

// Stats is a snapshot of the runtime's counters since the last ResetCounters.
// FLOPs and bytes are estimates from the kernel IR (see Kernel.FLOPs and
// Kernel.Bytes), not hardware counts. Phase times are wall-clock sums; device
// time overlaps host phases because the device runs in its own goroutine.
type Stats struct {
	KernelsLaunched int64 // kernel launches enqueued (eager and JIT replay)
	EstFLOPs        int64 // estimated arithmetic operations of launched kernels
	EstBytes        int64 // estimated bytes moved by launched kernels
	MemoryInUse     int64 // bytes of live buffers (not reset by ResetCounters)
	Buffers         int64 // live buffers (not reset by ResetCounters)
	MemoryPooled    int64 // bytes of idle buffers the device pools keep for reuse (not reset)
	KernelsCompiled int64 // Backend.Compile calls (compile-cache misses)
	KernelsFromDisk int64 // of KernelsCompiled: objects loaded from the native disk cache, not compiled
	CacheHits       int64 // compile-cache hits
	JITCaptures     int64 // JIT calls that captured kernels
	JITReplays      int64 // JIT calls that replayed captured kernels
	Transfers       int64 // copies to or from a device's own memory, and between devices (To)
	TransferBytes   int64 // bytes those copies moved

	GraphBuild time.Duration // building lazy graph nodes (tensor ops)
	Schedule   time.Duration // turning graphs into kernels
	Codegen    time.Duration // rendering kernel source keys
	Compile    time.Duration // Backend.Compile
	Alloc      time.Duration // allocating buffers
	Transfer   time.Duration // copying data in (creation) and out (ToSlice)
	Launch     time.Duration // enqueueing launches
	DeviceExec time.Duration // kernels running: on host devices the workers' time, on a device with a clock (CL) its own stamps, summed at Synchronize
	SyncWait   time.Duration // waiting in Synchronize (and reads that synchronize)
	// DeviceClock is the part of DeviceExec timed by the clocks of devices
	// that have one (CL: each kernel from its started to its ended stamp),
	// read at Synchronize; KernelsClocked the kernels it covers. Both stay 0
	// on devices the host's clock times (CPU, GO).
	DeviceClock    time.Duration
	KernelsClocked int64
	// TransferHost is the host's time in the copies Transfers counts (the
	// transfer phase also holds the plain copies of host devices);
	// TransferDevice is the device-clock time of TransfersClocked of them,
	// on devices with a clock (CL), summed at Synchronize.
	TransferHost     time.Duration
	TransferDevice   time.Duration
	TransfersClocked int64
}

// String renders the snapshot on a few lines, estimates labelled.
func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernels launched %d, compiled %d (%d of them loaded from disk), cache hits %d, JIT captures %d, replays %d\n",
		s.KernelsLaunched, s.KernelsCompiled, s.KernelsFromDisk, s.CacheHits, s.JITCaptures, s.JITReplays)
	fmt.Fprintf(&b, "estimated %s, %s; memory in use %s in %d buffers (%s pooled)\n",
		units.Quantity(float64(s.EstFLOPs), "FLOP"), units.Quantity(float64(s.EstBytes), "B"),
		units.Quantity(float64(s.MemoryInUse), "B"), s.Buffers, units.Quantity(float64(s.MemoryPooled), "B"))
	fmt.Fprintf(&b, "time: graph %v, schedule %v, codegen %v, compile %v, alloc %v, transfer %v, launch %v, device %v, sync wait %v",
		s.GraphBuild, s.Schedule, s.Codegen, s.Compile, s.Alloc, s.Transfer, s.Launch, s.DeviceExec, s.SyncWait)
	if s.KernelsClocked > 0 {
		fmt.Fprintf(&b, "\nby the device's clock: %d kernels in %v", s.KernelsClocked, s.DeviceClock)
	}
	if s.Transfers > 0 {
		fmt.Fprintf(&b, "\ntransfers %d, %s, %v on the host", s.Transfers, units.Quantity(float64(s.TransferBytes), "B"), s.TransferHost)
		if s.TransfersClocked > 0 {
			fmt.Fprintf(&b, ", %d of them in %v on the device's clock", s.TransfersClocked, s.TransferDevice)
		}
	}
	return b.String()
}

// counters are process-wide because devices, caches and the JIT are; they are
// atomics so device workers update them without locks. The ones device
// workers add to (device time) are on cache lines of their own: a JIT
// replay adds to five of the callers' counters while the worker adds the
// previous item's device time, and sharing a line made each add wait for
// the line to come back from the other core.
var counters struct {
	launched, flops, bytes, memInUse, buffers    atomic.Int64
	compiled, cacheHits, jitCaptures, jitReplays atomic.Int64
	graphNS, scheduleNS, codegenNS, compileNS    atomic.Int64
	allocNS, transferNS, launchNS                atomic.Int64
	syncWait, diskHits                           atomic.Int64
	transfers, transferBytes, transferHostNS     atomic.Int64
	transfersClocked                             atomic.Int64
	_                                            [cacheLine]byte
	deviceNS, clockNS, clockKernels              atomic.Int64
	transferDeviceNS                             atomic.Int64
	_                                            [cacheLine]byte
}

// cacheLine is a cache line's size on the CPUs tick runs on, with room for
// adjacent-line prefetch (two 64-byte lines).
const cacheLine = 128

// Counters returns a snapshot of the runtime's counters.
func Counters() Stats {
	c := &counters
	d := func(a *atomic.Int64) time.Duration { return time.Duration(a.Load()) }
	return Stats{
		KernelsLaunched: c.launched.Load(), EstFLOPs: c.flops.Load(), EstBytes: c.bytes.Load(),
		MemoryInUse: c.memInUse.Load(), Buffers: c.buffers.Load(), MemoryPooled: pooledBytes(false),
		KernelsCompiled: c.compiled.Load(), KernelsFromDisk: c.diskHits.Load(), CacheHits: c.cacheHits.Load(),
		JITCaptures: c.jitCaptures.Load(), JITReplays: c.jitReplays.Load(),
		GraphBuild: d(&c.graphNS), Schedule: d(&c.scheduleNS), Codegen: d(&c.codegenNS),
		Compile: d(&c.compileNS), Alloc: d(&c.allocNS), Transfer: d(&c.transferNS),
		Launch: d(&c.launchNS), DeviceExec: d(&c.deviceNS), SyncWait: d(&c.syncWait),
		Transfers: c.transfers.Load(), TransferBytes: c.transferBytes.Load(), TransferDevice: d(&c.transferDeviceNS),
		DeviceClock: d(&c.clockNS), KernelsClocked: c.clockKernels.Load(), TransferHost: d(&c.transferHostNS),
		TransfersClocked: c.transfersClocked.Load(),
	}
}

// ResetCounters zeroes every counter except MemoryInUse and Buffers, which
// describe live state.
func ResetCounters() {
	c := &counters
	for _, a := range []*atomic.Int64{&c.launched, &c.flops, &c.bytes, &c.compiled, &c.cacheHits,
		&c.jitCaptures, &c.jitReplays, &c.graphNS, &c.scheduleNS, &c.codegenNS, &c.compileNS,
		&c.allocNS, &c.transferNS, &c.launchNS, &c.deviceNS, &c.syncWait, &c.diskHits,
		&c.transfers, &c.transferBytes, &c.transferDeviceNS, &c.clockNS, &c.clockKernels, &c.transferHostNS,
		&c.transfersClocked} {
		a.Store(0)
	}
}

// addPhase adds the time since t0 to a phase counter and, while a profile
// is taken, records the span (events.go).
func addPhase(a *atomic.Int64, t0 time.Time) {
	el := time.Since(t0)
	a.Add(int64(el))
	if prof.on.Load() {
		recordPhase(a, t0, el)
	}
}

// addPhaseAt is addPhase from a stamp; it returns the stamp of now, so
// consecutive phases share their boundary reading.
func addPhaseAt(a *atomic.Int64, t0 stamp) stamp {
	t1 := max(monoNow(), t0) // stamps of two cores may differ by a few ns
	a.Add(int64(t1 - t0))
	if prof.on.Load() {
		recordPhase(a, t0.time(), time.Duration(t1-t0))
	}
	return t1
}
