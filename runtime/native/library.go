package native

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Library is a loaded shared object. Libraries are never unloaded: kernels
// stay callable for the life of the process (the cache holds them anyway).
type Library struct {
	Key    string // cache key (hash of source, compiler identity and flags)
	Path   string // the loaded file
	Source string // the C source it was built from
	Origin Origin // where this Compile call found it

	handle  unsafe.Pointer
	mu      *sync.Mutex // guards kernels; shared by copies handed out on memory hits
	kernels map[string]*Kernel
}

// MissingSymbolError says a library does not define a requested kernel.
type MissingSymbolError struct {
	Symbol string
	Path   string
	Err    error
}

func (e *MissingSymbolError) Error() string {
	return fmt.Sprintf("native: kernel %s is not defined by %s (the generated C must define void %s(void **bufs, int64_t start, int64_t end)): %v",
		e.Symbol, e.Path, e.Symbol, e.Err)
}

// Unwrap returns the dlsym error.
func (e *MissingSymbolError) Unwrap() error { return e.Err }

// resolve looks up each symbol once.
func (l *Library) resolve(symbols []string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range symbols {
		if _, ok := l.kernels[s]; ok {
			continue
		}
		fn, err := dlSym(l.handle, s)
		if err != nil {
			return &MissingSymbolError{Symbol: s, Path: l.Path, Err: err}
		}
		l.kernels[s] = &Kernel{Name: s, fn: fn}
	}
	return nil
}

// Kernel returns the named kernel, looking it up if Compile was not asked for it.
func (l *Library) Kernel(name string) (*Kernel, error) {
	if err := l.resolve([]string{name}); err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.kernels[name], nil
}

// Kernel is one callable C function with the signature
// void NAME(void **bufs, int64_t start, int64_t end).
type Kernel struct {
	Name string
	fn   unsafe.Pointer
}

// Call runs the kernel over [start, end) in one cgo call on this goroutine.
// Every pointer in bufs must point to C memory (see Alloc) or to Go memory
// pinned with runtime.Pinner for the duration of the call, as the cgo rules
// require; the kernel must not keep them.
func (k *Kernel) Call(bufs []unsafe.Pointer, start, end int64) {
	if end <= start {
		return
	}
	var p *unsafe.Pointer
	if len(bufs) > 0 {
		p = &bufs[0]
	}
	callKernel(k.fn, p, start, end)
}

// CallSplit runs the kernel over [0, n) in chunks of size indices (chunk i
// is [i·size, min((i+1)·size, n))), on this goroutine and up to threads-1
// helper threads of the package's own, not Go's, and returns true when all
// have finished. It returns false, having run nothing, when another
// CallSplit is in flight (the pool runs one launch at a time): the caller
// then splits the launch itself. Chunks run in no particular order and
// concurrently, so they must write disjoint outputs. The buffer rules of
// Call apply.
//
// A launch split over goroutines that each make a cgo call leaves Go no
// idle P while it runs: the runtime's monitor thread then takes a P back
// from one of the calls and wakes every 20 µs for the next millisecond, and
// with as many threads computing as CPUs each wake-up preempts one of them
// (on 2 vCPUs a 512³ matmul took 1.9–2.0 ms on 2 goroutines and 1.3 ms here).
func (k *Kernel) CallSplit(bufs []unsafe.Pointer, n, size int64, threads int) bool {
	if n <= 0 || size <= 0 {
		return true
	}
	var p *unsafe.Pointer
	if len(bufs) > 0 {
		p = &bufs[0]
	}
	return callSplit(k.fn, p, n, size, max(threads-1, 0))
}

// Grain is the estimated work (element-operations) below which a launch is
// one call on the caller's goroutine: starting a worker and its cgo call costs
// a few microseconds, which is worth it only for some hundred thousand
// operations per worker.
const Grain = 1 << 17

// align is the chunk alignment in elements: 64 float32 or 32 float64 fill
// whole cache lines, so neighbouring workers do not write one line.
const align = 64

// Chunks splits [0, n) into at most workers contiguous ranges of at least
// Grain estimated operations each (workPerItem operations per index); it
// returns a single range when the work is small.
func Chunks(n int64, workPerItem float64, workers int) [][2]int64 {
	if n <= 0 {
		return nil
	}
	if workPerItem < 1 {
		workPerItem = 1
	}
	parts := int64(float64(n) * workPerItem / Grain)
	if parts > int64(workers) {
		parts = int64(workers)
	}
	if parts > n/align {
		parts = n / align
	}
	if parts <= 1 {
		return [][2]int64{{0, n}}
	}
	size := (n + parts - 1) / parts
	size = (size + align - 1) / align * align
	out := make([][2]int64, 0, parts)
	for s := int64(0); s < n; s += size {
		out = append(out, [2]int64{s, min(s+size, n)})
	}
	return out
}

// Launch runs the kernel over [0, n): split across up to GOMAXPROCS threads
// (the pool's, see CallSplit; goroutines while another launch holds it)
// when the estimated work (n × workPerItem) is large, else one Call. It
// returns when every part has finished. The buffer rules of Call apply.
func (k *Kernel) Launch(bufs []unsafe.Pointer, n int64, workPerItem float64) {
	chunks := Chunks(n, workPerItem, runtime.GOMAXPROCS(0))
	if len(chunks) <= 1 {
		k.Call(bufs, 0, n)
		return
	}
	if k.CallSplit(bufs, n, chunks[0][1], len(chunks)) { // the pool: see CallSplit
		return
	}
	var wg sync.WaitGroup
	for _, c := range chunks[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.Call(bufs, c[0], c[1])
		}()
	}
	k.Call(bufs, chunks[0][0], chunks[0][1])
	wg.Wait()
}
