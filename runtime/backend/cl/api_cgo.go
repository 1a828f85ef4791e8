//go:build cgo && unix

package cl

// The OpenCL API, loaded at run time with dlopen("libOpenCL.so.1") (the
// ICD loader, which finds the installed drivers), so tick builds and runs
// without OpenCL headers or libraries. The types are declared here from
// the specification (handles are pointers, cl_int is 32 bits, cl_ulong and
// bitfields 64), not taken from CL/cl.h: a machine without
// ocl-icd-opencl-dev still builds tick with cgo.

/*
#cgo linux LDFLAGS: -ldl
#cgo noescape tick_cl_launch
#cgo nocallback tick_cl_launch
#cgo noescape tick_cl_launch_batch
#cgo nocallback tick_cl_launch_batch
#cgo noescape tick_cl_times
#cgo nocallback tick_cl_times
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef void *hnd;

static struct {
	cl_int (*GetPlatformIDs)(cl_uint, hnd *, cl_uint *);
	cl_int (*GetPlatformInfo)(hnd, cl_uint, size_t, void *, size_t *);
	cl_int (*GetDeviceIDs)(hnd, cl_ulong, cl_uint, hnd *, cl_uint *);
	cl_int (*GetDeviceInfo)(hnd, cl_uint, size_t, void *, size_t *);
	hnd (*CreateContext)(const intptr_t *, cl_uint, const hnd *, void *, void *, cl_int *);
	hnd (*CreateCommandQueue)(hnd, hnd, cl_ulong, cl_int *);
	hnd (*CreateBuffer)(hnd, cl_ulong, size_t, void *, cl_int *);
	cl_int (*ReleaseMemObject)(hnd);
	cl_int (*EnqueueWriteBuffer)(hnd, hnd, cl_uint, size_t, size_t, const void *, cl_uint, const hnd *, hnd *);
	cl_int (*EnqueueReadBuffer)(hnd, hnd, cl_uint, size_t, size_t, void *, cl_uint, const hnd *, hnd *);
	cl_int (*EnqueueCopyBuffer)(hnd, hnd, hnd, size_t, size_t, size_t, cl_uint, const hnd *, hnd *);
	hnd (*CreateProgramWithSource)(hnd, cl_uint, const char **, const size_t *, cl_int *);
	hnd (*CreateProgramWithBinary)(hnd, cl_uint, const hnd *, const size_t *, const unsigned char **, cl_int *, cl_int *);
	cl_int (*BuildProgram)(hnd, cl_uint, const hnd *, const char *, void *, void *);
	cl_int (*GetProgramBuildInfo)(hnd, hnd, cl_uint, size_t, void *, size_t *);
	cl_int (*GetProgramInfo)(hnd, cl_uint, size_t, void *, size_t *);
	cl_int (*ReleaseProgram)(hnd);
	hnd (*CreateKernel)(hnd, const char *, cl_int *);
	cl_int (*SetKernelArg)(hnd, cl_uint, size_t, const void *);
	cl_int (*GetKernelWorkGroupInfo)(hnd, hnd, cl_uint, size_t, void *, size_t *);
	cl_int (*EnqueueNDRangeKernel)(hnd, hnd, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, const hnd *, hnd *);
	cl_int (*EnqueueMarkerWithWaitList)(hnd, cl_uint, const hnd *, hnd *);
	cl_int (*Finish)(hnd);
	cl_int (*Flush)(hnd);
	cl_int (*WaitForEvents)(cl_uint, const hnd *);
	cl_int (*GetEventProfilingInfo)(hnd, cl_uint, size_t, void *, size_t *);
	cl_int (*ReleaseEvent)(hnd);
} tick_cl;

static void *tick_cl_lib;

// tick_cl_load opens the loader and resolves every entry point; it returns
// the name of the first missing one, "" when all are there, or NULL when
// the library itself cannot be opened.
static const char *tick_cl_load(const char *path) {
	tick_cl_lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!tick_cl_lib) return NULL;
#define SYM(f) if (!(*(void **)&tick_cl.f = dlsym(tick_cl_lib, "cl" #f))) return "cl" #f;
	SYM(GetPlatformIDs) SYM(GetPlatformInfo) SYM(GetDeviceIDs) SYM(GetDeviceInfo) SYM(CreateContext)
	SYM(CreateCommandQueue) SYM(CreateBuffer) SYM(ReleaseMemObject) SYM(EnqueueWriteBuffer)
	SYM(EnqueueReadBuffer) SYM(EnqueueCopyBuffer) SYM(CreateProgramWithSource) SYM(CreateProgramWithBinary)
	SYM(BuildProgram) SYM(GetProgramBuildInfo) SYM(GetProgramInfo) SYM(ReleaseProgram) SYM(CreateKernel)
	SYM(SetKernelArg) SYM(GetKernelWorkGroupInfo) SYM(EnqueueNDRangeKernel) SYM(EnqueueMarkerWithWaitList)
	SYM(Finish) SYM(Flush) SYM(WaitForEvents) SYM(GetEventProfilingInfo) SYM(ReleaseEvent)
#undef SYM
	return "";
}

static const char *tick_dl_error(void) { const char *e = dlerror(); return e ? e : ""; }

static cl_int tick_cl_platforms(cl_uint n, hnd *out, cl_uint *count) { return tick_cl.GetPlatformIDs(n, out, count); }
static cl_int tick_cl_platform_info(hnd p, cl_uint param, size_t n, void *out, size_t *size) {
	return tick_cl.GetPlatformInfo(p, param, n, out, size);
}
static cl_int tick_cl_devices(hnd p, cl_uint n, hnd *out, cl_uint *count) {
	return tick_cl.GetDeviceIDs(p, 0xFFFFFFFF, n, out, count);
}
static cl_int tick_cl_device_info(hnd d, cl_uint param, size_t n, void *out, size_t *size) {
	return tick_cl.GetDeviceInfo(d, param, n, out, size);
}
static hnd tick_cl_context(hnd p, hnd d, cl_int *err) {
	intptr_t props[3] = {0x1084, (intptr_t)p, 0}; // CL_CONTEXT_PLATFORM
	return tick_cl.CreateContext(props, 1, &d, NULL, NULL, err);
}
static hnd tick_cl_queue(hnd ctx, hnd d, cl_int *err) {
	return tick_cl.CreateCommandQueue(ctx, d, 1 << 1, err); // in order, CL_QUEUE_PROFILING_ENABLE
}
static hnd tick_cl_buffer(hnd ctx, size_t n, cl_int *err) {
	return tick_cl.CreateBuffer(ctx, 1 << 0, n ? n : 1, NULL, err); // CL_MEM_READ_WRITE
}
static cl_int tick_cl_release_mem(hnd m) { return tick_cl.ReleaseMemObject(m); }

// tick_cl_write and tick_cl_read copy blocking, in order after the queue's
// earlier commands; *ev receives the command's event.
static cl_int tick_cl_write(hnd q, hnd m, size_t off, size_t n, const void *src, hnd *ev) {
	return tick_cl.EnqueueWriteBuffer(q, m, 1, off, n, src, 0, NULL, ev);
}
static cl_int tick_cl_read(hnd q, hnd m, size_t off, size_t n, void *dst, hnd *ev) {
	return tick_cl.EnqueueReadBuffer(q, m, 1, off, n, dst, 0, NULL, ev);
}

static hnd tick_cl_program_source(hnd ctx, const char *src, size_t n, cl_int *err) {
	return tick_cl.CreateProgramWithSource(ctx, 1, &src, &n, err);
}
static hnd tick_cl_program_binary(hnd ctx, hnd d, const unsigned char *bin, size_t n, cl_int *status, cl_int *err) {
	return tick_cl.CreateProgramWithBinary(ctx, 1, &d, &n, &bin, status, err);
}
static cl_int tick_cl_build(hnd p, hnd d, const char *opts) { return tick_cl.BuildProgram(p, 1, &d, opts, NULL, NULL); }
static cl_int tick_cl_build_log(hnd p, hnd d, size_t n, char *out, size_t *size) {
	return tick_cl.GetProgramBuildInfo(p, d, 0x1183, n, out, size); // CL_PROGRAM_BUILD_LOG
}
// tick_cl_binary returns the program's binary for its one device in a
// malloc'd buffer (*n bytes), or NULL.
static unsigned char *tick_cl_binary(hnd p, size_t *n, cl_int *err) {
	*err = tick_cl.GetProgramInfo(p, 0x1165, sizeof *n, n, NULL); // CL_PROGRAM_BINARY_SIZES
	if (*err != 0 || *n == 0) return NULL;
	unsigned char *bin = malloc(*n);
	if (!bin) return NULL;
	*err = tick_cl.GetProgramInfo(p, 0x1166, sizeof bin, &bin, NULL); // CL_PROGRAM_BINARIES
	if (*err != 0) { free(bin); return NULL; }
	return bin;
}
static cl_int tick_cl_release_program(hnd p) { return tick_cl.ReleaseProgram(p); }
static hnd tick_cl_kernel(hnd p, const char *name, cl_int *err) { return tick_cl.CreateKernel(p, name, err); }
static cl_int tick_cl_kernel_wg(hnd k, hnd d, cl_uint param, size_t *out) {
	return tick_cl.GetKernelWorkGroupInfo(k, d, param, sizeof *out, out, NULL);
}

// tick_cl_launch sets a kernel's buffer arguments and enqueues it;
// dims[0..2] is the global size, dims[3..5] the local one (all zero: the
// device chooses), *ev receives its event.
static cl_int tick_cl_launch(hnd q, hnd k, cl_uint nargs, const hnd *mems, cl_uint dim, const size_t *dims, hnd *ev) {
	for (cl_uint a = 0; a < nargs; a++) {
		cl_int err = tick_cl.SetKernelArg(k, a, sizeof(hnd), &mems[a]);
		if (err != 0) return err;
	}
	const size_t *local = dims[3] ? dims + 3 : NULL;
	return tick_cl.EnqueueNDRangeKernel(q, k, dim, NULL, dims, local, 0, NULL, ev);
}

// tick_cl_launch_batch runs n tick_cl_launch calls: launch i is kernel
// ks[i] with nargs[i] arguments from mems (consecutive), dim[i] and dims
// + 6i, its event in evs[i]. It stops at the first error, returning it and
// the number of launches enqueued in *done.
static cl_int tick_cl_launch_batch(hnd q, cl_uint n, const hnd *ks, const cl_uint *nargs, const hnd *mems,
		const cl_uint *dim, const size_t *dims, hnd *evs, cl_uint *done) {
	*done = 0;
	for (cl_uint i = 0; i < n; i++) {
		cl_int err = tick_cl_launch(q, ks[i], nargs[i], mems, dim[i], dims + 6 * i, evs + i);
		if (err != 0) return err;
		mems += nargs[i];
		*done = i + 1;
	}
	return 0;
}

static cl_int tick_cl_marker(hnd q, hnd *ev) { return tick_cl.EnqueueMarkerWithWaitList(q, 0, NULL, ev); }
static cl_int tick_cl_finish(hnd q) { return tick_cl.Finish(q); }
static cl_int tick_cl_wait(hnd ev) { return tick_cl.WaitForEvents(1, &ev); }
static cl_int tick_cl_wait_all(cl_uint n, const hnd *evs) { return tick_cl.WaitForEvents(n, evs); }

// tick_cl_times reads the four profiling stamps of n finished events into
// out (4 per event) and releases them. It returns the first error; the
// events are released either way.
static cl_int tick_cl_times(cl_uint n, const hnd *evs, cl_ulong *out) {
	cl_int first = 0;
	for (cl_uint i = 0; i < n; i++) {
		for (cl_uint p = 0; p < 4; p++) { // CL_PROFILING_COMMAND_QUEUED, SUBMIT, START, END
			cl_int err = tick_cl.GetEventProfilingInfo(evs[i], 0x1280 + p, sizeof(cl_ulong), &out[4 * i + p], NULL);
			if (err != 0 && first == 0) first = err;
		}
		tick_cl.ReleaseEvent(evs[i]);
	}
	return first;
}
*/
import "C"

