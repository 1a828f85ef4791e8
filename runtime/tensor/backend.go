package tensor

// Devices come from backends registered with package device (the
// interfaces a backend implements: runtime/device). This package wraps
// each opened device in a Dev with its queue and buffer pool, compiles each
// Kernel once per device (cached by Kernel.Key) and launches programs with
// the grid their backend chose. It never names a concrete backend: what a
// device can do beyond the interfaces, it asks for through the optional
// interfaces of package device.

import (
	"fmt"
	"strings"

	"github.com/tick-kernel/tick/runtime/device"
)

// Backends lists the registered backend names, sorted.
func Backends() []string { return device.Names() }

// AvailableBackends lists the registered backends whose Available() is nil,
// sorted. Tests iterate over it so every backend runs the same suite.
func AvailableBackends() []string {
	var out []string
	for _, n := range device.Names() {
		if device.Lookup(n).Available() == nil {
			out = append(out, n)
		}
	}
	return out
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

// CPUStatus describes the CPU device in one line, for a notebook to show
// once: the compiler and kernel cache it uses, or why it is unavailable and
// that the GO device is used instead.
func CPUStatus() string {
	if s, ok := device.Lookup("CPU").(device.Statuser); ok {
		return s.Status()
	}
	return "CPU device unavailable: this build has no CPU backend; using the GO device"
}
