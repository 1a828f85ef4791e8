package kernel

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/tick-kernel/tick/kernel/session"
)

// Returning memory after bursts: Go's background scavenger gives freed heap
// back to the OS slowly (after a 300 MB print the process kept 1.49 GB for
// minutes with 13 MB live). After a burst — a cell that allocated more
// than burstBytes, or more than burstBytes of iopub output sent since the
// queue was last empty — the kernel runs debug.FreeOSMemory (a forced
// collection, then every free page goes back) on a goroutine of its own,
// once no cell is running and none has run for releaseDelay (the output
// has left the queues, and the notebook is not running cell after cell:
// handing the pages back between cells that need them again would make the
// next one fault every page in anew — 8,192 page faults for a 32 MB
// result read back, 13 µs per 4 KB page on these VMs), at most one pending
// at a time. Ordinary cells cost one read of a runtime metric. The kernel
// process and the engine process (where the cells' memory is) each have
// their own releaser, and each marks its cells' start and end.
const (
	burstBytes   = 64 << 20
	releaseDelay = 5 * time.Second
)

// releaser decides when free memory goes back to the OS: after a burst,
// once the process has run no cell for delay.
type releaser struct {
	delay   time.Duration
	free    func() // debug.FreeOSMemory
	pending atomic.Bool
	running atomic.Int32 // cells running now
	last    atomic.Int64 // UnixNano of the last cell's start or end
}

// memory is the process's releaser.
var memory = &releaser{delay: releaseDelay, free: debug.FreeOSMemory}

// started notes that a cell started: no release while it runs.
func (r *releaser) started() {
	r.running.Add(1)
	r.last.Store(time.Now().UnixNano())
}

// ended notes that a cell ended: a release waits delay from now.
func (r *releaser) ended() {
	r.last.Store(time.Now().UnixNano())
	r.running.Add(-1)
}

// wait is how long a release due at now must still wait: delay while a
// cell runs, else until delay after the last cell started or ended.
func (r *releaser) wait(now time.Time) time.Duration {
	if r.running.Load() > 0 {
		return r.delay
	}
	return time.Duration(r.last.Load() + int64(r.delay) - now.UnixNano())
}

// soon schedules the release of free memory to the OS.
func (r *releaser) soon() {
	if !r.pending.CompareAndSwap(false, true) {
		return
	}
	var release func()
	release = func() {
		if w := r.wait(time.Now()); w > 0 {
			time.AfterFunc(w, release) // a cell ran meanwhile, or runs: wait for a pause
			return
		}
		defer r.pending.Store(false)
		r.free()
	}
	time.AfterFunc(r.delay, release)
}

// cell brackets one cell's run: it marks the start and end, and schedules
// a release when the cell allocated more than burstBytes. Use it as
// defer r.cell()().
func (r *releaser) cell() func() {
	r.started()
	before := allocated()
	return func() {
		r.ended()
		if allocated()-before > burstBytes {
			r.soon()
		}
	}
}

// allocated returns the bytes allocated on the heap since the process
// started.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// releaseSoon schedules the release of the process's free memory.
func releaseSoon() { memory.soon() }

// ReleasingRunner returns r with Execute returning a cell's burst of
// allocations to the OS, as the kernel does for its own (the engine
// process wraps its session in it: the cells' memory is there).
func ReleasingRunner(r session.Runner) session.Runner { return releasing{r, memory} }

type releasing struct {
	session.Runner
	mem *releaser
}

func (r releasing) Execute(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
	defer r.mem.cell()()
	return r.Runner.Execute(ctx, c, sink)
}
