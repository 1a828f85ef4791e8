package device

// Optional capabilities. A backend implements the ones its device has; the
// runtime asserts the interface once, when it opens the device, and keeps
// the result. None is required.

import "github.com/tick-kernel/tick/runtime/ir"

// Host is memory the host addresses directly (CPU, GO and NULL memory):
// Bytes is the storage itself. The runtime still copies through the
// Allocator; Host lets tests and host backends share memory without a copy.
type Host interface {
	Memory
	Bytes() []byte
}

// Resizable is memory the runtime's buffer pool can hand out again for
// another dtype and element count that fit its allocation.
type Resizable interface {
	Memory
	// Cap is the allocation's length in bytes.
	Cap() int
	// Resize makes the memory a buffer of n elements of dt (n × dt.Size()
	// ≤ Cap()).
	Resize(dt ir.DType, n int)
}

// Pooled is a Device whose memory the runtime pools: it keeps idle
// buffers in size classes and reuses them instead of allocating.
type Pooled interface {
	// AllocCap allocates bytes (a size class) for the pool, which
	// Resizes it for each buffer it serves.
	AllocCap(bytes int) (Resizable, error)
}

// OffHeap is a Device whose memory lives outside Go's heap (C memory,
// device memory). The runtime accounts it, paces garbage collections for it
// (the collector does not see it) and keeps it within the process's
// memory limit.
type OffHeap interface {
	OffHeap() bool
}

// Inliner is a Device whose small launches may run on the caller's
// goroutine when its queue is idle: a host backend whose kernels only
// compute (a goroutine wake-up costs more than a small kernel).
type Inliner interface {
	InlineSmall() bool
}

// Asynchronous is a Queue of the device's own: Launch, CopyIn of pinned
// memory and Transfer return once the work is enqueued, Synchronize waits
// for it. The runtime calls it from the caller's goroutine and gives the
// device no worker.
type Asynchronous interface {
	Queue
	Asynchronous() bool
}

// BatchLauncher is a Queue that can run a sequence of small launches in
// one call (the CPU backend: one cgo crossing instead of one per kernel).
type BatchLauncher interface {
	// LaunchBatch runs launch i as progs[i] with bufs[i] over dims[i], in
	// order. When elapsed is not nil it also times them: elapsed[i] is
	// the nanoseconds from the batch's start to the end of launch i. It
	// returns false, having run nothing, when it cannot (a program of
	// another backend, no memory for the batch, a launch it skipped so
	// that times would not line up); the runtime then launches one by
	// one.
	LaunchBatch(progs []Program, bufs [][]Memory, dims []Dims, elapsed []int64) bool
}

// Transferer is a Device that copies from another device's memory without
// going through host memory the runtime allocates (a peer copy, or a
// device that maps host memory).
type Transferer interface {
	// Transfer copies n bytes from src, memory of device from, to dst
	// (memory of this device). It returns false, having copied nothing,
	// when it cannot for this pair; the runtime then copies out to the
	// host and in again.
	Transfer(dst Memory, from Device, src Memory, n int) (bool, error)
}

// LaneFolder is a Device whose reduce kernels keep a tile of accumulators
// along the innermost kept axis (the CPU's C renderer): the runtime then
// restructures long reductions so that axis is FoldLanes elements long.
type LaneFolder interface {
	FoldLanes() int
}

// Renderer gives the source a Device would compile for a kernel without
// compiling it (plans and %viz show it before a kernel runs).
type Renderer interface {
	Render(k *ir.Kernel) (string, error)
}

// Describer is a Device that describes itself in one line ("CPU (C via
// /usr/bin/cc -O3 -march=native; AVX2+FMA, 32-byte vectors, matmul with
// fma)"); otherwise Info().String() is used.
type Describer interface {
	Describe() string
}

// Origin says where a Program came from.
type Origin string

// Origins a Cached program reports.
const (
	Compiled  Origin = "compiled"   // the backend's compiler ran
	DiskCache Origin = "disk cache" // the backend loaded it from its disk cache
)

// Cached is a Program that says whether it was compiled or loaded from the
// backend's disk cache (profiles and timing facts show it).
type Cached interface {
	CacheOrigin() Origin
}

// Statuser is a Backend that can say in one line what it uses (compiler,
// driver, cache) or why it is unavailable, for a notebook to show once.
type Statuser interface {
	Status() string
}

// Times are one command's stamps on the device's clock, in nanoseconds:
// when the host queued it, when it was submitted to the device, when the
// device started and ended it (OpenCL's CL_PROFILING_COMMAND_*).
type Times struct {
	Queued, Submitted, Started, Ended int64
}

// Stamped is a Queue that stamps every command it runs — launches, and the
// copies of its device's Allocator — on the device's clock.
type Stamped interface {
	// Stamps appends the Times of the commands issued since the last
	// call, in the order they were issued, and returns them. The runtime
	// calls it after Synchronize, but commands other goroutines issued
	// since may still be running: Stamps waits for them first.
	Stamps(dst []Times) ([]Times, error)
}

// Clock is a Device whose stamps can be put on the host's clock.
type Clock interface {
	// Bracket enqueues an empty command between two readings of the
	// host's clock now and returns them with the stamp the device's clock
	// gave the command when it was queued. The runtime takes the middle
	// of the tightest of several brackets as the offset between the
	// clocks and half its width as the error.
	Bracket(now func() int64) (before, queued, after int64, err error)
}
