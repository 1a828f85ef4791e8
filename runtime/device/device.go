// Package device is the boundary between tick's tensor runtime and the
// devices that run its kernels: what a backend implements, and nothing of
// tensors. The runtime (package tensor) owns these interfaces and consumes
// them; backends (packages under runtime/backend) implement them and
// register themselves by name, like database/sql drivers:
//
//	func init() { device.Register("CL", clBackend{}) }
//
// A backend opens devices (Backend.Open); a Device is an Allocator (device
// memory, copies in and out), a Compiler (kernel IR → Program) and a Queue
// (in-order launches of programs over global and local work sizes). What
// only some devices can do is a declared optional interface (Transferer,
// BatchLauncher, Stamped, LaneFolder, ...): the runtime asks for the
// interface, never for a concrete backend type.
//
// The kernel IR the Compiler takes is package ir; renderers from the IR to
// source text are package render. Neither this package nor those import
// the tensor runtime.
package device

import (
	"github.com/tick-kernel/tick/runtime/ir"
)

// Backend is a kind of device ("CPU", "GO", "NULL", "CL"), registered once
// from its package's init.
type Backend interface {
	// Available returns nil when the backend can run on this machine, or
	// an error saying why not and what to install (for example "no C
	// compiler" or "no OpenCL driver: install pocl-opencl-icd"). It must
	// be cheap after its first call: the runtime asks it when choosing
	// the default device.
	Available() error
	// Open returns device number ordinal of the backend: "CL:1" is
	// ordinal 1, a bare "CL" ordinal 0. The runtime opens each device
	// once and keeps it for the process's life. A backend with one
	// device returns an error for ordinals other than 0.
	Open(ordinal int) (Device, error)
}

// Device is one opened device: its memory, its compiler and its queue.
type Device interface {
	Allocator
	Compiler
	// Queue is the device's in-order queue. The runtime calls it from one
	// goroutine at a time (see Queue).
	Queue() Queue
	// Info describes the device as a value, for provenance.
	Info() Info
}

// Memory is one allocation on a device. It is opaque to the runtime, which
// reads and writes it only through its Allocator (or directly when it
// implements Host).
type Memory interface {
	// Size is the buffer's length in bytes (for Resizable memory, the
	// size it was last resized to).
	Size() int
}

// Allocator allocates device memory and copies between it and the host.
type Allocator interface {
	// Alloc returns storage for n elements of dt (n may be 0). It need
	// not be zeroed: the runtime overwrites all of it before reading it.
	Alloc(dt ir.DType, n int) (Memory, error)
	// Free releases m; the runtime calls it once m is unreachable and
	// no queued work uses it.
	Free(m Memory)
	// CopyIn copies src into dst at byte offset off and returns when src
	// may be reused. It is ordered after the work already launched on
	// the device's queue.
	CopyIn(dst Memory, off int, src []byte) error
	// CopyOut copies len(dst) bytes of src from byte offset off into dst
	// and returns when dst holds them: after the work already launched
	// on the device's queue has finished. dst may be the caller's final
	// slice (a tensor's []float32 read back), so a read is one copy.
	CopyOut(dst []byte, src Memory, off int) error
}

// Compiler turns kernels into programs. The runtime compiles each distinct
// kernel (ir.Kernel.Key) once per device and caches the Program; a backend
// may also keep a cache on disk (and say so through Cached).
type Compiler interface {
	// Compile returns the program for k. It must not keep k's buffers
	// (there are none: a Kernel holds only their specs) and may keep k.
	Compile(k *ir.Kernel) (Program, error)
}

// Dims is a launch's grid: Global work items in each of up to three
// dimensions, in work groups of Local items (Local[i] divides Global[i]; a
// zero Local lets the device choose). Unused dimensions are 1.
type Dims struct {
	Global, Local [3]int
}

// Items is the number of work items, Global's product.
func (d Dims) Items() int { return d.Global[0] * d.Global[1] * d.Global[2] }

// Program is a compiled kernel.
type Program interface {
	// Dims is the grid the backend chose for its kernel; the runtime
	// launches it with these sizes (and records them).
	Dims() Dims
	// Source is the program's text for DEBUG=4 and plans: generated C,
	// OpenCL C, or the GO backend's description of its closures.
	Source() string
}

// Queue runs launches in the order they arrive. The runtime calls a
// Queue from one goroutine at a time, and bufs[i] of a launch corresponds
// to the kernel's Bufs[i] (bufs[0] is the output).
//
// A host backend's queue runs each launch on the calling goroutine and
// returns when it is done (the runtime gives such a device a worker
// goroutine, so launches are still asynchronous to the user). A device
// with a queue of its own implements Asynchronous: its Launch only
// enqueues, and Synchronize waits for the device.
type Queue interface {
	// Launch runs (or enqueues) p over dims with bufs.
	Launch(p Program, bufs []Memory, dims Dims) error
	// Synchronize returns when every launch so far has finished, with
	// the first error the device reported since the last Synchronize.
	Synchronize() error
}

// SourceError is a compile failure that carries the source which failed
// (a compiler's message about generated code): the runtime shows the
// source at DEBUG=4.
type SourceError struct {
	Err    error
	Source string
}

func (e *SourceError) Error() string { return e.Err.Error() }

// Unwrap returns the compiler's error.
func (e *SourceError) Unwrap() error { return e.Err }
