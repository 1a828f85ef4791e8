package native

import (
	"fmt"
	"unsafe"
)

// Plan is a fixed sequence of kernel calls run in one cgo crossing, for JIT
// replay: the steps and their pointer tables live in C memory, and a replay
// only swaps buffer pointers (SetBuf) and calls Run. Buffer pointers must be
// C memory (Alloc) or Go memory pinned for as long as the plan may run. A
// Plan is not safe for concurrent use; Free releases its C memory.
type Plan struct {
	kernels []*Kernel
	bufs    [][]unsafe.Pointer // Go copy of each step's pointer table
	starts  []int64
	ends    []int64

	dirty                      bool             // Go copy changed structurally since the C arrays were built
	cArgs                      []unsafe.Pointer // C pointer table per step
	cFns, cTab, cStarts, cEnds unsafe.Pointer
}

// Add appends a call of k with bufs over [start, end) and returns its step index.
func (p *Plan) Add(k *Kernel, bufs []unsafe.Pointer, start, end int64) int {
	p.kernels = append(p.kernels, k)
	p.bufs = append(p.bufs, append([]unsafe.Pointer(nil), bufs...))
	p.starts = append(p.starts, start)
	p.ends = append(p.ends, end)
	p.dirty = true
	return len(p.kernels) - 1
}

// SetBuf replaces buffer slot of step (for a replay with new inputs).
func (p *Plan) SetBuf(step, slot int, ptr unsafe.Pointer) {
	p.bufs[step][slot] = ptr
	if !p.dirty {
		*(*unsafe.Pointer)(unsafe.Add(p.cArgs[step], slot*ptrSize)) = ptr
	}
}

const ptrSize = int(unsafe.Sizeof(unsafe.Pointer(nil)))

// Run executes every step in order, in one call into C.
func (p *Plan) Run() error {
	if len(p.kernels) == 0 {
		return nil
	}
	if p.dirty {
		if err := p.build(); err != nil {
			return err
		}
	}
	runPlan(p.cFns, p.cTab, p.cStarts, p.cEnds, len(p.kernels))
	return nil
}

// build copies the steps into C memory.
func (p *Plan) build() error {
	p.Free()
	n := len(p.kernels)
	alloc := func(bytes int) unsafe.Pointer {
		ptr, err := Alloc(bytes)
		if err != nil {
			panic(err)
		}
		return ptr
	}
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("native: building plan of %d steps: %v", n, r)
			}
		}()
		p.cFns, p.cTab = alloc(n*ptrSize), alloc(n*ptrSize)
		p.cStarts, p.cEnds = alloc(n*8), alloc(n*8)
		fns := unsafe.Slice((*unsafe.Pointer)(p.cFns), n)
		tab := unsafe.Slice((*unsafe.Pointer)(p.cTab), n)
		starts := unsafe.Slice((*int64)(p.cStarts), n)
		ends := unsafe.Slice((*int64)(p.cEnds), n)
		p.cArgs = make([]unsafe.Pointer, n)
		for i, k := range p.kernels {
			p.cArgs[i] = alloc(max(len(p.bufs[i]), 1) * ptrSize)
			copy(unsafe.Slice((*unsafe.Pointer)(p.cArgs[i]), len(p.bufs[i])), p.bufs[i])
			fns[i], tab[i], starts[i], ends[i] = k.fn, p.cArgs[i], p.starts[i], p.ends[i]
		}
	}()
	if err != nil {
		p.Free()
		return err
	}
	p.dirty = false
	return nil
}

// Free releases the plan's C memory; the plan stays usable (Run rebuilds it).
func (p *Plan) Free() {
	for _, a := range p.cArgs {
		Free(a)
	}
	for _, a := range []unsafe.Pointer{p.cFns, p.cTab, p.cStarts, p.cEnds} {
		Free(a)
	}
	p.cArgs, p.cFns, p.cTab, p.cStarts, p.cEnds = nil, nil, nil, nil, nil
	p.dirty = true
}
