package tensor

import (
	"bytes"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/backend/null"
	"github.com/tick-kernel/tick/runtime/device"
)

// gateBackend is a test device whose kernels wait for a gate: it shows that
// Realize returns before the device finishes and Synchronize waits.
type gateBackend struct {
	null.Backend
	gate chan struct{}
	ran  *atomic.Int64
}

func (g gateBackend) Open(int) (device.Device, error) { return gateDevice{g: g}, nil }

type gateDevice struct {
	null.Device
	g gateBackend
}

func (d gateDevice) Queue() device.Queue { return gateQueue{g: d.g} }

// gateQueue runs each launch when the gate lets it.
type gateQueue struct{ g gateBackend }

func (q gateQueue) Launch(device.Program, []device.Memory, device.Dims) error {
	<-q.g.gate
	q.g.ran.Add(1)
	return nil
}

func (gateQueue) Synchronize() error { return nil }

var gate = gateBackend{gate: make(chan struct{}), ran: new(atomic.Int64)}

func init() { device.Register("TESTGATE", gate) }

func TestRealizeIsAsynchronous(t *testing.T) {
	onDevice(t, "TESTGATE")
	dev := MustDevice("TESTGATE")
	x := Ones(4).Add(1)
	x.Realize() // must return although the kernel blocks on the gate
	if gate.ran.Load() != 0 {
		t.Fatal("kernel ran before the gate opened")
	}
	done := make(chan error)
	go func() { done <- dev.Synchronize() }()
	select {
	case <-done:
		t.Fatal("Synchronize returned while a kernel was still queued")
	case <-time.After(20 * time.Millisecond):
	}
	gate.gate <- struct{}{}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if gate.ran.Load() != 1 {
		t.Fatalf("ran %d kernels, want 1", gate.ran.Load())
	}
}

func TestWaitHookInterruptsSynchronize(t *testing.T) {
	onDevice(t, "TESTGATE")
	stop := errors.New("interrupted by user")
	SetWaitHook(func() error { return stop })
	defer SetWaitHook(nil)
	Ones(2).Neg().Realize()
	err := MustDevice("TESTGATE").Synchronize()
	if !errors.Is(err, stop) {
		t.Fatalf("Synchronize = %v, want the hook's error", err)
	}
	SetWaitHook(nil)
	gate.gate <- struct{}{}
	if err := MustDevice("TESTGATE").Synchronize(); err != nil {
		t.Fatal(err)
	}
}

func TestDebugLevels(t *testing.T) {
	onDevice(t, "GO")
	var buf bytes.Buffer
	SetDebugWriter(&buf)
	defer SetDebugWriter(nil)
	defer SetDebug(0)
	a := Arange(64).Realize()
	levels := []struct {
		level int
		want  []string
		not   []string
	}{
		{0, nil, []string{"schedule"}},
		{1, []string{"schedule: 1 kernel(s) on GO: E_64"}, []string{"GFLOP/s"}},
		{2, []string{"GFLOP/s(est)", "GB/s(est)", "waiting for every kernel"}, []string{"out = "}},
		{3, []string{"out = add(mul(b1"}, []string{"compiled"}},
		{4, []string{"compiled E_64 on GO", "GO backend closure program"}, nil},
	}
	for i, l := range levels {
		buf.Reset()
		SetDebug(l.level)
		a.Mul(float64(i + 2)).Add(float64(i)).Realize()
		_ = SynchronizeAll()
		out := buf.String()
		for _, w := range l.want {
			if !strings.Contains(out, w) {
				t.Errorf("DEBUG=%d output lacks %q:\n%s", l.level, w, out)
			}
		}
		for _, w := range l.not {
			if strings.Contains(out, w) {
				t.Errorf("DEBUG=%d output has %q:\n%s", l.level, w, out)
			}
		}
	}
}

