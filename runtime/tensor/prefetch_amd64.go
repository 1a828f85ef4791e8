package tensor

import "unsafe"

// prefetchW asks for the cache lines of p[0:n] for writing, without
// waiting for them (prefetch_amd64.s).
//
//go:noescape
func prefetchW(p unsafe.Pointer, n uintptr)
