package tensor

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/backend/null"
	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
)

// holdQueue makes d's queue busy until release is called: pending counts
// an item that is not there and the worker waits for the exec lock, so
// everything launched meanwhile is queued (nothing runs on the caller) and
// runs in order after release.
func holdQueue(d *Dev) (release func()) {
	d.mu.Lock()
	d.pending++
	d.mu.Unlock()
	d.execMu.Lock()
	return func() {
		d.execMu.Unlock()
		d.done(nil)
	}
}

// callerBackend is a NULL device whose small kernels may run on the caller
// (device.Inliner, as CPU and GO) and whose queue notes the goroutine each
// launch ran on: where a launch ran is what these tests check.
type callerBackend struct{ null.Backend }

func (callerBackend) Open(int) (device.Device, error) { return callerDevice{}, nil }

type callerDevice struct{ null.Device }

func (callerDevice) Queue() device.Queue { return callerQueue{} }
func (callerDevice) InlineSmall() bool   { return true }

type callerQueue struct{ null.Queue }

var launchedOn struct {
	sync.Mutex
	ids []uint64
}

func (callerQueue) Launch(device.Program, []device.Memory, device.Dims) error {
	id := goroutineID()
	launchedOn.Lock()
	launchedOn.ids = append(launchedOn.ids, id)
	launchedOn.Unlock()
	return nil
}

func init() { device.Register("TESTCALLER", callerBackend{}) }

// takeLaunches returns the goroutines of the launches since the last call.
func takeLaunches() []uint64 {
	launchedOn.Lock()
	defer launchedOn.Unlock()
	ids := launchedOn.ids
	launchedOn.ids = nil
	return ids
}

// goroutineID is the calling goroutine's number, from its stack header
// ("goroutine 18 [running]:").
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		panic("goroutineID: " + err.Error())
	}
	return id
}

// ranOn checks that every launch in ids ran on goroutine want (onCaller)
// or none did.
func ranOn(t *testing.T, what string, ids []uint64, want uint64, onCaller bool, n int) {
	t.Helper()
	if len(ids) != n {
		t.Fatalf("%s: %d launches, want %d", what, len(ids), n)
	}
	for _, id := range ids {
		if (id == want) != onCaller {
			where := "the device's worker"
			if onCaller {
				where = "the caller"
			}
			t.Errorf("%s: a launch ran on goroutine %d, the caller is %d: want it on %s", what, id, want, where)
		}
	}
}

