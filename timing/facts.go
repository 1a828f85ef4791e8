package timing

import (
	"slices"
	"strings"
	"time"
)

// Facts are what the runtime recorded during a call (Target.Record): the
// caller adapts its runtime's record to these types, so the engine knows
// which devices ran the statement, what it read, how its kernels were found
// and which JIT calls it made, without knowing the runtime.
type Facts struct {
	// JIT lists the JIT calls made, in order.
	JIT []JITCall `json:"jit,omitempty"`
	// Kernels lists the compile-cache lookups.
	Kernels []KernelCache `json:"kernels,omitempty"`
	// Devices describes each device work was enqueued on.
	Devices []Device `json:"devices,omitempty"`
	// Reads are the tensors read that the call did not compute itself,
	// e.g. "[256] float32 on CPU".
	Reads []string `json:"reads,omitempty"`
	// DeviceTimes are kernels' times by the clock of a device that has one
	// (read when it synchronized during the call), per kernel and device.
	DeviceTimes []KernelTime `json:"device_times,omitempty"`
	// Transfers are the copies between the host and a device's own memory
	// and between devices, per direction.
	Transfers []Transfer `json:"transfers,omitempty"`
}

// KernelTime is a kernel's launches and their summed time by its device's
// clock.
type KernelTime struct {
	Name     string        `json:"name"`
	Device   string        `json:"device"`
	Launches int           `json:"launches"`
	Time     time.Duration `json:"device_ns"`
}

// Transfer is the copies in one direction: From and To name devices, or
// "host" for the host's memory. Host is their time on the host's clock,
// Device by the device's clock (0 where it has none).
type Transfer struct {
	From   string        `json:"from"`
	To     string        `json:"to"`
	Count  int           `json:"count"`
	Bytes  int64         `json:"bytes"`
	Host   time.Duration `json:"host_ns"`
	Device time.Duration `json:"device_ns,omitempty"`
}

// Direction is "host→CL".
func (t Transfer) Direction() string { return t.From + "→" + t.To }

// JITCall is one call of a JIT: its number since the JIT was made (or
// reset), what it did, and its input signature.
type JITCall struct {
	Call   int      `json:"call"`
	Kind   CallKind `json:"kind"`
	Inputs []string `json:"inputs,omitempty"`
}

// KernelCache is one compile-cache lookup: the kernel, its device, and
// Cache: "compiled", "memory hit" or "disk hit".
type KernelCache struct {
	Name   string `json:"name"`
	Device string `json:"device"`
	Cache  string `json:"cache"`
}

// Cache outcomes in KernelCache.Cache.
const (
	CacheCompiled = "compiled"
	CacheMemory   = "memory hit"
	CacheDisk     = "disk hit"
)

// Device describes a device that ran work: its backend and, for a native
// backend, the compiler, its version and flags. Computes is false for a
// device that runs no kernels (tick's NULL): no throughput is claimed for
// it.
type Device struct {
	Name            string   `json:"name"`
	Backend         string   `json:"backend"`
	Compiler        string   `json:"compiler,omitempty"`
	CompilerVersion string   `json:"compiler_version,omitempty"`
	Flags           []string `json:"flags,omitempty"`
	Computes        bool     `json:"computes"`
	// Clock reports that the device stamps its commands on a clock of its
	// own (OpenCL's profiling events): its kernels and copies have device
	// times.
	Clock bool `json:"clock,omitempty"`
}

// Describe renders the backend on one line: "C via cc (gcc 12.2.0) -O3
// -march=native ...", "Go closures", "none (runs no kernels)".
func (d Device) Describe() string {
	s := d.Backend
	if d.Compiler != "" {
		s += " via " + d.Compiler
		if d.CompilerVersion != "" {
			s += " (" + d.CompilerVersion + ")"
		}
		if len(d.Flags) > 0 {
			s += " " + strings.Join(d.Flags, " ")
		}
	}
	if !d.Computes {
		s += " (runs no kernels: results are zeros)"
	}
	return s
}

// merge adds g's facts to f: lists appended, devices and reads once.
func (f *Facts) merge(g Facts) {
	f.JIT = append(f.JIT, g.JIT...)
	f.Kernels = append(f.Kernels, g.Kernels...)
	for _, d := range g.Devices {
		if !slices.ContainsFunc(f.Devices, func(e Device) bool { return e.Name == d.Name }) {
			f.Devices = append(f.Devices, d)
		}
	}
	for _, r := range g.Reads {
		if !slices.Contains(f.Reads, r) {
			f.Reads = append(f.Reads, r)
		}
	}
	f.DeviceTimes = append(f.DeviceTimes, g.DeviceTimes...)
	f.Transfers = append(f.Transfers, g.Transfers...)
}

// clocks names the devices in f that have a clock of their own (described
// in Devices, or with kernels timed by one).
func (f Facts) clocks() []string {
	var out []string
	for _, d := range f.Devices {
		if d.Clock {
			out = append(out, d.Name)
		}
	}
	for _, k := range f.DeviceTimes {
		if !slices.Contains(out, k.Device) {
			out = append(out, k.Device)
		}
	}
	return out
}

// firstJITCall is the number of the first JIT call in f, 0 without one.
func (f Facts) firstJITCall() int {
	if len(f.JIT) == 0 {
		return 0
	}
	return f.JIT[0].Call
}

// computes reports whether every device in f runs its kernels (true when
// no device ran anything).
func (f Facts) computes() bool {
	for _, d := range f.Devices {
		if !d.Computes {
			return false
		}
	}
	return true
}
