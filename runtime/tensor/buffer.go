package tensor

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// Buffer is device memory holding n elements of one dtype. Realized tensors
// view a Buffer; kernels read and write Buffers.
type Buffer struct {
	dev   *Dev
	dtype DType
	n     int
	mem   Memory
	shape []int // the shape of the tensor it was made for (provenance)
}

// newBuffer allocates n elements on d, accounting allocation time and memory
// in use; the memory is freed when the Buffer becomes unreachable.
//
// The memory is not cleared: both callers overwrite every element (a
// kernel's output, which every kernel writes whole; fromBytes's copy), and
// clearing 64 MB before a kernel overwrites it doubled the memory traffic
// of eager ops.
//
// Memory outside Go's heap (the CPU device's C buffers) is invisible to
// the garbage collector, which runs the cleanups that free it: a loop of
// eager ops on 16M elements allocated C memory for each result and reached
// 10 GB before the tiny Go heap asked for a collection. paceExternal
// accounts such allocations and runs a collection once they exceed the
// live external memory (and at least externalGCMin), as GOGC=100 does for
// Go's heap, so the process stays within about twice its live buffers.
func newBuffer(d *Dev, dt DType, n int) (*Buffer, error) {
	t0 := time.Now()
	if _, inGoHeap := d.backend.(goBackend); !inGoHeap {
		paceExternal(int64(n * dt.Size()))
	}
	mem, err := d.backend.Alloc(dt, n)
	addPhase(&counters.allocNS, t0)
	if err != nil {
		return nil, fmt.Errorf("tensor: allocating %d × %s on %s: %w", n, dt, d.name, err)
	}
	b := &Buffer{dev: d, dtype: dt, n: n, mem: mem}
	size := int64(n * dt.Size())
	counters.memInUse.Add(size)
	counters.buffers.Add(1)
	runtime.AddCleanup(b, func(m Memory) {
		m.Free()
		counters.memInUse.Add(-size)
		counters.buffers.Add(-1)
	}, mem)
	return b, nil
}

func mustBuffer(d *Dev, dt DType, n int) *Buffer {
	b, err := newBuffer(d, dt, n)
	if err != nil {
		panic(err)
	}
	return b
}

// externalGCMin is the least external allocation between paced collections.
const externalGCMin = 256 << 20

// external paces collections for memory outside Go's heap.
var external struct {
	sinceGC atomic.Int64 // bytes allocated since the last paced collection
	live    atomic.Int64 // memory in use after it (its cleanups had run)
	sample  atomic.Bool  // take live at the next allocation
}

// paceExternal accounts size bytes of external memory about to be
// allocated and collects garbage when the allocations since the last paced
// collection exceed the memory that was live after it (and
// externalGCMin): the cleanups of unreachable buffers then free theirs.
func paceExternal(size int64) {
	if external.sample.CompareAndSwap(true, false) {
		external.live.Store(counters.memInUse.Load())
	}
	if external.sinceGC.Add(size) < max(externalGCMin, external.live.Load()) {
		return
	}
	external.sinceGC.Store(0)
	runtime.GC()
	runtime.Gosched() // let the cleanup goroutine free what the collection found
	external.sample.Store(true)
}
