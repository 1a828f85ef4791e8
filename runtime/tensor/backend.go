package tensor

// This file is the device/backend interface. A backend is one file: it
// implements Backend (and Memory, Program) and registers itself by name in an
// init function:
//
//	func init() { RegisterBackend("CPU", cpuBackend{}) }
//
// The runtime does the rest: it wraps each registered backend in a device with
// its own queue and worker goroutine (Device(name)), compiles each Kernel once
// per backend through Compile (cached by Kernel.Key), and launches programs
// over ranges of output elements, split across GOMAXPROCS workers when large.

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Backend compiles kernels and allocates memory for one kind of device.
type Backend interface {
	// Available returns nil when the backend can run on this machine, or an
	// error saying why not and what to install (for example "no C compiler").
	// Unavailable backends stay registered but Device(name) refuses them.
	Available() error
	// Alloc returns storage for n elements of dt (n may be 0), not
	// necessarily zeroed: the runtime overwrites all of it (newBuffer).
	Alloc(dt DType, n int) (Memory, error)
	// Compile turns a kernel into a Program. The runtime calls it once per
	// distinct Kernel.Key and caches the result; it must not keep k's
	// buffers (there are none) and may keep k itself.
	Compile(k *Kernel) (Program, error)
}

// Memory is the storage of one buffer. All backends in tick are host-visible:
// Bytes returns the storage itself (len = elements × dtype size), which the
// runtime reads and writes for transfers. Memory handed out by Alloc stays
// valid until Free, which the runtime calls when the buffer is unreachable.
type Memory interface {
	Bytes() []byte
	Free()
}

// Program is a compiled kernel.
type Program interface {
	// Run computes output elements [start, end) of the kernel; bufs[i]
	// corresponds to Kernel.Bufs[i] and bufs[0] is the output. The runtime
	// calls Run concurrently with disjoint ranges.
	Run(bufs []Memory, start, end int)
	// Source is the program's text for DEBUG=4: generated C for a native
	// backend, the closure program for GO.
	Source() string
}

// backends is the process-wide registry, like database/sql drivers: backends
// register from init functions and devices are found by name.
var backends = struct {
	sync.Mutex
	m map[string]Backend
}{m: map[string]Backend{}}

// RegisterBackend makes a backend available as Device(name). Names are upper
// case by convention ("GO", "CPU", "NULL"). Registering a name twice panics,
// as it is a programming error in the backend's init.
func RegisterBackend(name string, b Backend) {
	backends.Lock()
	defer backends.Unlock()
	name = strings.ToUpper(name)
	if _, dup := backends.m[name]; dup {
		panic("tensor: RegisterBackend called twice for " + name)
	}
	backends.m[name] = b
}

// Backends lists the registered backend names, sorted.
func Backends() []string {
	backends.Lock()
	defer backends.Unlock()
	names := make([]string, 0, len(backends.m))
	for n := range backends.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// AvailableBackends lists the registered backends whose Available() is nil,
// sorted. Tests iterate over it so every backend runs the same suite.
func AvailableBackends() []string {
	var out []string
	for _, n := range Backends() {
		if lookupBackend(n).Available() == nil {
			out = append(out, n)
		}
	}
	return out
}

func lookupBackend(name string) Backend {
	backends.Lock()
	defer backends.Unlock()
	return backends.m[strings.ToUpper(name)]
}

// DeviceError says a device name is unknown or its backend cannot run here.
type DeviceError struct {
	Name string
	Err  error // nil when the name is not registered
}

func (e *DeviceError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("tensor: unknown device %q (registered: %s); set DEVICE or call Device with one of those",
			e.Name, strings.Join(Backends(), ", "))
	}
	return fmt.Sprintf("tensor: device %s is not available: %v", e.Name, e.Err)
}

func (e *DeviceError) Unwrap() error { return e.Err }
