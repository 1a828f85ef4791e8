// Package nativetest helps test code that compiles C kernels: it re-runs
// a package's tests with kernels built for other vector widths.
package nativetest

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/native"
)

// RerunForTargets runs the current test binary again for each of AVX2
// (x86-64-v3, the 32-byte path, as on AMD Zen 3) and baseline SSE2
// (x86-64), with native.EnvMarch set, restricted to the tests matching
// run, and fails if they do. It skips on hosts that cannot execute AVX2,
// without a C compiler, in -short mode, and inside such a re-run.
func RerunForTargets(t *testing.T, run string) {
	t.Helper()
	if os.Getenv(native.EnvMarch) != "" {
		t.Skip("already running for one target")
	}
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	if runtime.GOARCH != "amd64" || !HostHasAVX2() {
		t.Skip("needs an x86-64 host with AVX2")
	}
	if testing.Short() {
		t.Skip("compiles the kernels twice more")
	}
	for _, march := range []string{"x86-64-v3", "x86-64"} {
		t.Run(march, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", run, "-test.count=1")
			cmd.Env = append(os.Environ(), native.EnvMarch+"="+march)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "PASS") {
				t.Fatalf("with %s=%s: %v\n%s", native.EnvMarch, march, err, out)
			}
		})
	}
}

// HostHasAVX2 reports whether this x86-64 host executes AVX2 and FMA.
func HostHasAVX2() bool {
	data, err := os.ReadFile("/proc/cpuinfo")
	return err == nil && strings.Contains(string(data), " avx2 ") && strings.Contains(string(data), " fma ")
}
