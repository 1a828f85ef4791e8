package tensor

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/native"
)

// Through the public API: DEBUG=4 shows the generated C, DEBUG=2 lines name
// the CPU backend, and the result is right.
func TestCPUDebugShowsSourceAndBackend(t *testing.T) {
	if err := native.Available(); err != nil {
		t.Skip(err)
	}
	prev := DefaultDevice()
	if err := SetDefaultDevice("CPU"); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	SetDebugWriter(&out)
	SetDebug(4)
	t.Cleanup(func() {
		SetDebug(0)
		SetDebugWriter(nil)
		_ = SetDefaultDevice(prev)
	})
	c := float32(time.Now().UnixNano()%1000) + 0.5 // a constant no other test compiled
	got := FromFloat32s([]float32{1, 2, 3}, 3).Mul(c).Add(1).Float32s()
	for i, v := range got {
		if want := float32(i+1)*c + 1; v != want {
			t.Errorf("got[%d] = %v, want %v", i, v, want)
		}
	}
	text := out.String()
	if !strings.Contains(text, "void tick_") || !strings.Contains(text, "restrict") {
		t.Errorf("DEBUG=4 output has no C source:\n%s", text)
	}
	if !strings.Contains(text, "\nCPU ") && !strings.HasPrefix(text, "CPU ") {
		t.Errorf("DEBUG output has no line naming the CPU backend:\n%s", text)
	}
	if s := CPUStatus(); !strings.Contains(s, "CPU device:") {
		t.Errorf("CPUStatus() = %q", s)
	}
}
