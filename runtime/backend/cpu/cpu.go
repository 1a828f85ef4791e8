// Package cpu is the CPU device: each kernel is rendered as C (package
// render), compiled by the system C compiler into a shared object, cached
// in memory and on disk, and called through cgo (package native). Launches
// run on host threads: the global size is the kernel's output elements,
// split across GOMAXPROCS goroutines in whole rows (the local size) when
// large. Built without cgo, or without a C compiler, the backend is
// registered but unavailable, and its error says why; the runtime uses the
// GO device instead.
package cpu

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/native"
	"github.com/tick-kernel/tick/runtime/render"
)

// init only registers the backend: whether the C compiler works is probed
// on first use (the runtime's default device, Device("CPU")), not at
// process start.
func init() { device.Register("CPU", Backend{}) }

// EnvFMA, set to 0, keeps the CPU device's GEMM from contracting
// multiply-adds into fused multiply-adds, so matmul results are
// bit-identical to the GO device and the reference interpreter (at up to
// half the speed on CPUs with FMA). Any other value, or none, allows
// contraction where the target has FMA. Read when a kernel is rendered.
const EnvFMA = "TICK_FMA"

// fma reports whether the GEMM may contract multiply-adds: unless $TICK_FMA
// is 0. (Without FMA instructions in the target the compiler emits
// separate multiply and add anyway: see contraction.)
func fma() bool { return os.Getenv(EnvFMA) != "0" }

// contraction says how the GEMM compiled for isa adds its products, for
// provenance: whether it fuses multiply-adds, and in words.
func contraction(isa native.VectorISA) (fused bool, desc string) {
	switch {
	case !isa.FMA:
		return false, "no fma"
	case !fma():
		return false, "matmul without fma (" + EnvFMA + "=0)"
	}
	return true, "matmul with fma"
}

// Backend is the CPU backend.
type Backend struct{}

// Available is nil when cgo and a C compiler are present, else the
// *native.UnavailableError saying which is missing.
func (Backend) Available() error { return native.Available() }

// Open returns the CPU device (there is one: its threads are the machine's).
func (b Backend) Open(ordinal int) (device.Device, error) {
	if ordinal != 0 {
		return nil, fmt.Errorf("the CPU backend has one device, CPU (not CPU:%d)", ordinal)
	}
	if err := b.Available(); err != nil {
		return nil, err
	}
	return Device{}, nil
}

// Status describes the CPU device in one line, for a notebook to show
// once: the compiler and kernel cache it uses, or why it is unavailable and
// that the GO device is used instead.
func (Backend) Status() string {
	c, err := native.Default()
	if err != nil {
		return "CPU device unavailable: " + err.Error()
	}
	s := c.Stats()
	return fmt.Sprintf("CPU device: %s %v; kernel cache %s (%d compiled, %d memory hits, %d disk hits this session)",
		c.Path(), c.Flags(), c.CacheDir(), s.Compiles, s.MemoryHits, s.DiskHits)
}

// Device is the CPU device: C memory, C kernels, host threads.
type Device struct{}

// Describe names the compiler and flags kernels are built with.
func (Device) Describe() string {
	c, err := native.Default()
	if err != nil {
		return "CPU (unavailable: " + err.Error() + ")"
	}
	_, contr := contraction(c.VectorISA())
	return fmt.Sprintf("CPU (C via %s %s; %s, %s)", c.Path(), strings.Join(c.Flags()[:min(2, len(c.Flags()))], " "), c.VectorISA(), contr)
}

// Info describes the compiler, its flags and the vector instruction set.
func (Device) Info() device.Info {
	c, err := native.Default()
	if err != nil {
		return device.Info{Name: "CPU", Backend: "C", Computes: true, Unavailable: err.Error()}
	}
	isa := c.VectorISA()
	fused, contr := contraction(isa)
	return device.Info{Name: "CPU", Backend: "C (" + isa.String() + ", " + contr + ")", Compiler: c.Path(), CompilerVersion: c.Version(),
		Flags: c.Flags(), Vector: isa.String(), MatmulFMA: fused, Computes: true}
}

// AllocCap is C memory for the runtime's pool.
func (d Device) AllocCap(bytes int) (device.Resizable, error) {
	m, err := d.Alloc(ir.Bool, bytes)
	if err != nil {
		return nil, err
	}
	return m.(*Memory), nil
}

// OffHeap: C memory is outside Go's heap.
func (Device) OffHeap() bool { return true }

// InlineSmall: small kernels may run on the caller.
func (Device) InlineSmall() bool { return true }

// FoldLanes is the C renderer's tile of reduce accumulators.
func (Device) FoldLanes() int { return render.Tile }

// Queue is the host queue with the CPU's batches.
func (Device) Queue() device.Queue { return queue{} }

// Alloc returns 64-byte aligned C memory (not cleared: the runtime
// overwrites it).
func (Device) Alloc(dt ir.DType, n int) (device.Memory, error) {
	size := n * dt.Size()
	p, err := native.Alloc(size)
	if err != nil {
		return nil, err
	}
	return &Memory{ptr: p, size: size, cap: size}, nil
}

// Free returns C memory.
func (Device) Free(m device.Memory) {
	cm := m.(*Memory)
	native.Free(cm.ptr)
	cm.ptr = nil
}

// CopyIn copies into C memory.
func (Device) CopyIn(dst device.Memory, off int, src []byte) error { return host.CopyIn(dst, off, src) }

