package tensor

import (
	"bytes"
	"fmt"
	"runtime/metrics"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/device"
)

// Read-back at memory speed (issue 27): Float32s and its kind return a
// new slice holding a copy of the tensor, and that copy should cost what
// `out := make([]T, n); copy(out, src)` costs in compiled Go — which the
// compiler turns into one allocation Go does not clear and one copy. So:
//
//   - one pass over memory: from host memory (the GO and CPU devices) the
//     slice is allocated without clearing and filled by the copy
//     (bytes.Join of the source's chunks: the standard library's
//     allocation without clearing); a make'd slice on memory the heap
//     reuses would be cleared first and then overwritten, two passes where
//     compiled Go makes one. When the heap has too little free memory for
//     a large slice, its pages come fresh from the OS, which Go does not
//     clear: then the slice is make'd, advised for huge pages and filled;
//   - copies the collector can preempt: the copy goes in copyChunk pieces
//     (one memmove of 32 MB cannot be stopped, and the collector's
//     workers spin waiting for it);
//   - huge pages: the slice's whole 2 MiB pages are advised for
//     transparent huge pages (adviseHugePages): a slice on pages new to
//     the process faults 16 times per 32 MB instead of 8,192. Memory from
//     bytes.Join is filled as it is allocated, so there the advice is for
//     the next large slice at the same addresses, should the OS have had
//     them back by then (a make'd slice, and a discrete device's, is
//     advised before it is filled).

// freshMin is the smallest read that looks at the heap's free memory to
// choose between the two ways of allocating its slice.
const freshMin = 4 << 20

// heapHasFree reports whether the heap holds at least n bytes of free
// memory still backed by the OS (runtime/metrics), which a new slice would
// likely reuse (already touched, so Go clears it) rather than take fresh
// from the OS (untouched, already zero).
func heapHasFree(n int) bool {
	s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	return s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() >= uint64(n)
}

// readSlice reads t (of T's dtype) into a new []T with one copy.
func readSlice[T any](t *Tensor) []T {
	n := t.Numel()
	if n == 0 {
		return []T{}
	}
	var zero T
	b := t.readNew(n * int(unsafe.Sizeof(zero)))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// readNew synchronizes, makes t contiguous and returns its n bytes in a
// new slice, with one copy from device memory.
func (t *Tensor) readNew(n int) []byte {
	buf, off := t.readSource()
	return copyOutNew(buf, off, n)
}

// copyOutNew returns n bytes of b from byte off in a new slice (the
// device is synchronized already): from host memory allocated without
// clearing and filled in copyChunk pieces, from a discrete device's
// memory a cleared slice its driver copies into.
func copyOutNew(b *Buffer, off, n int) []byte {
	h, ok := b.mem.(device.Host)
	if !ok || b.dev.discrete() {
		dst := make([]byte, n)
		adviseHugePages(dst)
		copyOut(dst, b, off)
		return dst
	}
	src := h.Bytes()[off : off+n]
	if n >= freshMin && !heapHasFree(n) {
		// The heap will take the slice's pages from the OS: Go does not
		// clear those, so make costs nothing, and the advice comes before
		// the copy touches them (huge pages for this read, not the next).
		dst := make([]byte, n)
		adviseHugePages(dst)
		copyOut(dst, b, off)
		return dst
	}
	pieces := make([][]byte, 0, (n+copyChunk-1)/copyChunk)
	for i := 0; i < n; i += copyChunk {
		pieces = append(pieces, src[i:min(i+copyChunk, n)])
	}
	var dst []byte
	t0 := monoNow()
	err := b.dev.issue(cmdCopyOut, hostSide, int64(n), t0, func() error {
		dst = bytes.Join(pieces, nil)
		return nil
	})
	addPhaseAt(&counters.transferNS, t0)
	if err != nil {
		panic(fmt.Errorf("tensor: copying %d bytes from %s: %w", n, b.dev.name, err))
	}
	adviseHugePages(dst)
	return dst
}