import (
	"sync"
	"unsafe"
)

// handle is an OpenCL object (platform, device, context, queue, buffer,
// program, kernel, event): a pointer owned by the driver.
type handle = C.hnd

var load struct {
	once sync.Once
	err  error
}

// loadLibrary opens the ICD loader once.
func loadLibrary() error {
	load.once.Do(func() {
		path := C.CString(libName)
		defer C.free(unsafe.Pointer(path))
		missing := C.tick_cl_load(path)
		switch {
		case missing == nil:
			load.err = &UnavailableError{Reason: "no OpenCL loader (" + libName + ": " + C.GoString(C.tick_dl_error()) + ")"}
		case C.GoString(missing) != "":
			load.err = &UnavailableError{Reason: libName + " lacks " + C.GoString(missing) + " (an OpenCL 1.2 loader is needed)"}
		}
	})
	return load.err
}

func cgoAvailable() error { return nil }

func platforms() ([]handle, error) {
	var n C.cl_uint
	if err := status("clGetPlatformIDs", C.tick_cl_platforms(0, nil, &n)); err != nil || n == 0 {
		return nil, err
	}
	out := make([]handle, n)
	if err := status("clGetPlatformIDs", C.tick_cl_platforms(n, &out[0], nil)); err != nil {
		return nil, err
	}
	return out, nil
}

