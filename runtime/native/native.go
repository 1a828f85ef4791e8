// Package native turns C source into callable kernels for tick's CPU backend.
//
// It finds the system C compiler (CC, else cc), compiles a translation unit
// into a shared object with flags that keep IEEE results unchanged, caches
// the object in memory and on disk (keyed by a hash of source, compiler
// identity, flags and host CPU), loads it with dlopen/dlsym through cgo and
// calls kernels with one convention:
//
//	void NAME(void **bufs, int64_t start, int64_t end);
//
// bufs holds one pointer per buffer the kernel uses; [start, end) is the part
// of the kernel's output index space this call computes, so a launch can be
// split across workers (see Kernel.Launch).
//
// Without cgo, or without a C compiler, every entry point returns an
// *UnavailableError (matching ErrUnavailable) that says why, and tick's
// runtime uses its pure-Go backend instead.
package native

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrUnavailable is matched (errors.Is) by every error saying the native
// backend cannot run in this process: built without cgo, or no C compiler.
var ErrUnavailable = errors.New("native: CPU backend unavailable")

// HugeMin is the size from which Alloc aligns memory to a 2 MiB huge page
// and advises the kernel to back it with transparent huge pages (the C
// side's TICK_HUGE_MIN): large buffers are streamed, and with 4 KiB pages
// the hardware prefetchers stop at every page.
const HugeMin = 4 << 20

// UnavailableError says why compiled C kernels cannot be used here.
type UnavailableError struct {
	Reason string // what is missing, in words a user can act on
	Err    error  // underlying cause, if any
}

func (e *UnavailableError) Error() string {
	msg := "native: " + e.Reason + "; using the GO backend"
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *UnavailableError) Unwrap() error { return e.Err }

// Is reports whether target is ErrUnavailable.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// CompileError is a C compiler failure: it names the kernel and carries the
// compiler's own message. The process is unaffected.
type CompileError struct {
	Kernel   string   // symbol names the source was meant to define
	Compiler string   // compiler path
	Args     []string // command line, without the compiler path
	Stderr   string   // what the compiler printed
	Source   string   // the C source that failed
	Err      error    // exec error (exit status)
}

func (e *CompileError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("native: compiling kernel %s with %s failed (a bug in the generated C; run with DEBUG=4 to see the source):\n%s",
		e.Kernel, e.Compiler, msg)
}

// Unwrap returns the exec error.
func (e *CompileError) Unwrap() error { return e.Err }

// Origin says where a Library came from.
type Origin int

// Origins of a Library.
const (
	FromCompiler Origin = iota // compiled in this call
	FromMemory                 // this process had already loaded it
	FromDisk                   // found in the disk cache
)

func (o Origin) String() string {
	switch o {
	case FromCompiler:
		return "compiled"
	case FromMemory:
		return "memory cache"
	case FromDisk:
		return "disk cache"
	}
	return fmt.Sprintf("Origin(%d)", int(o))
}

// Stats is a snapshot of a Compiler's counters.
type Stats struct {
	Compiles    int64         // invocations of the C compiler that succeeded
	Failures    int64         // invocations that failed (compile errors)
	MemoryHits  int64         // Compile calls answered from this process's cache
	DiskHits    int64         // Compile calls answered from the disk cache
	Rebuilds    int64         // disk entries found corrupt or unloadable and rebuilt
	CompileTime time.Duration // wall time spent in the C compiler
	LoadTime    time.Duration // wall time spent verifying and dlopen-ing objects
}

// Sub returns s - o, for measuring what happened between two snapshots.
func (s Stats) Sub(o Stats) Stats {
	return Stats{
		Compiles:    s.Compiles - o.Compiles,
		Failures:    s.Failures - o.Failures,
		MemoryHits:  s.MemoryHits - o.MemoryHits,
		DiskHits:    s.DiskHits - o.DiskHits,
		Rebuilds:    s.Rebuilds - o.Rebuilds,
		CompileTime: s.CompileTime - o.CompileTime,
		LoadTime:    s.LoadTime - o.LoadTime,
	}
}
