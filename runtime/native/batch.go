package native

import "unsafe"

// Batch collects kernel calls and runs them in order in one cgo call, for
// sequences of small launches (a JIT replay) where the crossing into C would
// otherwise dominate. Its arrays live in C memory, grown as needed and
// reused after Reset, so a run passes no Go memory to C (no cgo pointer
// checks). Buffer pointers must be C memory (Alloc) or Go memory pinned until
// Run returns. A Batch is not safe for concurrent use; Free releases it.
type Batch struct {
	n, capN       int
	nFlat, capFlt int
	fns, flat     unsafe.Pointer // C arrays of pointers
	offs, se      unsafe.Pointer // C arrays of int64: offsets into flat; start,end pairs
	ts            unsafe.Pointer // C array of capN+1 int64: RunTimed's clock readings
}

// Reset empties the batch, keeping its storage.
func (b *Batch) Reset() { b.n, b.nFlat = 0, 0 }

// Len is the number of calls added since Reset.
func (b *Batch) Len() int { return b.n }

// Add appends a call of k with bufs over [start, end); empty ranges are
// skipped. It returns an error only when C memory cannot be allocated.
func (b *Batch) Add(k *Kernel, bufs []unsafe.Pointer, start, end int64) error {
	if end <= start {
		return nil
	}
	if b.n == b.capN {
		if err := b.growCalls(); err != nil {
			return err
		}
	}
	if b.nFlat+len(bufs) > b.capFlt {
		if err := b.growFlat(b.nFlat + len(bufs)); err != nil {
			return err
		}
	}
	unsafe.Slice((*unsafe.Pointer)(b.fns), b.capN)[b.n] = k.fn
	unsafe.Slice((*int64)(b.offs), b.capN)[b.n] = int64(b.nFlat)
	se := unsafe.Slice((*int64)(b.se), 2*b.capN)
	se[2*b.n], se[2*b.n+1] = start, end
	copy(unsafe.Slice((*unsafe.Pointer)(b.flat), b.capFlt)[b.nFlat:], bufs)
	b.n++
	b.nFlat += len(bufs)
	return nil
}

// Run executes the calls in order, in one call into C.
func (b *Batch) Run() {
	if b.n > 0 {
		runFlat(b.fns, b.flat, b.offs, b.se, b.n)
	}
}

// RunTimed is Run that also times each call, for profiles: it sets
// elapsed[i] to the nanoseconds from the start of the run to the end of
// call i (so call i took elapsed[i] - elapsed[i-1]), reading C's monotonic
// clock in the same crossing. elapsed must have Len() elements.
func (b *Batch) RunTimed(elapsed []int64) {
	if b.n == 0 {
		return
	}
	if len(elapsed) != b.n {
		panic("native: RunTimed needs one elapsed slot per call")
	}
	runFlatTimed(b.fns, b.flat, b.offs, b.se, b.n, b.ts)
	ts := unsafe.Slice((*int64)(b.ts), b.n+1)
	for i := range elapsed {
		elapsed[i] = ts[i+1] - ts[0]
	}
}

// Free releases the C memory; the Batch is empty and reusable afterwards.
func (b *Batch) Free() {
	for _, p := range []unsafe.Pointer{b.fns, b.flat, b.offs, b.se, b.ts} {
		Free(p)
	}
	*b = Batch{}
}

// growCalls doubles the per-call arrays, keeping their contents.
func (b *Batch) growCalls() error {
	c := max(16, 2*b.capN)
	fns, err := regrow(b.fns, b.capN*ptrSize, c*ptrSize)
	if err != nil {
		return err
	}
	b.fns = fns
	if b.offs, err = regrow(b.offs, b.capN*8, c*8); err != nil {
		return err
	}
	if b.se, err = regrow(b.se, b.capN*16, c*16); err != nil {
		return err
	}
	if b.ts, err = regrow(b.ts, 0, (c+1)*8); err != nil {
		return err
	}
	b.capN = c
	return nil
}

func (b *Batch) growFlat(need int) error {
	c := max(64, 2*b.capFlt, need)
	flat, err := regrow(b.flat, b.capFlt*ptrSize, c*ptrSize)
	if err != nil {
		return err
	}
	b.flat, b.capFlt = flat, c
	return nil
}

// regrow allocates size bytes of C memory, copies used bytes from old and frees it.
func regrow(old unsafe.Pointer, used, size int) (unsafe.Pointer, error) {
	p, err := Alloc(size)
	if err != nil {
		return nil, err
	}
	if used > 0 {
		copy(unsafe.Slice((*byte)(p), used), unsafe.Slice((*byte)(old), used))
	}
	Free(old)
	return p, nil
}
