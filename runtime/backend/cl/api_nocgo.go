//go:build !cgo || !unix

package cl

import "unsafe"

// Without cgo there is no way to call the OpenCL loader: every entry point
// reports the backend unavailable, saying why.

type handle = unsafe.Pointer

func cgoAvailable() error {
	return &UnavailableError{Reason: "this tick was built without cgo (CGO_ENABLED=0), and the OpenCL backend calls " + libName +
		" through cgo; rebuild tick with cgo and a C compiler"}
}

func loadLibrary() error                                           { return cgoAvailable() }
func platforms() ([]handle, error)                                 { return nil, cgoAvailable() }
func platformString(handle, uint32) string                         { return "" }
func devices(handle) ([]handle, error)                             { return nil, cgoAvailable() }
func deviceString(handle, uint32) string                           { return "" }
func deviceUint(handle, uint32) uint64                             { return 0 }
func createContext(handle, handle) (handle, error)                 { return nil, cgoAvailable() }
func createQueue(handle, handle) (handle, error)                   { return nil, cgoAvailable() }
func createBuffer(handle, int) (handle, error)                     { return nil, cgoAvailable() }
func releaseMem(handle)                                            {}
func write(handle, handle, int, []byte, *handle) error             { return cgoAvailable() }
func read(handle, handle, int, []byte, *handle) error              { return cgoAvailable() }
func build(handle, handle, string, []byte, string) (handle, error) { return nil, cgoAvailable() }
func binary(handle) []byte                                         { return nil }
func createKernel(handle, string) (handle, error)                  { return nil, cgoAvailable() }
func kernelWorkGroup(handle, handle) (int, int)                    { return 0, 0 }
func launch(handle, handle, []handle, int, *[6]uintptr, *handle) error {
	return cgoAvailable()
}
func launchBatch(handle, []handle, []uint32, []handle, []uint32, []uintptr, []handle) (int, error) {
	return 0, cgoAvailable()
}
func marker(handle, *handle) error   { return cgoAvailable() }
func finish(handle) error            { return cgoAvailable() }
func wait(handle) error              { return cgoAvailable() }
func waitAll([]handle) error         { return cgoAvailable() }
func times([]handle, []uint64) error { return cgoAvailable() }
