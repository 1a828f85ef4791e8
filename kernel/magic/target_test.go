package magic

import (
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/tensor"
)

func TestCPUCompiler(t *testing.T) {
	for _, c := range []struct{ status, want string }{
		{"CPU device: /usr/bin/cc [-O3 -march=native -fPIC -shared -std=gnu11]; kernel cache /tmp/k (1 compiled, 0 memory hits, 0 disk hits this session)", "cc -O3 -march=native"},
		{"CPU device: /opt/bin/clang [-O2]; kernel cache x", "clang -O2"},
		{"CPU device unavailable: no C compiler (install gcc)", "C compiler unavailable"},
	} {
		if got := cpuCompiler(c.status); got != c.want {
			t.Errorf("cpuCompiler(%q) = %q, want %q", c.status, got, c.want)
		}
	}
}

// TestBackendOf checks that provenance names the backend, not the device
// again ("CPU/CPU" was the bug).
func TestBackendOf(t *testing.T) {
	for _, dev := range tensor.AvailableBackends() {
		b := backendOf(dev)
		if b == "" || strings.EqualFold(b, dev) {
			t.Errorf("backendOf(%q) = %q: want a description of the backend", dev, b)
		}
	}
	if b := backendOf("CPU"); tensor.CPUStatus() != "" && strings.HasPrefix(tensor.CPUStatus(), "CPU device: ") && !strings.Contains(b, "-O") {
		t.Errorf("backendOf(CPU) = %q: want the compiler and its -O flag (status %q)", b, tensor.CPUStatus())
	}
}
