package tensor

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/backend/null"
	"github.com/tick-kernel/tick/runtime/device"
)

// offBackend is registered but never available, like CPU without a compiler.
type offBackend struct{ null.Backend }

func (offBackend) Available() error { return errors.New("no C compiler (test)") }

func init() { device.Register("TESTOFF", offBackend{}) }

func TestChooseDefault(t *testing.T) {
	tests := []struct {
		name       string
		env        string
		prefs      []string
		want       string
		wantReason string
		fellBack   bool
	}{
		{"env wins", "null", []string{"GO"}, "NULL", "DEVICE environment variable", false},
		{"first available", "", []string{"GO", "NULL"}, "GO", "first available", false},
		{"unavailable skipped with its reason", "", []string{"TESTOFF", "NULL"}, "NULL", "TESTOFF unavailable (no C compiler (test))", true},
		{"nothing available falls back to GO", "", []string{"TESTOFF"}, "GO", "TESTOFF unavailable", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DEVICE", tc.env)
			prev := preferredDevices
			preferredDevices = tc.prefs
			defer func() { preferredDevices = prev }()
			got, reason, fellBack := chooseDefault()
			if got != tc.want || !strings.Contains(reason, tc.wantReason) || fellBack != tc.fellBack {
				t.Errorf("chooseDefault() = %q, %q, %v; want %q, a reason containing %q, %v",
					got, reason, fellBack, tc.want, tc.wantReason, tc.fellBack)
			}
		})
	}
}

// TestDefaultDeviceIsLazy runs this test binary again with only
// lazyDefaultChild, which checks that nothing chose the default device (and
// so probed the C compiler) before the first use.
func TestDefaultDeviceIsLazy(t *testing.T) {
	if os.Getenv("TICK_TEST_LAZY_CHILD") == "1" {
		t.Skip("run as the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLazyDefaultChild$", "-test.v")
	cmd.Env = append(os.Environ(), "TICK_TEST_LAZY_CHILD=1", "DEVICE=")
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestLazyDefaultChild")) {
		t.Fatalf("child failed (%v):\n%s", err, out)
	}
}

func TestLazyDefaultChild(t *testing.T) {
	if os.Getenv("TICK_TEST_LAZY_CHILD") != "1" {
		t.Skip("only run by TestDefaultDeviceIsLazy")
	}
	defaultDevice.Lock()
	chosen := defaultDevice.name
	defaultDevice.Unlock()
	if chosen != "" {
		t.Fatalf("default device %q chosen before first use; start-up should not probe the C compiler", chosen)
	}
	want := "GO"
	if slices.Contains(AvailableBackends(), "CPU") {
		want = "CPU"
	}
	if got := DefaultDevice(); got != want {
		t.Errorf("DefaultDevice() = %q, want %q (reason: %s)", got, want, DefaultDeviceReason())
	}
	if got := Ones(2).Device(); got != want {
		t.Errorf("a new tensor is on %q, want %q", got, want)
	}
}

func TestDevBackend(t *testing.T) {
	want := map[string]string{"GO": "GO (pure-Go closures; matmul: ", "CPU": "CPU (C via ", "NULL": "NULL (runs nothing"}
	for _, dev := range AvailableBackends() {
		w, ok := want[dev]
		if !ok {
			continue
		}
		if got := Device(dev).Backend(); !strings.HasPrefix(got, w) {
			t.Errorf("Device(%q).Backend() = %q, want it to start with %q", dev, got, w)
		}
	}
}

// TestDebugKernelLine: DEBUG=2 lines pad outside the shape's brackets.
func TestDebugKernelLine(t *testing.T) {
	var buf bytes.Buffer
	SetDebugWriter(&buf)
	SetDebug(2)
	defer func() { SetDebug(0); SetDebugWriter(nil) }()
	onDevice(t, "GO")
	Ones(256).Add(1).Realize()
	var line string
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(l, "GO ") && strings.Contains(l, "E_256") {
			line = l
		}
	}
	if !strings.Contains(line, "shape=[256] ") || strings.Contains(line, "[256 ") {
		t.Errorf("DEBUG=2 kernel line %q: want shape=[256] followed by padding", line)
	}
}

// A fallback (a preferred device that cannot run here) is said once on the
// debug writer, at any DEBUG level, with the reason.
func TestDefaultDeviceFallbackIsReported(t *testing.T) {
	defaultDevice.Lock()
	prevName, prevReason := defaultDevice.name, defaultDevice.reason
	defaultDevice.name = ""
	defaultDevice.Unlock()
	prevPrefs := preferredDevices
	preferredDevices = []string{"TESTOFF", "GO"}
	var buf bytes.Buffer
	SetDebugWriter(&buf)
	t.Setenv("DEVICE", "")
	t.Cleanup(func() {
		SetDebugWriter(nil)
		preferredDevices = prevPrefs
		defaultDevice.Lock()
		defaultDevice.name, defaultDevice.reason = prevName, prevReason
		defaultDevice.Unlock()
	})
	if got := DefaultDevice(); got != "GO" {
		t.Fatalf("DefaultDevice() = %q, want GO", got)
	}
	DefaultDevice()
	out := buf.String()
	if strings.Count(out, "tensor: using device GO because TESTOFF unavailable (no C compiler (test))") != 1 {
		t.Errorf("fallback note, want exactly once:\n%s", out)
	}
}
