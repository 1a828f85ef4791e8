package device

import "strings"

// Info describes a device: what runs its kernels and how they were
// built.
type Info struct {
	Name string `json:"name"` // "CPU", "GO", "NULL"
	// Backend says what runs the kernels: "C (AVX2+FMA, 32-byte vectors,
	// matmul with fma)" (compiled by a C compiler, for that vector
	// instruction set, matmul contracting multiply-adds), "Go closures", or
	// "none" (NULL).
	Backend string `json:"backend"`
	// Compiler, CompilerVersion and Flags describe a native backend's
	// compiler: its executable, its version line and every flag kernels are
	// built with. Empty for backends that compile nothing natively.
	Compiler        string   `json:"compiler,omitempty"`
	CompilerVersion string   `json:"compiler_version,omitempty"`
	Flags           []string `json:"flags,omitempty"`
	// Vector is the vector instruction set and width a native backend's
	// kernels are compiled for ("AVX2+FMA, 32-byte vectors"), chosen by the
	// compiler's target; empty for other backends. Backend repeats it.
	Vector string `json:"vector,omitempty"`
	// MatmulFMA reports whether the native matmul fuses multiply-adds (the
	// default where the target has FMA; TICK_FMA=0 turns it off): its
	// results are then within rounding of, not bit-identical to, the GO
	// device's.
	MatmulFMA bool `json:"matmul_fma,omitempty"`
	// Device and Driver name the hardware and the driver's version for a
	// device with a driver of its own (OpenCL: "pthread-skylake-avx512-
	// Intel(R) Xeon(R) Processor", "3.1+debian"); empty for host backends.
	Device string `json:"device,omitempty"`
	Driver string `json:"driver,omitempty"`
	// Computes is false for a device whose kernels do not run (NULL): its
	// results are zeros and no throughput can be claimed for it.
	Computes bool `json:"computes"`
	// Unavailable says why the backend cannot run here ("" when it can).
	Unavailable string `json:"unavailable,omitempty"`
}

// String renders the description on one line, e.g. "CPU: C via
// /usr/bin/cc (cc (Debian 12.2.0-14) 12.2.0) -O3 -march=native ...".
func (i Info) String() string {
	var b strings.Builder
	b.WriteString(i.Name + ": " + i.Backend)
	if i.Compiler != "" {
		b.WriteString(" via " + i.Compiler)
		if i.CompilerVersion != "" {
			b.WriteString(" (" + i.CompilerVersion + ")")
		}
		if len(i.Flags) > 0 {
			b.WriteString(" " + strings.Join(i.Flags, " "))
		}
	}
	if i.Device != "" {
		b.WriteString(" on " + i.Device)
	}
	if !i.Computes {
		b.WriteString(" (runs nothing; results are zeros)")
	}
	if i.Unavailable != "" {
		b.WriteString(" (unavailable: " + i.Unavailable + ")")
	}
	return b.String()
}
