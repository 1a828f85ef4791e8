//go:build !cgo || !unix

package native

import "unsafe"

func cgoAvailable() error {
	return &UnavailableError{Reason: "built without cgo: the CPU backend needs cgo and a C compiler (build with CGO_ENABLED=1)"}
}

func dlOpen(string) (unsafe.Pointer, error) { return nil, cgoAvailable() }

func dlSym(unsafe.Pointer, string) (unsafe.Pointer, error) { return nil, cgoAvailable() }

func callKernel(unsafe.Pointer, *unsafe.Pointer, int64, int64) {
	panic("native: kernel called in a build without cgo")
}

func callSplit(unsafe.Pointer, *unsafe.Pointer, int64, int64, int) bool {
	panic("native: kernel called in a build without cgo")
}

// Alloc returns the *UnavailableError: there is no C memory without cgo.
func Alloc(int) (unsafe.Pointer, error) { return nil, cgoAvailable() }

// Free does nothing without cgo.
func Free(unsafe.Pointer) {}

func runPlan(unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, int) {
	panic("native: plan run in a build without cgo")
}

func runFlat(unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, int) {
	panic("native: batch run in a build without cgo")
}

func runFlatTimed(unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, int, unsafe.Pointer) {
	panic("native: batch run in a build without cgo")
}
