// Package host holds what tick's host backends (CPU, GO, NULL) share: a
// synchronous Queue that maps a launch's global and local sizes onto the
// machine's threads, and plain Go-heap memory.
package host

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/ir"
)

// Program is what a host backend's programs implement besides
// device.Program: Run computes work items [start, end) of the grid (output
// elements, row-major), and may be called concurrently with disjoint
// ranges.
type Program interface {
	device.Program
	Run(bufs []device.Memory, start, end int)
	// Work is the work per item (the elements a reduce folds into each
	// output, 1 without a reduce): it decides whether a launch is worth
	// splitting across threads.
	Work() int
}

// ThreadSplitter is a Program that can run a long split launch on threads
// of its own (the CPU device's C kernels: native.Kernel.CallSplit) instead
// of the helper goroutines. RunSplit runs items [0, n) in chunks of size
// items on up to threads threads and returns true when all are done; false,
// having run nothing, when it cannot now (Split then uses its goroutines).
type ThreadSplitter interface {
	RunSplit(bufs []device.Memory, n, size, threads int) bool
}

// Dims is the grid of a host kernel: one work item per output element,
// in groups of the innermost output axis longer than 1 (a split across
// threads keeps whole rows: a GEMM tiles them).
func Dims(k *ir.Kernel) device.Dims {
	return device.Dims{Global: [3]int{k.OutSize(), 1, 1}, Local: [3]int{RowLen(k), 1, 1}}
}

// RowLen is the innermost output axis longer than 1.
func RowLen(k *ir.Kernel) int {
	out := k.OutShape()
	for d := len(out) - 1; d >= 0; d-- {
		if out[d] > 1 {
			return out[d]
		}
	}
	return 1
}

// Queue is a host backend's queue: Launch runs the kernel on the calling
// goroutine, split across GOMAXPROCS goroutines when it is large, and
// returns when it is done.
type Queue struct{}

// Launch runs p (a host Program) over dims.
func (Queue) Launch(p device.Program, bufs []device.Memory, dims device.Dims) error {
	hp, ok := p.(Program)
	if !ok {
		return fmt.Errorf("host queue: %T is not a host program", p)
	}
	Split(hp, bufs, dims.Items(), hp.Work(), dims.Local[0])
	return nil
}

// Synchronize returns at once: Launch has finished when it returns.
func (Queue) Synchronize() error { return nil }

// SplitMin is the work (items × work per item) below which a launch runs
// on one goroutine: below it, waking workers costs more than it saves. A
// unit of work is an element read or written by a vector loop (a GEMM
// counts an output's K/GemmWorkDiv): 128K of them take some 5–20 µs on one
// core, a few thread wake-ups. (A reduction of up to 64K elements is then
// one pass on one thread, and the runtime may run it on the caller.)
const SplitMin = 1 << 17

// GemmWorkDiv divides a matrix product's K into the work per output a host
// backend reports (Program.Work): a GEMM's inner loop does a vector of
// fused multiply-adds per element loaded, many times a reduction's work
// per element.
const GemmWorkDiv = 16

// GemmWork is the work per output of a K-long contraction.
func GemmWork(K int) int { return max(1, K/GemmWorkDiv) }

