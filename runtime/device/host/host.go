// Package host holds what tick's host backends (CPU, GO, NULL) share: a
// synchronous Queue that maps a launch's global and local sizes onto the
// machine's threads, and plain Go-heap memory.
package host

import (
	"fmt"
	"runtime"
	"sync"

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
// when rows are shorter than a chunk.
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
	workers = min(workers, n)
	chunk := (n + workers - 1) / workers
	if row > 1 && row < chunk {
		chunk = (chunk + row - 1) / row * row
	}
	var wg sync.WaitGroup
	for s := chunk; s < n; s += chunk {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			p.Run(bufs, s, min(s+chunk, n))
		}(s)
	}
	p.Run(bufs, 0, min(chunk, n))
	wg.Wait()
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
