package tensor

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// offBackend is registered but never available, like CPU without a compiler.
type offBackend struct{ nullBackend }

func (offBackend) Available() error { return errors.New("no C compiler (test)") }

func init() { RegisterBackend("TESTOFF", offBackend{}) }

func TestChooseDefault(t *testing.T) {
	tests := []struct {
		name       string
		env        string
		prefs      []string
		want       string
		wantReason string
	}{
		{"env wins", "null", []string{"GO"}, "NULL", "DEVICE environment variable"},
		{"first available", "", []string{"GO", "NULL"}, "GO", "first available"},
		{"unavailable skipped with its reason", "", []string{"TESTOFF", "NULL"}, "NULL", "TESTOFF unavailable (no C compiler (test))"},
		{"nothing available falls back to GO", "", []string{"TESTOFF"}, "GO", "TESTOFF unavailable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DEVICE", tc.env)
			prev := preferredDevices
			preferredDevices = tc.prefs
			defer func() { preferredDevices = prev }()
			got, reason := chooseDefault()
			if got != tc.want || !strings.Contains(reason, tc.wantReason) {
				t.Errorf("chooseDefault() = %q, %q; want %q and a reason containing %q", got, reason, tc.want, tc.wantReason)
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
	if AvailableBackends()[0] == "CPU" {
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
	want := map[string]string{"GO": "GO (pure-Go closures)", "CPU": "CPU (C via ", "NULL": "NULL (runs nothing"}
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
