package tensor

// The CPU device: each kernel is rendered as C (render_c.go), compiled by the
// system C compiler into a shared object, cached in memory and on disk, and
// called through cgo (package tick/runtime/native). Built without cgo, or
// without a C compiler, the device is registered but unavailable, and its
// error says why; the GO device is used instead.

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/native"
)

// init only registers the backend: whether the C compiler works is probed
// on first use (DefaultDevice, Device("CPU")), not at process start.
func init() { RegisterBackend("CPU", cpuBackend{}) }

// CPUStatus describes the CPU device in one line, for a notebook to show
// once: the compiler and kernel cache it uses, or why it is unavailable and
// that the GO device is used instead.
func CPUStatus() string {
	c, err := native.Default()
	if err != nil {
		return "CPU device unavailable: " + err.Error()
	}
	s := c.Stats()
	return fmt.Sprintf("CPU device: %s %v; kernel cache %s (%d compiled, %d memory hits, %d disk hits this session)",
		c.Path(), c.Flags(), c.CacheDir(), s.Compiles, s.MemoryHits, s.DiskHits)
}

type cpuBackend struct{}

// Describe names the compiler and flags kernels are built with.
func (cpuBackend) Describe() string {
	c, err := native.Default()
	if err != nil {
		return "CPU (unavailable: " + err.Error() + ")"
	}
	_, contraction := gemmContraction(c.VectorISA())
	return fmt.Sprintf("CPU (C via %s %s; %s, %s)", c.Path(), strings.Join(c.Flags()[:min(2, len(c.Flags()))], " "), c.VectorISA(), contraction)
}

// Available is nil when cgo and a C compiler are present, else the
// *native.UnavailableError saying which is missing.
func (cpuBackend) Available() error { return native.Available() }

func (cpuBackend) Alloc(dt DType, n int) (Memory, error) {
	size := n * dt.Size()
	p, err := native.Alloc(size)
	if err != nil {
		return nil, err
	}
	return &cpuMemory{ptr: p, size: size, cap: size}, nil // not cleared: see newBuffer
}

func (cpuBackend) Compile(k *Kernel) (prog Program, err error) {
	defer func() { // a renderer bug is an error on this kernel, never a crash
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("rendering %s as C: %v (please report this kernel: run with DEBUG=3)", k.Name, r)
		}
	}()
	sym := cSymbol(k)
	src := renderC(k, sym)
	t0 := time.Now()
	lib, err := native.Compile(src, sym)
	if err != nil {
		var ce *native.CompileError
		if errors.As(err, &ce) && debugLevel() >= 4 {
			return nil, fmt.Errorf("%w\nsource:\n%s", err, src)
		}
		return nil, err
	}
	kern, err := lib.Kernel(sym)
	if err != nil {
		return nil, err
	}
	if debugLevel() >= 2 {
		debugf("CPU  compile %-18s from %s in %.2f ms\n", k.Name, lib.Origin, time.Since(t0).Seconds()*1e3)
	}
	return &cpuProgram{src: src, kern: kern, origin: lib.Origin.String()}, nil
}

// cpuMemory is 64-byte aligned C memory, so kernels may use it without cgo
// pointer checks and the garbage collector never scans it.
type cpuMemory struct {
	ptr  unsafe.Pointer
	size int // bytes of the buffer
	cap  int // bytes allocated
}

func (m *cpuMemory) capBytes() int { return m.cap }

// resize makes m a buffer of n elements of dt (within its allocation), for
// the device pool.
func (m *cpuMemory) resize(dt DType, n int) { m.size = n * dt.Size() }

func (m *cpuMemory) Bytes() []byte {
	if m.ptr == nil {
		return nil
	}
	return unsafe.Slice((*byte)(m.ptr), m.size)
}

func (m *cpuMemory) Free() {
	native.Free(m.ptr)
	m.ptr = nil
}

type cpuProgram struct {
	src    string
	kern   *native.Kernel
	origin string // "compiled", "disk cache" or "memory cache" (native.Origin)
}

// cacheOutcome says whether the object was compiled or loaded from disk.
func (p *cpuProgram) cacheOutcome() CacheOutcome {
	if p.origin == native.FromDisk.String() {
		return CacheDisk
	}
	return CacheCompiled
}

// CacheOrigin says whether the C compiler ran for this program or its
// shared object came from a cache (profiles show it).
func (p *cpuProgram) CacheOrigin() string { return p.origin }

// Run calls the kernel once over [start, end); the runtime splits large
// launches across workers.
func (p *cpuProgram) Run(bufs []Memory, start, end int) {
	var arr [8]unsafe.Pointer
	ptrs := arr[:0]
	for _, m := range bufs {
		ptrs = append(ptrs, m.(*cpuMemory).ptr)
	}
	p.kern.Call(ptrs, int64(start), int64(end))
}

func (p *cpuProgram) Source() string { return p.src }

// cpuBatch is the scratch RunBatch fills: one per process, because the CPU
// device has one worker and the batch's C arrays are reused across replays.
var cpuBatch struct {
	sync.Mutex
	b native.Batch
}

// RunBatch runs launches in order in one cgo call: launch i runs progs[i]
// over output elements [0, sizes[i]) with mems[i]. For a work item of small
// launches (a JIT replay) it replaces one Run, and one cgo crossing, per
// launch; large launches should still go through Run so they are split
// across workers. It returns false, having run nothing, when a program is
// not a CPU program or C memory for the batch cannot be allocated.
func (c cpuBackend) RunBatch(progs []Program, mems [][]Memory, sizes []int) bool {
	return c.RunBatchTimed(progs, mems, sizes, nil)
}

// RunBatchTimed is RunBatch that, when elapsed is not nil, also times each
// launch in the same cgo call (elapsed[i]: ns from the batch's start to the
// end of launch i), so a profile keeps the batching it measures.
func (cpuBackend) RunBatchTimed(progs []Program, mems [][]Memory, sizes []int, elapsed []int64) bool {
	cpuBatch.Lock()
	defer cpuBatch.Unlock()
	b := &cpuBatch.b
	b.Reset()
	for i, pr := range progs {
		p, ok := pr.(*cpuProgram)
		if !ok {
			return false
		}
		var arr [8]unsafe.Pointer
		ptrs := arr[:0]
		for _, m := range mems[i] {
			ptrs = append(ptrs, m.(*cpuMemory).ptr)
		}
		if b.Add(p.kern, ptrs, 0, int64(sizes[i])) != nil {
			return false
		}
	}
	if elapsed == nil {
		b.Run()
		return true
	}
	if b.Len() != len(elapsed) { // an empty launch was skipped: times would not line up
		return false
	}
	b.RunTimed(elapsed)
	return true
}