func platformString(p handle, param uint32) string {
	var size C.size_t
	if C.tick_cl_platform_info(p, C.cl_uint(param), 0, nil, &size) != 0 || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if C.tick_cl_platform_info(p, C.cl_uint(param), size, unsafe.Pointer(&buf[0]), nil) != 0 {
		return ""
	}
	return cString(buf)
}

func devices(p handle) ([]handle, error) {
	var n C.cl_uint
	if code := C.tick_cl_devices(p, 0, nil, &n); code == codeDeviceNotFound || n == 0 {
		return nil, nil
	} else if err := status("clGetDeviceIDs", code); err != nil {
		return nil, err
	}
	out := make([]handle, n)
	if err := status("clGetDeviceIDs", C.tick_cl_devices(p, n, &out[0], nil)); err != nil {
		return nil, err
	}
	return out, nil
}

func deviceString(d handle, param uint32) string {
	var size C.size_t
	if C.tick_cl_device_info(d, C.cl_uint(param), 0, nil, &size) != 0 || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if C.tick_cl_device_info(d, C.cl_uint(param), size, unsafe.Pointer(&buf[0]), nil) != 0 {
		return ""
	}
	return cString(buf)
}

// deviceUint reads a numeric device property of up to 8 bytes.
func deviceUint(d handle, param uint32) uint64 {
	var v [8]byte
	var size C.size_t
	if C.tick_cl_device_info(d, C.cl_uint(param), 8, unsafe.Pointer(&v[0]), &size) != 0 {
		return 0
	}
	var x uint64
	for i := int(size) - 1; i >= 0; i-- { // little endian, the host's order
		x = x<<8 | uint64(v[i])
	}
	return x
}

