package kernel

import (
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Returning memory after bursts: Go's background scavenger gives freed heap
// back to the OS slowly (after a 300 MB print the process kept 1.49 GB for
// minutes with 13 MB live). After a cell, and when the iopub queue drains
// after a burst of output, the kernel asks how much heap is free but still
// held; past releaseThreshold (and past the live heap) it runs debug.FreeOSMemory on a goroutine of
// its own (a forced collection, then everything free goes back), at most
// one at a time.
const releaseThreshold = 64 << 20

var releasing atomic.Bool

// heldFree returns the heap bytes the process holds beyond the live heap
// of the last collection: free spans not yet returned to the OS, and
// objects allocated since (after a burst, mostly garbage).
func heldFree() (held, live uint64) {
	s := []metrics.Sample{
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	held = s[0].Value.Uint64() + s[1].Value.Uint64()
	live = s[2].Value.Uint64()
	if held < live {
		return 0, live
	}
	return held - live, live
}

// releaseMemory returns free heap to the OS when more than threshold, and
// more than the live heap, is held beyond the live heap (a heap that is
// merely churning at its usual GOGC pace is left to the collector).
func releaseMemory(threshold uint64) {
	held, live := heldFree()
	if held < threshold || held < live || !releasing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer releasing.Store(false)
		debug.FreeOSMemory()
	}()
}
