// Package cl is the OpenCL backend, DEVICE=CL (device 0) or CL:N: device
// buffers, an in-order command queue with profiling (every launch and copy
// stamped on the device's clock), kernels rendered as OpenCL C by package
// render and built by the driver, their binaries cached on disk per device
// and driver version. The OpenCL loader is opened at run time
// (dlopen("libOpenCL.so.1"), through cgo): tick builds without OpenCL, and
// without a loader or a driver the backend is registered but unavailable,
// with an error naming what to install.
//
// Devices are numbered across platforms in the order the loader lists
// them (clinfo's order): CL:0 is the first device of the first platform.
package cl

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/tick-kernel/tick/runtime/device"
)

func init() { device.Register("CL", Backend{}) }

// OpenCL parameter names (CL/cl.h) the backend reads.
const (
	platformName       = 0x0902
	platformVersion    = 0x0901
	deviceType         = 0x1000
	deviceComputeUnits = 0x1002
	deviceMaxWorkGroup = 0x1004
	deviceSingleFP     = 0x101B
	deviceName         = 0x102B
	deviceVendor       = 0x102C
	driverVersion      = 0x102D
	deviceVersion      = 0x102F
	deviceExtensions   = 0x1030
	deviceCVersion     = 0x103D

	typeCPU, typeGPU, typeAccelerator = 1 << 1, 1 << 2, 1 << 3
	fpFMA, fpSoftFloat                = 1 << 5, 1 << 6
	fpCorrectlyRoundedDivideSqrt      = 1 << 7
)

// envFMA, set to 0, keeps the matmul kernels from fusing multiply-adds
// (as for the CPU and GO devices): results are then bit-identical to the
// reference interpreter. Otherwise, where the device has hardware FMA
// (CL_FP_FMA, not CL_FP_SOFT_FLOAT), each output is the in-order chain of
// fma()s, the CPU and GO devices' bits. Read when a kernel is rendered.
const envFMA = "TICK_FMA"

// Backend is the OpenCL backend.
type Backend struct{}

// found is one OpenCL device as enumerated.
type found struct {
	platform, dev handle
	platName      string // "Portable Computing Language"
	platVersion   string // "OpenCL 3.0 PoCL 3.1+debian ..."
	name, vendor  string
	driver        string // driver version, "3.1+debian"
	version       string // device OpenCL version
	kind          string // "cpu", "gpu", "accelerator"
	units         int    // compute units
	maxWG         int
	fp64          bool
	exactDivSqrt  bool // correctly rounded float division and sqrt available
	fma           bool // fused multiply-add in hardware
}

var enum struct {
	once sync.Once
	devs []found
	err  error
}

// enumerate lists the OpenCL devices once per process.
func enumerate() ([]found, error) {
	enum.once.Do(func() { enum.devs, enum.err = list() })
	return enum.devs, enum.err
}