func createContext(p, d handle) (handle, error) {
	var code C.cl_int
	ctx := C.tick_cl_context(p, d, &code)
	return ctx, status("clCreateContext", code)
}

func createQueue(ctx, d handle) (handle, error) {
	var code C.cl_int
	q := C.tick_cl_queue(ctx, d, &code)
	return q, status("clCreateCommandQueue", code)
}

func createBuffer(ctx handle, n int) (handle, error) {
	var code C.cl_int
	m := C.tick_cl_buffer(ctx, C.size_t(n), &code)
	return m, status("clCreateBuffer", code)
}

func releaseMem(m handle) { C.tick_cl_release_mem(m) }

// write copies src into m at off (blocking); ev receives the event.
func write(q, m handle, off int, src []byte, ev *handle) error {
	if len(src) == 0 {
		return nil
	}
	return status("clEnqueueWriteBuffer", C.tick_cl_write(q, m, C.size_t(off), C.size_t(len(src)), unsafe.Pointer(&src[0]), ev))
}

// read copies len(dst) bytes of m from off into dst (blocking).
func read(q, m handle, off int, dst []byte, ev *handle) error {
	if len(dst) == 0 {
		return nil
	}
	return status("clEnqueueReadBuffer", C.tick_cl_read(q, m, C.size_t(off), C.size_t(len(dst)), unsafe.Pointer(&dst[0]), ev))
}

// build compiles src (or loads bin, when not nil) for d with opts; it
// returns the program, or an error with the driver's build log.
func build(ctx, d handle, src string, bin []byte, opts string) (handle, error) {
	var code C.cl_int
	var p handle
	if bin != nil {
		var st C.cl_int
		p = C.tick_cl_program_binary(ctx, d, (*C.uchar)(unsafe.Pointer(&bin[0])), C.size_t(len(bin)), &st, &code)
		if code == 0 && st != 0 {
			code = st
		}
		if err := status("clCreateProgramWithBinary", code); err != nil {
			return nil, err
		}
	} else {
		csrc := C.CString(src)
		defer C.free(unsafe.Pointer(csrc))
		p = C.tick_cl_program_source(ctx, csrc, C.size_t(len(src)), &code)
		if err := status("clCreateProgramWithSource", code); err != nil {
			return nil, err
		}
	}
	copts := C.CString(opts)
	defer C.free(unsafe.Pointer(copts))
	if code := C.tick_cl_build(p, d, copts); code != 0 {
		log := buildLog(p, d)
		C.tick_cl_release_program(p)
		return nil, &BuildError{Code: errorName(int32(code)), Log: log}
	}
	return p, nil
}

