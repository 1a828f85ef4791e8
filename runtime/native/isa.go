package native

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// VectorISA is the vector instruction set kernels are compiled for: what the
// compiler's target (its -march flag) enables, read from the macros it
// predefines. Generated C picks its vector width from the same macros
// (TICK_VB in the CPU renderer), so this is what kernels actually use.
type VectorISA struct {
	// Name is the instruction set, e.g. "AVX-512", "AVX2+FMA", "NEON",
	// "SSE2", or "scalar" when the target has no SIMD the renderer uses.
	Name string `json:"name"`
	// Bytes is the vector width in bytes kernels use (64, 32, 16, or 8 for
	// scalar code).
	Bytes int `json:"bytes"`
	// FMA reports whether the target has fused multiply-add instructions
	// (__FMA__ on x86, which every AVX-512 target has too;
	// __ARM_FEATURE_FMA on Arm): whether a kernel allowed to contract
	// a*b + c gets one rounding instead of two.
	FMA bool `json:"fma"`
}

// String renders the ISA as "AVX2+FMA, 32-byte vectors".
func (v VectorISA) String() string {
	if v.Name == "" {
		return "unknown vector width"
	}
	return v.Name + ", " + strconv.Itoa(v.Bytes) + "-byte vectors"
}

// isaFromMacros maps the compiler's predefined macros (the output of
// cc -dM -E) to the ISA the renderer's TICK_VB selects.
func isaFromMacros(defs map[string]bool) VectorISA {
	v := isaName(defs)
	v.FMA = defs["__FMA__"] || defs["__ARM_FEATURE_FMA"]
	return v
}

// isaName is the widest vector instruction set in defs and its width.
func isaName(defs map[string]bool) VectorISA {
	fma := ""
	if defs["__FMA__"] {
		fma = "+FMA"
	}
	switch {
	case defs["__AVX512F__"]:
		return VectorISA{Name: "AVX-512", Bytes: 64}
	case defs["__AVX2__"]:
		return VectorISA{Name: "AVX2" + fma, Bytes: 32}
	case defs["__AVX__"]:
		return VectorISA{Name: "AVX", Bytes: 32}
	case defs["__ARM_NEON"]:
		return VectorISA{Name: "NEON", Bytes: 16}
	case defs["__SSE2__"]:
		return VectorISA{Name: "SSE2", Bytes: 16}
	case defs["__ALTIVEC__"]:
		return VectorISA{Name: "AltiVec", Bytes: 16}
	case defs["__riscv_vector"]:
		return VectorISA{Name: "RISC-V V", Bytes: 16}
	}
	return VectorISA{Name: "scalar", Bytes: 8}
}

// parseMacros reads "#define NAME value" lines.
func parseMacros(out []byte) map[string]bool {
	defs := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "#define" {
			defs[f[1]] = true
		}
	}
	return defs
}

// VectorISA returns the vector instruction set the compiler targets with
// its flags, found once by preprocessing an empty file; the zero value when
// the compiler cannot say.
func (c *Compiler) VectorISA() VectorISA {
	c.isaOnce.Do(func() {
		var flags []string
		for _, f := range c.flags {
			if f != "-shared" {
				flags = append(flags, f)
			}
		}
		args := append(append(append([]string(nil), c.preArgs...), flags...), "-dM", "-E", "-x", "c", "-")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, c.path, args...)
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.Output()
		if err != nil {
			return
		}
		c.isa = isaFromMacros(parseMacros(out))
	})
	return c.isa
}
