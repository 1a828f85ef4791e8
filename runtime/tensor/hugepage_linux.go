//go:build linux

package tensor

import (
	"syscall"
	"unsafe"
)

// madvHugepage is MADV_HUGEPAGE (asm-generic/mman-common.h); package
// syscall has no name for it.
const madvHugepage = 14

// hugePage is the size of a transparent huge page on the architectures Go
// supports on Linux with 4 KiB base pages.
const hugePage = 2 << 20

// hugeMin is the smallest slice advised: two huge pages, so that at least
// one whole one lies inside it wherever it starts.
const hugeMin = 2 * hugePage

// adviseHugePages asks the kernel to back b's whole 2 MiB pages with
// transparent huge pages (madvise(MADV_HUGEPAGE); the machine's THP mode
// is often "madvise", where nothing else gets them). A slice read back
// from a device is written once, front to back, on pages the Go heap may
// just have taken from the OS: with 4 KiB pages a 32 MB read takes 8,192
// page faults, with huge pages 16. Slices below hugeMin, and kernels
// without THP (EINVAL), are left alone: the advice is an optimization, and
// a failure changes nothing else.
func adviseHugePages(b []byte) {
	if len(b) < hugeMin {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + uintptr(len(b))) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(b[lo-p:hi-p], madvHugepage)
}