// CopyOut copies out of C memory.
func (Device) CopyOut(dst []byte, src device.Memory, off int) error {
	return host.CopyOut(dst, src, off)
}

// renderer is the C renderer with the environment's FMA choice.
func renderer() render.C { return render.C{FMA: fma()} }

// Render is the C the device would compile for k.
func (Device) Render(k *ir.Kernel) (string, error) {
	return renderer().Render(k, render.Symbol(k)), nil
}

// Compile renders k as C and compiles it (or loads it from the caches).
func (Device) Compile(k *ir.Kernel) (device.Program, error) { return compile(k, renderer()) }

// compile is Compile with the C rendered by rc.
func compile(k *ir.Kernel, rc render.C) (prog device.Program, err error) {
	defer func() { // a renderer bug is an error on this kernel, never a crash
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("rendering %s as C: %v (please report this kernel: run with DEBUG=3)", k.Name, r)
		}
	}()
	sym := render.Symbol(k)
	src := rc.Render(k, sym)
	lib, err := native.Compile(src, sym)
	if err != nil {
		var ce *native.CompileError
		if errors.As(err, &ce) {
			return nil, &device.SourceError{Err: err, Source: src}
		}
		return nil, err
	}
	kern, err := lib.Kernel(sym)
	if err != nil {
		return nil, err
	}
	origin := device.Compiled
	if lib.Origin == native.FromDisk {
		origin = device.DiskCache
	}
	work := k.ReduceSize()
	if g := ir.MatchGemm(k); g != nil && !rc.NoGemm {
		work = host.GemmWork(g.K)
	}
	return &Program{src: src, kern: kern, origin: origin, dims: host.Dims(k), work: work}, nil
}

// Memory is 64-byte aligned C memory, so kernels may use it without cgo
// pointer checks and the garbage collector never scans it.
type Memory struct {
	ptr  unsafe.Pointer
	size int // bytes of the buffer
	cap  int // bytes allocated
}

// Size is the buffer's bytes.
func (m *Memory) Size() int { return m.size }

// Cap is the allocation's bytes.
func (m *Memory) Cap() int { return m.cap }

// Resize makes m a buffer of n elements of dt (within its allocation), for
// the device pool.
func (m *Memory) Resize(dt ir.DType, n int) { m.size = n * dt.Size() }

// Bytes is the C memory as a byte slice.
func (m *Memory) Bytes() []byte {
	if m.ptr == nil {
		return nil
	}
	return unsafe.Slice((*byte)(m.ptr), m.size)
}

// Program is a compiled C kernel.
type Program struct {
	src    string
	kern   *native.Kernel
	origin device.Origin
	dims   device.Dims
	work   int
}

// CacheOrigin says whether the C compiler ran for this program or its
// shared object came from the disk cache.
func (p *Program) CacheOrigin() device.Origin { return p.origin }

// Dims is the kernel's host grid.
func (p *Program) Dims() device.Dims { return p.dims }

// Work is the elements folded into each output.
func (p *Program) Work() int { return p.work }

// Run calls the kernel once over [start, end); the host queue splits large
// launches across threads.
func (p *Program) Run(bufs []device.Memory, start, end int) {
	var arr [8]unsafe.Pointer
	p.kern.Call(cPtrs(arr[:0], bufs), int64(start), int64(end))
}

// cPtrs appends the C pointer of each of the CPU device's buffers in bufs
// to dst (an array on the caller's stack for the usual few buffers).
func cPtrs(dst []unsafe.Pointer, bufs []device.Memory) []unsafe.Pointer {
	for _, m := range bufs {
		dst = append(dst, m.(*Memory).ptr)
	}
	return dst
}

// RunSplit runs a long launch over [0, n) in chunks of size items on the
// caller and threads-1 C threads (native.Kernel.CallSplit): host.Split's
// ThreadSplitter.
func (p *Program) RunSplit(bufs []device.Memory, n, size, threads int) bool {
	var arr [8]unsafe.Pointer
	return p.kern.CallSplit(cPtrs(arr[:0], bufs), int64(n), int64(size), threads)
}

// Source is the C source.
func (p *Program) Source() string { return p.src }

// queue is the host queue plus LaunchBatch.
type queue struct{ host.Queue }

// batch is the scratch LaunchBatch fills: one per process, because the CPU
// device has one queue and the batch's C arrays are reused across replays.
var batch struct {
	sync.Mutex
	b native.Batch
}

// LaunchBatch runs launches in order in one cgo call: launch i runs progs[i]
// over all of dims[i] with bufs[i]. For a work item of small launches (a
// JIT replay) it replaces one cgo crossing per launch; large launches
// should still go through Launch so they are split across threads. When
// elapsed is not nil, it also times each launch in the same cgo call. It
// returns false, having run nothing, when a program is not a CPU program,
// C memory for the batch cannot be allocated, or (timed) an empty launch
// would be skipped.
func (queue) LaunchBatch(progs []device.Program, bufs [][]device.Memory, dims []device.Dims, elapsed []int64) bool {
	batch.Lock()
	defer batch.Unlock()
	b := &batch.b
	b.Reset()
	for i, pr := range progs {
		p, ok := pr.(*Program)
		if !ok {
			return false
		}
		var arr [8]unsafe.Pointer
		if b.Add(p.kern, cPtrs(arr[:0], bufs[i]), 0, int64(dims[i].Items())) != nil {
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