func TestCountersCountPhasesAndCache(t *testing.T) {
	onDevice(t, "GO")
	a := RandSeed(9, 1000).Realize()
	_ = SynchronizeAll()
	ResetCounters()
	a.Mul(7.25).Add(3.5).Realize()
	a.Mul(7.25).Add(3.5).Realize()
	_ = a.Mul(7.25).Add(3.5).Float32s()
	c := Counters()
	if c.KernelsLaunched != 3 {
		t.Errorf("launched %d, want 3", c.KernelsLaunched)
	}
	if c.KernelsCompiled+c.CacheHits != 3 || c.CacheHits < 2 {
		t.Errorf("compiled %d, hits %d: the same kernel three times should hit the cache at least twice", c.KernelsCompiled, c.CacheHits)
	}
	if c.EstFLOPs != 3*2*1000 || c.EstBytes != 3*2*4000 {
		t.Errorf("estimates: %d FLOPs, %d bytes; want 6000 and 24000", c.EstFLOPs, c.EstBytes)
	}
	for name, d := range map[string]time.Duration{"graph": c.GraphBuild, "schedule": c.Schedule, "launch": c.Launch, "device": c.DeviceExec, "alloc": c.Alloc, "transfer": c.Transfer} {
		if d <= 0 {
			t.Errorf("phase %s has no time", name)
		}
	}
	// GO has no clock of its own and no memory of its own: nothing is
	// timed by a device clock and nothing is a transfer.
	if c.KernelsClocked != 0 || c.DeviceClock != 0 || c.Transfers != 0 || c.TransferHost != 0 || c.TransfersClocked != 0 {
		t.Errorf("GO: %d kernels clocked in %v, %d transfers in %v (%d clocked): want none", c.KernelsClocked, c.DeviceClock,
			c.Transfers, c.TransferHost, c.TransfersClocked)
	}
	if c.MemoryInUse <= 0 || !strings.Contains(c.String(), "FLOP, ") {
		t.Errorf("memory %d, text %q", c.MemoryInUse, c.String())
	}
}

func TestStringPrintsLikeNumpy(t *testing.T) {
	onDevice(t, "GO")
	cases := []struct {
		t    *Tensor
		want string
	}{
		{Arange(6).Reshape(2, 3), "tensor([[0., 1., 2.],\n        [3., 4., 5.]], shape=[2 3], dtype=float32, device=GO)"},
		{FromInt32s([]int32{1, -2}), "tensor([ 1, -2], shape=[2], dtype=int32, device=GO)"},
		{Arange(3).Gt(0), "tensor([false,  true,  true], shape=[3], dtype=bool, device=GO)"},
		{Scalar(2.5), "tensor(2.5, shape=[], dtype=float32, device=GO)"},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("got\n%s\nwant\n%s", got, c.want)
		}
	}
	long := Arange(5000).String()
	if !strings.Contains(long, "0.,    1.,    2., ..., 4997., 4998., 4999.]") {
		t.Errorf("long tensor not elided like numpy: %s", long)
	}
}

func TestUnknownDeviceTeaches(t *testing.T) {
	_, err := LookupDevice("TPU")
	var de *DeviceError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "GO") || !strings.Contains(err.Error(), "DEVICE") {
		t.Fatalf("error %v should list registered devices and mention DEVICE", err)
	}
}

// A device number names one device of a backend: "NULL:0" is NULL, a
// number the backend does not have is refused with its reason, and a
// malformed one says what goes after the colon.
func TestDeviceNumbers(t *testing.T) {
	if d, err := LookupDevice("null:0"); err != nil || d != Device("NULL") || d.Name() != "NULL" {
		t.Errorf("LookupDevice(null:0) = %v, %v; want the NULL device", d, err)
	}
	for name, want := range map[string]string{"NULL:1": "one device", "GO:x": "device number"} {
		var de *DeviceError
		if _, err := LookupDevice(name); !errors.As(err, &de) || !strings.Contains(err.Error(), want) {
			t.Errorf("LookupDevice(%q) = %v, want a *DeviceError saying %q", name, err, want)
		}
	}
}

func TestNullDeviceRunsNothing(t *testing.T) {
	onDevice(t, "NULL")
	ResetCounters()
	x := Ones(16).Add(1)
	if got := x.Float32s(); got[0] != 0 {
		t.Errorf("NULL device computed %v; it should leave zeros", got[0])
	}
	if Counters().KernelsLaunched != 1 {
		t.Errorf("NULL device still schedules and launches: got %d launches", Counters().KernelsLaunched)
	}
}

// panicBackend's kernels panic: the failure must surface on Synchronize
// (and on reads), not kill the process or hang.
type panicBackend struct{ null.Backend }

func (panicBackend) Open(int) (device.Device, error) { return panicDevice{}, nil }

type panicDevice struct{ null.Device }

func (panicDevice) Queue() device.Queue { return panicQueue{} }

type panicQueue struct{ null.Queue }

func (panicQueue) Launch(device.Program, []device.Memory, device.Dims) error { panic("boom") }

func init() { device.Register("TESTPANIC", panicBackend{}) }

func TestKernelPanicIsReportedOnSynchronize(t *testing.T) {
	onDevice(t, "TESTPANIC")
	Ones(3).Add(1).Realize()
	err := MustDevice("TESTPANIC").Synchronize()
	if err == nil || !strings.Contains(err.Error(), "panicked: boom") {
		t.Fatalf("Synchronize = %v, want the kernel's panic", err)
	}
	if err := MustDevice("TESTPANIC").Synchronize(); err != nil {
		t.Errorf("the error is reported once; second Synchronize = %v", err)
	}
}
