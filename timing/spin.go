package timing

import (
	"runtime"
	"slices"
	"sync"
	"time"
)

// Spin busy-waits until the calling thread has run for d: a host workload
// of known cost, for checking what %timeit reports against a time you
// know. Its cost is CPU time, like real work: on a busy machine a call
// takes d of CPU plus whatever the thread waited for one, so the wall time
// per loop grows with the load and the CPU time per loop (%timeit's cpu
// line) stays d. (On systems without a thread CPU clock, only Linux has
// one here, it waits for d of wall time.)
//
// It is compiled Go, so a cell's `timing.Spin(10*time.Microsecond)` costs
// 10 µs plus one call and about a microsecond of reading the thread's
// clock, with none of
// the interpreter's cost per iteration that makes a busy-wait loop written
// in a cell overshoot. Spin(0) returns at once: timing it shows what one
// call from a cell into compiled code costs. For device work of known cost
// see the tensor runtime's Dev.Spin.
func Spin(d time.Duration) {
	if d <= 0 {
		return
	}
	if !haveThreadCPU {
		t0 := time.Now()
		for time.Since(t0) < d {
		}
		return
	}
	// The goroutine stays on this thread, so the thread's clock is its own.
	// Reading it is a system call (~0.3–1 µs of CPU): spin on the wall
	// clock (cheap) for what is left, then read the thread's clock once to
	// see whether the thread was descheduled meanwhile; the readings' own
	// cost counts towards d. What remains over d is about a microsecond
	// (the last reading, and the entry into the first).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rc := threadCPUReadCost()
	c0 := threadCPU()
	for {
		left := d - (threadCPU() - c0) - rc
		if left <= 0 {
			return
		}
		t0 := time.Now()
		for time.Since(t0) < left {
		}
	}
}

// threadCPUReadCost is the CPU time one threadCPU reading costs, measured
// once (the median of a few batches).
var threadCPUReadCost = sync.OnceValue(func() time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var costs [5]time.Duration
	for i := range costs {
		c0 := threadCPU()
		for range 32 {
			threadCPU()
		}
		costs[i] = (threadCPU() - c0) / 33
	}
	slices.Sort(costs[:])
	return costs[2]
})
