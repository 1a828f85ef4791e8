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
// once no cell has started for releaseDelay (the output has left the
// queues, and the notebook is not running cell after cell: handing the
// pages back between cells that need them again would make the next one
// fault every page in anew — 13 µs per 4 KB page on these VMs, 213 ms for
// a 64 MB result read back), at most one pending at a time. Ordinary cells
// cost one read of a runtime metric.
const (
	burstBytes   = 64 << 20
	releaseDelay = 5 * time.Second
)

var (
	releasePending atomic.Bool
	lastCellStart  atomic.Int64 // UnixNano of the last cell's start
)

// cellStarted notes that a cell started (a release waits for a pause).
func cellStarted() { lastCellStart.Store(time.Now().UnixNano()) }

// allocated returns the bytes allocated on the heap since the process
// started.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// releaseSoon schedules the release of free memory to the OS.
func releaseSoon() {
	if !releasePending.CompareAndSwap(false, true) {
		return
	}
	var release func()
	release = func() {
		if wait := time.Duration(lastCellStart.Load()+int64(releaseDelay)) - time.Duration(time.Now().UnixNano()); wait > 0 {
			time.AfterFunc(wait, release) // a cell ran meanwhile: wait for a pause
			return
		}
		defer releasePending.Store(false)
		debug.FreeOSMemory()
	}
	time.AfterFunc(releaseDelay, release)
}

// ReleasingRunner returns r with Execute returning a cell's burst of
// allocations to the OS, as the kernel does for its own (the engine
// process wraps its session in it: the cells' memory is there).
func ReleasingRunner(r session.Runner) session.Runner { return releasing{r} }

type releasing struct{ session.Runner }

func (r releasing) Execute(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
	before := allocated()
	defer func() {
		if allocated()-before > burstBytes {
			releaseSoon()
		}
	}()
	return r.Runner.Execute(ctx, c, sink)
}