func list() ([]found, error) {
	if err := cgoAvailable(); err != nil {
		return nil, err
	}
	if err := loadLibrary(); err != nil {
		return nil, err
	}
	ps, err := platforms()
	if e, ok := err.(*APIError); ok && e.Code == codePlatformNotFoundKHR || err == nil && len(ps) == 0 {
		return nil, &UnavailableError{Reason: "no OpenCL driver (ICD) is installed: the loader found no platform " +
			"(drivers are listed in /etc/OpenCL/vendors, or the directory $OCL_ICD_VENDORS names)"}
	}
	if err != nil {
		return nil, &UnavailableError{Reason: err.Error()}
	}
	var out []found
	for _, p := range ps {
		ds, err := devices(p)
		if err != nil {
			continue
		}
		for _, d := range ds {
			f := found{platform: p, dev: d, platName: platformString(p, platformName), platVersion: platformString(p, platformVersion),
				name: deviceString(d, deviceName), vendor: deviceString(d, deviceVendor), driver: deviceString(d, driverVersion),
				version: deviceString(d, deviceVersion), units: int(deviceUint(d, deviceComputeUnits)),
				maxWG: int(deviceUint(d, deviceMaxWorkGroup))}
			switch t := deviceUint(d, deviceType); {
			case t&typeGPU != 0:
				f.kind = "gpu"
			case t&typeCPU != 0:
				f.kind = "cpu"
			case t&typeAccelerator != 0:
				f.kind = "accelerator"
			default:
				f.kind = "other"
			}
			f.fp64 = strings.Contains(deviceString(d, deviceExtensions), "cl_khr_fp64")
			fp := deviceUint(d, deviceSingleFP)
			f.exactDivSqrt = fp&fpCorrectlyRoundedDivideSqrt != 0
			f.fma = fp&fpFMA != 0 && fp&fpSoftFloat == 0
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, &UnavailableError{Reason: fmt.Sprintf("the OpenCL drivers installed (%d platforms) offer no device", len(ps))}
	}
	return out, nil
}

// Available is nil when an OpenCL loader, a driver and a device are
// present; otherwise an *UnavailableError naming what to install.
func (Backend) Available() error {
	_, err := enumerate()
	return err
}

// Open opens device number ordinal (CL:ordinal): a context and an
// in-order, profiling command queue on it.
func (Backend) Open(ordinal int) (device.Device, error) {
	devs, err := enumerate()
	if err != nil {
		return nil, err
	}
	if ordinal >= len(devs) {
		names := make([]string, len(devs))
		for i, f := range devs {
			names[i] = fmt.Sprintf("CL:%d %s (%s)", i, f.name, f.kind)
		}
		return nil, fmt.Errorf("there is no OpenCL device %d: this machine has %s", ordinal, strings.Join(names, ", "))
	}
	f := devs[ordinal]
	ctx, err := createContext(f.platform, f.dev)
	if err != nil {
		return nil, err
	}
	q, err := createQueue(ctx, f.dev)
	if err != nil {
		return nil, err
	}
	d := &Device{f: f, ordinal: ordinal, ctx: ctx, q: q, progs: newProgramCache(f)}
	d.opts = "-cl-std=CL1.2"
	if f.exactDivSqrt {
		d.opts += " -cl-fp32-correctly-rounded-divide-sqrt"
	}
	return d, nil
}

// Device is one OpenCL device with its context and queue. It is its own
// Queue: launches and copies go to one in-order command queue, and every
// command's event is kept until the runtime reads the stamps (Stamps).
type Device struct {
	f       found
	ordinal int
	ctx, q  handle
	opts    string // build options
	progs   *programCache

	mu  sync.Mutex
	evs []handle // events of the commands since the last Stamps, in order
	raw []uint64 // Stamps' scratch
	// launch scratch (under mu): arguments, grids and events of a batch
	args  []handle
	ks    []handle
	nargs []uint32
	dim   []uint32
	dims  []uintptr
	bevs  []handle
}

// name is "CL:N" for messages.
func (d *Device) name() string { return fmt.Sprintf("CL:%d", d.ordinal) }

// Info describes the device: the driver, its version, the device's name
// and kind.
func (d *Device) Info() device.Info {
	return device.Info{Name: "CL", Backend: fmt.Sprintf("OpenCL C (%s, %s)", d.short(), d.f.kind),
		Compiler: d.f.platName, CompilerVersion: d.f.platVersion, Flags: strings.Fields(d.opts),
		Device: d.f.name, Driver: d.f.driver, MatmulFMA: d.fused(), Computes: true}
}

// fused reports whether matmul kernels fuse multiply-adds: the device
// has hardware FMA and $TICK_FMA is not 0.
func (d *Device) fused() bool { return d.f.fma && os.Getenv(envFMA) != "0" }

// short is the driver in a few words: "pocl 3.1+debian".
func (d *Device) short() string {
	name := d.f.platName
	if strings.Contains(name, "Portable Computing Language") {
		name = "pocl"
	}
	return name + " " + d.f.driver
}

// Describe is one line for timing provenance.
func (d *Device) Describe() string {
	mm := "matmul with fma"
	if !d.fused() {
		mm = "matmul without fma"
	}
	return fmt.Sprintf("%s (OpenCL C on %s, %s, %d compute units; %s %s; %s)", d.name(), d.f.name, d.f.kind, d.f.units, d.short(), d.opts, mm)
}

// OffHeap: device buffers are outside Go's heap.
func (d *Device) OffHeap() bool { return true }

// Queue is the device itself.
func (d *Device) Queue() device.Queue { return d }

// Asynchronous: launches only enqueue.
func (d *Device) Asynchronous() bool { return true }

// Memory is an OpenCL buffer.
type Memory struct {
	m    handle
	size int // bytes of the buffer
	cap  int // bytes allocated
}

// Size is the buffer's bytes.
func (m *Memory) Size() int { return m.size }

// Cap is the allocation's bytes.
func (m *Memory) Cap() int { return m.cap }
