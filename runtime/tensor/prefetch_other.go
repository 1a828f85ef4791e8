//go:build !amd64

package tensor

import "unsafe"

// prefetchW is a no-op where the runtime has no prefetch instruction.
func prefetchW(unsafe.Pointer, uintptr) {}
