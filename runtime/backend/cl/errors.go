package cl

import (
	"fmt"
	"strings"
)

// libName is the OpenCL ICD loader the backend opens: it dispatches to the
// drivers registered in /etc/OpenCL/vendors (or $OCL_ICD_VENDORS).
const libName = "libOpenCL.so.1"

// install says what to install for OpenCL, in every unavailability error.
const install = "install the OpenCL loader and a driver: ocl-icd-libopencl1 with pocl-opencl-icd " +
	"(OpenCL on this machine's CPU), or your GPU vendor's OpenCL driver"

// UnavailableError says why no OpenCL device can be used here and what to
// install.
type UnavailableError struct {
	Reason string
}

func (e *UnavailableError) Error() string { return "OpenCL unavailable: " + e.Reason + "; " + install }

// APIError is an OpenCL call that failed, with the error's name.
type APIError struct {
	Call string
	Code int32
}

func (e *APIError) Error() string { return fmt.Sprintf("%s failed: %s", e.Call, errorName(e.Code)) }

// BuildError is a kernel the driver's compiler refused, with its log.
type BuildError struct {
	Code string
	Log  string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("the OpenCL compiler refused the kernel (%s; run with DEBUG=4 to see the source):\n%s",
		e.Code, strings.TrimSpace(e.Log))
}

const (
	codeDeviceNotFound      = -1
	codePlatformNotFoundKHR = -1001
)

// errorNames are the OpenCL 1.2 error codes (CL/cl.h).
var errorNames = map[int32]string{
	-1: "CL_DEVICE_NOT_FOUND", -2: "CL_DEVICE_NOT_AVAILABLE", -3: "CL_COMPILER_NOT_AVAILABLE",
	-4: "CL_MEM_OBJECT_ALLOCATION_FAILURE", -5: "CL_OUT_OF_RESOURCES", -6: "CL_OUT_OF_HOST_MEMORY",
	-7: "CL_PROFILING_INFO_NOT_AVAILABLE", -11: "CL_BUILD_PROGRAM_FAILURE", -12: "CL_MAP_FAILURE",
	-17: "CL_LINK_PROGRAM_FAILURE", -30: "CL_INVALID_VALUE", -32: "CL_INVALID_PLATFORM", -33: "CL_INVALID_DEVICE",
	-34: "CL_INVALID_CONTEXT", -35: "CL_INVALID_QUEUE_PROPERTIES", -36: "CL_INVALID_COMMAND_QUEUE",
	-38: "CL_INVALID_MEM_OBJECT", -42: "CL_INVALID_BINARY", -43: "CL_INVALID_BUILD_OPTIONS",
	-44: "CL_INVALID_PROGRAM", -45: "CL_INVALID_PROGRAM_EXECUTABLE", -46: "CL_INVALID_KERNEL_NAME",
	-48: "CL_INVALID_KERNEL", -49: "CL_INVALID_ARG_INDEX", -50: "CL_INVALID_ARG_VALUE", -51: "CL_INVALID_ARG_SIZE",
	-52: "CL_INVALID_KERNEL_ARGS", -53: "CL_INVALID_WORK_DIMENSION", -54: "CL_INVALID_WORK_GROUP_SIZE",
	-55: "CL_INVALID_WORK_ITEM_SIZE", -58: "CL_INVALID_EVENT", -59: "CL_INVALID_OPERATION",
	-61: "CL_INVALID_BUFFER_SIZE", -63: "CL_INVALID_GLOBAL_WORK_SIZE", -1001: "CL_PLATFORM_NOT_FOUND_KHR",
}

func errorName(code int32) string {
	if n, ok := errorNames[code]; ok {
		return fmt.Sprintf("%s (%d)", n, code)
	}
	return fmt.Sprintf("OpenCL error %d", code)
}

// cString is a NUL-terminated C string in buf.
func cString(buf []byte) string {
	if i := strings.IndexByte(string(buf), 0); i >= 0 {
		buf = buf[:i]
	}
	return strings.TrimSpace(string(buf))
}