// Split runs p over [0, n), split across GOMAXPROCS goroutines when
// n*perItem is at least SplitMin, with split points at multiples of row
// unless there are fewer rows than threads. It returns when every chunk is done;
// a panic in any chunk is raised again on the caller once all have
// finished (the first one, when several panic).
//
// A launch of ChunkedMax work or more whose program is a ThreadSplitter
// runs on the program's own threads (a C kernel's: see
// native.Kernel.CallSplit for why). Otherwise the caller runs chunks
// itself, and a pool of helper goroutines (one per
// extra P, started on first use) claim the others: a chunk no helper has
// claimed by the time the caller gets to it runs on the caller, so a
// helper slow to wake never makes a launch wait for it. After a launch
// below ChunkedMax, a helper polls for the next launch for SpinWait before
// it parks, so a burst of short launches keeps the other cores awake
// instead of paying a thread wake-up (in a VM, an inter-processor
// interrupt) each; after a longer one it parks at once. A launch made
// while another is split (from another goroutine) runs on its caller
// alone.
func Split(p Program, bufs []device.Memory, n, perItem, row int) {
	if n*max(perItem, 1) < SplitMin || n < 2 { // before GOMAXPROCS, which takes the scheduler's lock
		p.Run(bufs, 0, n)
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if workers <= 1 {
		p.Run(bufs, 0, n)
		return
	}
	chunks, short := workers, n*max(perItem, 1) < ChunkedMax
	if short && (perItem <= 1 || row <= 1 || n/row < workers) { // not whole rows of a GEMM or a reduce
		chunks *= ChunksPerWorker
	}
	chunks = min(chunks, n)
	size := (n + chunks - 1) / chunks
	switch {
	case row > 1 && row < size:
		size = (size + row - 1) / row * row
	case row > 1 && n/row >= workers: // a row or more per chunk, and a row for each thread
		size = row
	}
	if ts, ok := p.(ThreadSplitter); ok && !short && ts.RunSplit(bufs, n, size, workers) {
		return
	}
	j := &job{p: p, bufs: bufs, n: n, size: size, chunks: int32((n + size - 1) / size), short: short}
	j.wg.Add(int(j.chunks))
	pool.start(workers - 1)
	published := pool.cur.CompareAndSwap(nil, j) // another split in flight: run alone
	if published && pool.parked.Load() > 0 {
		pool.wakeAll()
	}
	j.help()
	if published {
		pool.cur.CompareAndSwap(j, nil)
	}
	if j.done.Load() < j.chunks { // a helper's chunk is in flight: it ends soon
		for t := time.Now(); short && j.done.Load() < j.chunks && time.Since(t) < SpinWait; {
			runtime.Gosched()
		}
		j.wg.Wait()
	}
	if r := j.panicked.Load(); r != nil {
		panic(*r)
	}
}

// ChunksPerWorker is how many chunks a split launch below ChunkedMax has
// per thread: more than one, so that when a helper starts late the caller
// has run the chunks it did not get to, not waited for a half. A launch
// whose chunks keep whole rows of items that each fold several elements
// (a GEMM's rows, a reduce's output rows) has one chunk per thread at any
// size: a chunk can cost more than its items (a packed GEMM packs its B
// panels once per chunk, and its tiles are rows of 12 or 6).
const ChunksPerWorker = 4

// ChunkedMax is the work (items × work per item) from which a split
// launch has one chunk per thread, and after which helpers park at once:
// a helper's late start (a thread wake-up, some 5–50 µs) is then a small
// part of the launch. In 8 chunks rather than 2 on 2 threads, the product
// of a 128×256 matrix and a transposed 784×256 one (1.6M of work) took
// 2.1× as long, and 128×784 by 784×256 1.2× (one process, the two
// alternating, load 4).
const ChunkedMax = 8 * SplitMin

// SpinWait is how long a helper goroutine polls for the next split launch
// after its last chunk of a launch below ChunkedMax before it parks (and
// how long the caller of such a launch polls for a helper's chunk to
// finish before it blocks): longer than the gap between
// the launches of a burst (a replay, a %timeit loop), short enough that
// an idle process goes back to no CPU at once.
const SpinWait = 50 * time.Microsecond

// job is one split launch: chunk i is items [i*size, min((i+1)*size, n)).
type job struct {
	p        Program
	bufs     []device.Memory
	n, size  int
	chunks   int32
	short    bool         // below ChunkedMax: helpers and the caller poll after it
	next     atomic.Int32 // the next chunk to claim
	done     atomic.Int32 // chunks finished
	wg       sync.WaitGroup
	panicked atomic.Pointer[any] // the first chunk's panic
}

// help runs chunks of j until none is left to claim.
func (j *job) help() {
	for {
		i := j.next.Add(1) - 1
		if i >= j.chunks {
			return
		}
		j.run(int(i))
	}
}

// run runs chunk i, recovering a panic for the caller.
func (j *job) run(i int) {
	defer func() {
		if r := recover(); r != nil {
			j.panicked.CompareAndSwap(nil, &r)
		}
		j.done.Add(1)
		j.wg.Done()
	}()
	s := i * j.size
	j.p.Run(j.bufs, s, min(s+j.size, j.n))
}

// pool is the helper goroutines: they run chunks of the launch in cur.
var pool helpers

type helpers struct {
	cur     atomic.Pointer[job] // the split launch helpers claim chunks of
	parked  atomic.Int32        // helpers waiting on wake
	started atomic.Int32
	mu      sync.Mutex // guards wake's condition and starting helpers
	wake    sync.Cond
}

// start makes sure there are at least n helpers.
func (h *helpers) start(n int) {
	if int(h.started.Load()) >= n {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.wake.L == nil {
		h.wake.L = &h.mu
	}
	for int(h.started.Load()) < n {
		h.started.Add(1)
		go h.loop()
	}
}

// wakeAll wakes the parked helpers.
func (h *helpers) wakeAll() {
	h.mu.Lock()
	h.wake.Broadcast()
	h.mu.Unlock()
}

// loop is a helper: it runs chunks while there are launches, polls for
// SpinWait after the last, then parks until a launch wakes it.
func (h *helpers) loop() {
	for {
		for t := time.Now(); time.Since(t) < SpinWait; {
			if j := h.cur.Load(); j != nil && j.next.Load() < j.chunks {
				j.help()
				if !j.short { // a wake-up is a small part of such a launch
					break
				}
				t = time.Now()
				continue
			}
			runtime.Gosched()
		}
		h.mu.Lock()
		h.parked.Add(1)
		// A launch published before parked was raised is seen here; one
		// published after it sees parked and wakes us (under mu, so not
		// before Wait has released it).
		if j := h.cur.Load(); j == nil || j.next.Load() >= j.chunks {
			h.wake.Wait()
		}
		h.parked.Add(-1)
		h.mu.Unlock()
	}
}

// Bytes is Go-heap memory, freed by the garbage collector.
type Bytes []byte

// Size is len(m).
func (m Bytes) Size() int { return len(m) }

// Bytes is m itself.
func (m Bytes) Bytes() []byte { return m }

// CopyIn copies src into host memory dst at byte offset off.
func CopyIn(dst device.Memory, off int, src []byte) error {
	h, ok := dst.(device.Host)
	if !ok {
		return fmt.Errorf("host: %T is not host memory", dst)
	}
	copy(h.Bytes()[off:], src)
	return nil
}

// CopyOut copies len(dst) bytes of host memory src from byte offset off.
func CopyOut(dst []byte, src device.Memory, off int) error {
	h, ok := src.(device.Host)
	if !ok {
		return fmt.Errorf("host: %T is not host memory", src)
	}
	copy(dst, h.Bytes()[off:off+len(dst)])
	return nil
}