func buildLog(p, d handle) string {
	var size C.size_t
	if C.tick_cl_build_log(p, d, 0, nil, &size) != 0 || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if C.tick_cl_build_log(p, d, size, (*C.char)(unsafe.Pointer(&buf[0])), nil) != 0 {
		return ""
	}
	return cString(buf)
}

// binary returns a built program's binary, or nil when the driver gives
// none.
func binary(p handle) []byte {
	var n C.size_t
	var code C.cl_int
	b := C.tick_cl_binary(p, &n, &code)
	if b == nil {
		return nil
	}
	defer C.free(unsafe.Pointer(b))
	return C.GoBytes(unsafe.Pointer(b), C.int(n))
}

func createKernel(p handle, name string) (handle, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var code C.cl_int
	k := C.tick_cl_kernel(p, cname, &code)
	return k, status("clCreateKernel", code)
}

// kernelWorkGroup returns the largest work group k can run with on d and
// the multiple the device prefers.
func kernelWorkGroup(k, d handle) (maxWG, multiple int) {
	var a, b C.size_t
	C.tick_cl_kernel_wg(k, d, 0x11B0, &a) // CL_KERNEL_WORK_GROUP_SIZE
	C.tick_cl_kernel_wg(k, d, 0x11B3, &b) // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
	return int(a), int(b)
}

// launch enqueues k with its buffer arguments over dims (global 0..2,
// local 3..5); ev receives the event. mems holds C pointers only.
func launch(q, k handle, mems []handle, dim int, dims *[6]uintptr, ev *handle) error {
	var p *C.hnd
	if len(mems) > 0 {
		p = &mems[0]
	}
	return status("clEnqueueNDRangeKernel", C.tick_cl_launch(q, k, C.cl_uint(len(mems)), p, C.cl_uint(dim),
		(*C.size_t)(unsafe.Pointer(&dims[0])), ev))
}

// launchBatch enqueues launches in one call; see tick_cl_launch_batch.
// It returns how many were enqueued.
func launchBatch(q handle, ks []handle, nargs []uint32, mems []handle, dim []uint32, dims []uintptr, evs []handle) (int, error) {
	var done C.cl_uint
	code := C.tick_cl_launch_batch(q, C.cl_uint(len(ks)), &ks[0], (*C.cl_uint)(unsafe.Pointer(&nargs[0])),
		&mems[0], (*C.cl_uint)(unsafe.Pointer(&dim[0])), (*C.size_t)(unsafe.Pointer(&dims[0])),
		&evs[0], &done)
	return int(done), status("clEnqueueNDRangeKernel", code)
}

func marker(q handle, ev *handle) error {
	return status("clEnqueueMarkerWithWaitList", C.tick_cl_marker(q, ev))
}

func finish(q handle) error { return status("clFinish", C.tick_cl_finish(q)) }

func wait(ev handle) error { return status("clWaitForEvents", C.tick_cl_wait(ev)) }

// waitAll waits until the commands of evs have finished (or failed).
func waitAll(evs []handle) error {
	if len(evs) == 0 {
		return nil
	}
	return status("clWaitForEvents", C.tick_cl_wait_all(C.cl_uint(len(evs)), &evs[0]))
}

// times reads the stamps of finished events into out (4 per event) and
// releases the events.
func times(evs []handle, out []uint64) error {
	if len(evs) == 0 {
		return nil
	}
	return status("clGetEventProfilingInfo", C.tick_cl_times(C.cl_uint(len(evs)), &evs[0], (*C.cl_ulong)(unsafe.Pointer(&out[0]))))
}

// status turns an OpenCL return code into an error naming the call.
func status(call string, code C.cl_int) error {
	if code == 0 {
		return nil
	}
	return &APIError{Call: call, Code: int32(code)}
}