// TestSmallReplayRunsOnCallerWhenIdle: a JIT replay whose launches are all
// below the split threshold runs on the calling goroutine when the device
// is idle (a 64×64 matmul's replay paid a wake-up of the worker on the
// other core, a third of its time on 2 threads), and is done when Call
// returns; behind queued work it is queued, and runs after it on the
// worker, in order.
func TestSmallReplayRunsOnCallerWhenIdle(t *testing.T) {
	onDevice(t, "TESTCALLER")
	d := Device("TESTCALLER")
	// 16×16: this device has no GEMM estimate (host.Program), so a matmul's
	// work is its outputs × its reduce size; the CPU's 64×64 is as small.
	a, b := Ones(16, 16).Realize(), Ones(16, 16).Realize()
	step := JIT(func(in ...*Tensor) *Tensor { return in[0].Matmul(in[1]).Add(1).Realize() })
	for range 3 { // cold, capture, first replay
		step.Call(a, b)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if s := step.State(); s.Phase != "replay" || len(s.Kernels) == 0 {
		t.Fatalf("JIT state %+v: want replaying", s)
	}
	kernels := len(step.State().Kernels)
	me := goroutineID()
	takeLaunches()

	step.Call(a, b)
	if p := d.Pending(); p != 0 {
		t.Errorf("%d items pending right after a small replay on an idle device: it was queued", p)
	}
	ranOn(t, "replay on an idle device", takeLaunches(), me, true, kernels)

	release := holdQueue(d) // earlier work not finished: the replay queues behind it
	step.Call(a, b)
	if p := d.Pending(); p != 2 {
		t.Errorf("%d items pending behind held work, want 2 (the held item and the replay)", p)
	}
	if ids := takeLaunches(); len(ids) != 0 {
		t.Errorf("%d launches ran before the work queued ahead of them", len(ids))
	}
	release()
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	ranOn(t, "replay behind queued work", takeLaunches(), me, false, kernels)
}

// TestLargeReplayGoesToWorker: a launch at the split threshold, or
// launches that are together, are not run on the caller even on an idle
// device: Call returns before the kernels run, as the tutorials teach.
func TestLargeReplayGoesToWorker(t *testing.T) {
	onDevice(t, "TESTCALLER")
	d := Device("TESTCALLER")
	x := Ones(host.SplitMin).Realize()
	step := JIT(func(in ...*Tensor) *Tensor { return in[0].Mul(2).Realize() })
	for range 3 {
		step.Call(x)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	me := goroutineID()
	takeLaunches()
	step.Call(x)
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	ranOn(t, "large replay", takeLaunches(), me, false, 1)

	x.Mul(3).Realize() // the eager op's launch: large, so queued as well
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	ranOn(t, "large eager op", takeLaunches(), me, false, 1)

	// Two launches each below the threshold, together above it: the
	// replay is longer than a hand-off, so it goes to the worker and the
	// caller's own work overlaps it.
	y := Ones(host.SplitMin * 3 / 4).Realize()
	two := JIT(func(in ...*Tensor) *Tensor { return in[0].Mul(2).Realize().Add(1).Realize() })
	for range 3 {
		two.Call(y)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	takeLaunches()
	two.Call(y)
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	ranOn(t, "replay of small launches that are large together", takeLaunches(), me, false, 2)
}

// TestSmallScheduleRunsOnCallerWhenIdle: a schedule of several small
// kernels (the general path: a reduce below the root is two kernels, which
// the schedule cache does not take) runs on the caller when the device is
// idle, and is queued behind work that is.
func TestSmallScheduleRunsOnCallerWhenIdle(t *testing.T) {
	onDevice(t, "TESTCALLER")
	d := Device("TESTCALLER")
	x := Ones(256).Realize()
	x.Add(x.Sum()).Realize() // compiles
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	me := goroutineID()
	takeLaunches()
	x.Add(x.Sum()).Realize()
	if p := d.Pending(); p != 0 {
		t.Errorf("%d items pending right after a small schedule on an idle device", p)
	}
	ranOn(t, "small schedule, idle device", takeLaunches(), me, true, 2)

	release := holdQueue(d)
	x.Add(x.Sum()).Realize()
	done := make(chan struct{})
	go func() {
		time.Sleep(10 * time.Millisecond)
		release()
		close(done)
	}()
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	<-done
	ranOn(t, "small schedule behind queued work", takeLaunches(), me, false, 2)
}

// TestPrefetchLeavesMemoryAlone: prefetching an eager op's output (any
// length, any alignment, empty) reads nothing wrong and changes nothing,
// and the op's result is the kernel's.
func TestPrefetchLeavesMemoryAlone(t *testing.T) {
	b := make([]byte, 2*prefetchMax+3)
	for i := range b {
		b[i] = byte(i * 7)
	}
	for _, off := range []int{0, 1, 63} {
		for _, n := range []int{0, 1, 64, 65, prefetchMax} {
			prefetchW(unsafe.Pointer(&b[off]), uintptr(n))
		}
	}
	for i := range b {
		if b[i] != byte(i*7) {
			t.Fatalf("byte %d changed to %d", i, b[i])
		}
	}
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			x := Arange(256).Realize()
			for range 3 { // the second and third take the template
				if got := x.Add(x).Float32s(); got[255] != 510 || got[1] != 2 {
					t.Fatalf("x+x = %v ... %v", got[:2], got[255])
				}
			}
		})
	}
}

// TestInlineReplayIsOneLaunchSpan: in a profile, a replay run on the
// caller is one launch span per call, with its kernels inside it (the
// launch ended after them), as an eager op run on the caller is: profiles
// pair each call's launch with its kernels (notebook 08 does).
func TestInlineReplayIsOneLaunchSpan(t *testing.T) {
	onDevice(t, "TESTCALLER")
	d := Device("TESTCALLER")
	x := Ones(256).Realize()
	step := JIT(func(in ...*Tensor) *Tensor { return in[0].Mul(2).Add(1).Realize() })
	for range 3 {
		step.Call(x)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	const calls = 5
	if err := StartProfile(1 << 12); err != nil {
		t.Fatal(err)
	}
	for range calls {
		step.Call(x)
	}
	_ = d.Synchronize()
	rec := StopProfile()
	var launches, kernels []Event
	for _, e := range rec.Events {
		switch e.Kind {
		case EventLaunch:
			launches = append(launches, e)
		case EventKernel:
			kernels = append(kernels, e)
		}
	}
	if len(launches) != calls || len(kernels) != calls {
		t.Fatalf("%d launch spans and %d kernels for %d replays of one kernel, want one each per call", len(launches), len(kernels), calls)
	}
	for i, k := range kernels {
		if l := launches[i]; k.Start < l.Start || k.End > l.End {
			t.Errorf("call %d: kernel %v–%v outside its launch %v–%v", i, k.Start, k.End, l.Start, l.End)
		}
	}
}
