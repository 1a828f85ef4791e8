package tensor

// The event recorder: while a profile is taken (StartProfile … StopProfile)
// the runtime records what it does — each kernel launch (enqueued on the
// host, started and ended on the device worker), and spans for graph
// construction, scheduling, codegen, compilation (with cache state),
// allocation, transfers, launches, synchronize waits and JIT calls — into a
// bounded buffer. Nothing is synchronized for it: the program runs as it
// normally does, and the timeline shows how host and device overlap.
//
// Off (the default), each hook costs one atomic load. On, an event is a
// 64-byte value stored into a preallocated slice (no allocation, so a JIT
// replay stays allocation-free); when the slice is full, later events are
// counted as dropped, never grown into. A device's small launches, which
// normally run as one batched call, run one by one while recording so each
// gets its own start and end.

import (
	"github.com/tick-kernel/tick/runtime/device"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// EventKind says what an Event records.
type EventKind uint8

// Event kinds. EventKernel is on a device's lane, EventCopy on its
// transfers lane; the others are on the host (EventCompile may run on
// several compiler goroutines at once).
const (
	EventKernel   EventKind = iota // a kernel launch on a device worker
	EventGraph                     // building lazy graph nodes (one tensor op)
	EventSchedule                  // turning graphs into kernels (one Realize)
	EventCodegen                   // rendering kernel keys
	EventCompile                   // Backend.Compile of one kernel, or a cache hit (Detail)
	EventAlloc                     // allocating one buffer
	EventTransfer                  // copying data in or out
	EventLaunch                    // enqueueing one queue item of launches
	EventSync                      // waiting in Synchronize
	EventJIT                       // one JIT call (Name: cold, capture, replay)
	EventMark                      // a span marked by the caller (ProfileSpan)
	EventCopy                      // a copy on a device's queue, by its clock (Name: "host→CL"; Bytes)
	numEventKinds
)

var eventKindNames = [numEventKinds]string{
	EventKernel: "kernel", EventGraph: "graph", EventSchedule: "schedule", EventCodegen: "codegen",
	EventCompile: "compile", EventAlloc: "alloc", EventTransfer: "transfer", EventLaunch: "launch",
	EventSync: "sync", EventJIT: "jit", EventMark: "mark", EventCopy: "copy",
}

// String is the kind's lower-case name ("kernel", "compile", ...).
func (k EventKind) String() string {
	if k < numEventKinds {
		return eventKindNames[k]
	}
	return "unknown"
}

// ParseEventKind is the inverse of EventKind.String.
func ParseEventKind(s string) (EventKind, bool) {
	for k, n := range eventKindNames {
		if n == s {
			return EventKind(k), true
		}
	}
	return 0, false
}

// Event is one recorded span. Times are offsets from the profile's start
// on the monotonic clock.
type Event struct {
	Kind   EventKind
	Device string // the device: a kernel's lane; for host spans the device concerned, if any
	Name   string // kernel name, JIT phase, mark name; empty for anonymous host spans
	// Detail is, for EventCompile, "compiled", "disk cache" or "memory
	// cache"; for EventKernel, the Region the kernel was scheduled in
	// ("forward", "backward", "optimizer"; "" outside any region).
	Detail string
	Key    string // EventKernel and EventCompile: the kernel's Key (its canonical source)

	Start, End time.Duration
	// Enqueued is, for a kernel, when its launch was enqueued on the host
	// (End - Enqueued is its latency; Start - Enqueued its queueing delay).
	Enqueued time.Duration

	Shape        []int // EventKernel: the iteration space (shared: do not modify)
	FLOPs, Bytes int64 // EventKernel: estimates from the IR (Kernel.FLOPs, Kernel.Bytes); EventCopy: the bytes copied
	Call         int   // EventJIT: the JIT's call number (1 cold, 2 capture, 3+ replay)
}

// Duration is End - Start.
func (e Event) Duration() time.Duration { return e.End - e.Start }

// Recording is what StopProfile returns: every event kept, in the order
// they were recorded (not sorted by time: device and host events
// interleave), and how many did not fit.
type Recording struct {
	Start    time.Time     // wall-clock time StartProfile was called
	Duration time.Duration // from StartProfile to StopProfile
	Events   []Event
	Capacity int   // the buffer's size in events
	Dropped  int64 // events not recorded because the buffer was full
	// Clamped counts events whose stamps were moved so that no time is
	// negative and none runs backwards (a start before the profile began,
	// an end before its start, a kernel started before it was enqueued):
	// host spans read the monotonic clock, kernels the phase clock
	// (clock.go), which agree within its stated error bound.
	Clamped int
	// Clocks are the devices whose kernels and copies were timed by their
	// own clock, with how they were put on the host's clock.
	Clocks []DeviceClock
}

// DeviceClock says that a device's events in a recording are its own
// stamps (started and ended by its clock), put on the host's timeline by
// an offset measured within Bound (stamps.go).
type DeviceClock struct {
	Device string
	Bound  time.Duration
}

// rawEvent is an Event as recorded: pointers instead of copied fields, so a
// record is a 72-byte store.
type rawEvent struct {
	kind  EventKind
	call  int32
	dev   *Dev
	k     *Kernel // kernel and compile events
	name  string  // marks, JIT phases, compile cache state, a kernel's region
	start int64   // ns since the epoch
	end   int64
	enq   int64 // kernels and copies: enqueue time
	bytes int64 // copies
}

// DefaultProfileCapacity is the buffer StartProfile(0) allocates: 65,536
// events (4.5 MiB).
const DefaultProfileCapacity = 1 << 16

// prof is process-wide, like the devices whose work it records; one
// profile at a time.
var prof struct {
	on      atomic.Bool  // read by every hook; the only cost when off
	writers atomic.Int32 // hooks between their check of on and their store
	n       atomic.Int64 // events reserved (may exceed len(buf): dropped)
	buf     []rawEvent
	epoch   time.Time

	mu sync.Mutex // serializes StartProfile and StopProfile
}

// ProfileError is returned by StartProfile when a profile is already being
// taken.
type ProfileError struct{ Msg string }

func (e *ProfileError) Error() string { return "tensor: " + e.Msg }

// StartProfile starts recording runtime events into a buffer of capacity
// events (DefaultProfileCapacity when capacity ≤ 0). Only one profile is
// taken at a time: a second StartProfile before StopProfile is an error.
func StartProfile(capacity int) error {
	prof.mu.Lock()
	defer prof.mu.Unlock()
	if prof.on.Load() {
		return &ProfileError{Msg: "a profile is already being taken; StopProfile it first"}
	}
	if capacity <= 0 {
		capacity = DefaultProfileCapacity
	}
	if cap(prof.buf) >= capacity {
		prof.buf = prof.buf[:capacity]
	} else {
		prof.buf = make([]rawEvent, capacity)
	}
	prof.n.Store(0)
	prof.epoch = monoNow().time() // the phase clock's, like the kernel lane's stamps
	prof.on.Store(true)
	return nil
}

// Profiling reports whether a profile is being taken.
func Profiling() bool { return prof.on.Load() }

// StopProfile stops recording and returns the events, or nil when no
// profile was being taken. It does not synchronize: call SynchronizeAll
// first to include every enqueued kernel.
func StopProfile() *Recording { return stopProfile(true) }

// stopProfile is StopProfile; without clamp the stamps are exported as
// recorded (the clock tests look at them raw).
func stopProfile(clamp bool) *Recording {
	prof.mu.Lock()
	defer prof.mu.Unlock()
	if !prof.on.Load() {
		return nil
	}
	prof.on.Store(false)
	dur := time.Since(prof.epoch)
	for prof.writers.Load() != 0 { // a hook that saw on is still storing
		runtime.Gosched()
	}
	n := prof.n.Load()
	kept := min(n, int64(len(prof.buf)))
	rec := &Recording{Start: prof.epoch, Duration: dur, Capacity: len(prof.buf), Dropped: n - kept,
		Events: make([]Event, kept)}
	est := map[*Kernel][2]int64{} // FLOPs and Bytes walk the IR: once per kernel
	clocked := map[*Dev]bool{}
	for i := range rec.Events {
		if d := prof.buf[i].dev; d != nil && d.stamped != nil && !clocked[d] && (prof.buf[i].kind == EventKernel || prof.buf[i].kind == EventCopy) {
			clocked[d] = true
			rec.Clocks = append(rec.Clocks, DeviceClock{Device: d.name, Bound: d.clockBound()})
		}
		rec.Events[i] = prof.buf[i].export(est)
		if clamp && rec.Events[i].clamp() {
			rec.Clamped++
		}
		prof.buf[i] = rawEvent{} // drop the references
	}
	return rec
}

// ProfileSpan records a span from start to now on the host lane with the
// given name (the %prof magic marks each call of its statement this way).
// It does nothing when no profile is being taken.
func ProfileSpan(name string, start time.Time) {
	if prof.on.Load() {
		record(rawEvent{kind: EventMark, name: name}, start, time.Now())
	}
}

// record stores e with its times; callers check prof.on first so the
// clock is read only while profiling.
func record(e rawEvent, start, end time.Time) {
	prof.writers.Add(1)
	if prof.on.Load() {
		e.start, e.end = int64(start.Sub(prof.epoch)), int64(end.Sub(prof.epoch))
		if i := prof.n.Add(1) - 1; i < int64(len(prof.buf)) {
			prof.buf[i] = e
		}
	}
	prof.writers.Add(-1)
}

// recordPhase is addPhase's hook: the counter says which kind of span.
func recordPhase(a *atomic.Int64, start time.Time, el time.Duration) {
	var k EventKind
	switch a {
	case &counters.graphNS:
		k = EventGraph
	case &counters.scheduleNS:
		k = EventSchedule
	case &counters.codegenNS:
		k = EventCodegen
	case &counters.allocNS:
		k = EventAlloc
	case &counters.transferNS:
		k = EventTransfer
	case &counters.launchNS:
		k = EventLaunch
	case &counters.syncWait:
		k = EventSync
	default:
		return // compile spans are recorded with their kernel (recordCompile)
	}
	record(rawEvent{kind: k}, start, start.Add(el))
}

// recordKernel records a launch of k on d, scheduled in region, which ran
// from start for el.
func recordKernel(d *Dev, k *Kernel, region string, enq, start stamp, el time.Duration) {
	prof.writers.Add(1)
	if prof.on.Load() {
		e := rawEvent{kind: EventKernel, dev: d, k: k, name: region, enq: int64(enq.time().Sub(prof.epoch))}
		e.start = int64(start.time().Sub(prof.epoch))
		e.end = e.start + int64(el)
		if i := prof.n.Add(1) - 1; i < int64(len(prof.buf)) {
			prof.buf[i] = e
		}
	}
	prof.writers.Add(-1)
}

// recordCompile records compiling k on d (state "compiled", "disk cache")
// or finding it compiled ("memory cache", a zero-length span).
func recordCompile(d *Dev, k *Kernel, state string, start, end time.Time) {
	record(rawEvent{kind: EventCompile, dev: d, k: k, name: state}, start, end)
}

// jitPhases names a JIT call by its number.
var jitPhases = [...]string{"cold", "capture", "replay"}

// recordJIT records JIT call n, which started at start.
func recordJIT(n int, start time.Time) {
	record(rawEvent{kind: EventJIT, call: int32(n), name: jitPhases[min(n, 3)-1]}, start, time.Now())
}

func (e *rawEvent) export(est map[*Kernel][2]int64) Event {
	out := Event{Kind: e.kind, Start: time.Duration(e.start), End: time.Duration(e.end), Call: int(e.call)}
	if e.dev != nil {
		out.Device = e.dev.name
	}
	switch e.kind {
	case EventKernel:
		out.Name, out.Key, out.Shape = e.k.Name, e.k.Key(), e.k.Shape
		fb, ok := est[e.k]
		if !ok {
			fb = [2]int64{e.k.FLOPs(), e.k.Bytes()}
			est[e.k] = fb
		}
		out.FLOPs, out.Bytes = fb[0], fb[1]
		out.Enqueued = time.Duration(e.enq)
		out.Detail = e.name
	case EventCompile:
		out.Name, out.Key, out.Detail = e.k.Name, e.k.Key(), e.name
	case EventCopy:
		out.Name, out.Bytes, out.Enqueued = e.name, e.bytes, time.Duration(e.enq)
	default:
		out.Name = e.name
	}
	return out
}

// clamp keeps e's times ordered — 0 ≤ Enqueued ≤ Start ≤ End for a
// kernel, 0 ≤ Start ≤ End for a span — and reports whether it moved one.
// With one clock per lane a move is at most the clocks' disagreement.
func (e *Event) clamp() bool {
	s, en, q := e.Start, e.End, e.Enqueued
	if e.Kind == EventKernel || e.Kind == EventCopy {
		e.Enqueued = max(e.Enqueued, 0)
		e.Start = max(e.Start, e.Enqueued)
	}
	e.Start = max(e.Start, 0)
	e.End = max(e.End, e.Start)
	return s != e.Start || en != e.End || q != e.Enqueued
}

// compileOrigin is where a freshly compiled program came from: a backend
// with a disk cache says (device.Cached); otherwise it was compiled.
func compileOrigin(p device.Program) string {
	if o, ok := p.(device.Cached); ok && o.CacheOrigin() != "" {
		return string(o.CacheOrigin())
	}
	return string(device.Compiled)
}

// batchElapsed is the device workers' scratch for runBatchTimed, one per
// device (each has one worker goroutine).
var batchElapsed sync.Map // *Dev → *[]int64

// runBatchTimed runs w as one batch while a profile is taken, recording
// each launch with the time the batch measured for it. It returns false,
// having run nothing, when the backend cannot time a batch: the launches
// then run one by one.
func (d *Dev) runBatchTimed(w *work) bool {
	v, _ := batchElapsed.Load(d)
	if v == nil {
		v, _ = batchElapsed.LoadOrStore(d, new([]int64))
	}
	scratch := v.(*[]int64)
	if cap(*scratch) < len(w.launches) {
		*scratch = make([]int64, len(w.launches))
	}
	el := (*scratch)[:len(w.launches)]
	t0 := monoNow()
	if !d.batch.LaunchBatch(w.progs, w.mems, w.dims, el) {
		return false
	}
	counters.deviceNS.Add(int64(max(monoNow(), t0) - t0))
	// One reservation for the whole batch.
	prof.writers.Add(1)
	if prof.on.Load() {
		base, enq := int64(t0.time().Sub(prof.epoch)), int64(w.enq.time().Sub(prof.epoch))
		first := prof.n.Add(int64(len(w.launches))) - int64(len(w.launches))
		prev := int64(0)
		for i := range w.launches {
			if j := first + int64(i); j < int64(len(prof.buf)) {
				prof.buf[j] = rawEvent{kind: EventKernel, dev: d, k: w.launches[i].k, name: w.launches[i].region, enq: enq, start: base + prev, end: base + el[i]}
			}
			prev = el[i]
		}
	}
	prof.writers.Add(-1)
	return true
}
