// Package null is the NULL device: it allocates memory and runs nothing.
// It lets the scheduler, queue, counters and JIT be tested (and timed)
// without computing anything, like tinygrad's null device. Results read
// from NULL tensors are zeros.
package null

import (
	"fmt"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
	"github.com/tick-kernel/tick/runtime/ir"
)

func init() { device.Register("NULL", Backend{}) }

// Backend is the NULL backend. Other test backends embed it and override
// what they change.
type Backend struct{}

// Available is always nil.
func (Backend) Available() error { return nil }

// Open returns the NULL device (there is one).
func (Backend) Open(ordinal int) (device.Device, error) {
	if ordinal != 0 {
		return nil, fmt.Errorf("the NULL backend has one device, NULL (not NULL:%d)", ordinal)
	}
	return Device{}, nil
}

// Device is the NULL device.
type Device struct{}

// Alloc returns Go-heap memory.
func (Device) Alloc(dt ir.DType, n int) (device.Memory, error) {
	return host.Bytes(make([]byte, n*dt.Size())), nil
}

// Free does nothing: the garbage collector frees the memory.
func (Device) Free(device.Memory) {}

// CopyIn copies into host memory.
func (Device) CopyIn(dst device.Memory, off int, src []byte) error { return host.CopyIn(dst, off, src) }

// CopyOut copies out of host memory.
func (Device) CopyOut(dst []byte, src device.Memory, off int) error {
	return host.CopyOut(dst, src, off)
}

// Compile returns a program that does nothing.
func (Device) Compile(k *ir.Kernel) (device.Program, error) {
	return Program{Src: k.Key(), Grid: host.Dims(k)}, nil
}

// Queue runs launches (of nothing) on the caller.
func (Device) Queue() device.Queue { return Queue{} }

// Info says the NULL device computes nothing.
func (Device) Info() device.Info { return device.Info{Name: "NULL", Backend: "none", Computes: false} }

// Describe says the NULL device computes nothing.
func (Device) Describe() string { return "NULL (runs nothing; results are zeros)" }

// Render is the kernel's IR: there is no other source.
func (Device) Render(k *ir.Kernel) (string, error) { return Program{Src: k.Key()}.Source(), nil }

// Program is a kernel that does nothing.
type Program struct {
	Src  string
	Grid device.Dims
}

// Dims is the kernel's host grid.
func (p Program) Dims() device.Dims { return p.Grid }

// Source says the device does nothing.
func (p Program) Source() string { return "// NULL device: does nothing\n" + p.Src }

// Queue launches nothing.
type Queue struct{}

// Launch does nothing.
func (Queue) Launch(device.Program, []device.Memory, device.Dims) error { return nil }

// Synchronize returns at once.
func (Queue) Synchronize() error { return nil }
