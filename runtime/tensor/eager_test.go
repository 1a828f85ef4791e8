package tensor

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/backend/null"
	"github.com/tick-kernel/tick/runtime/device"
)

// eagerCases are graphs of one kernel over realized inputs a [4,8] and b
// [4,8] (c is [1,8]): what the schedule cache keys and replays. Pairs that
// share a structure but not their buffers or constants (a+a and a+b, +1
// and +2) are next to each other so a wrong template hit shows.
var eagerCases = []struct {
	name string
	f    func(a, b, c *Tensor) *Tensor
}{
	{"a+1", func(a, b, c *Tensor) *Tensor { return a.Add(1) }},
	{"a+2", func(a, b, c *Tensor) *Tensor { return a.Add(2) }},
	{"a+b", func(a, b, c *Tensor) *Tensor { return a.Add(b) }},
	{"a+a", func(a, b, c *Tensor) *Tensor { return a.Add(a) }},
	{"b+a", func(a, b, c *Tensor) *Tensor { return b.Add(a) }},
	{"a-b", func(a, b, c *Tensor) *Tensor { return a.Sub(b) }},
	{"(a*2+1)*b", func(a, b, c *Tensor) *Tensor { return a.Mul(2).Add(1).Mul(b) }},
	{"shared t*t", func(a, b, c *Tensor) *Tensor { t := a.Add(b); return t.Mul(t) }},
	{"a+c broadcast", func(a, b, c *Tensor) *Tensor { return a.Add(c) }},
	{"c+a broadcast", func(a, b, c *Tensor) *Tensor { return c.Add(a) }},
	{"a.T+b.T", func(a, b, c *Tensor) *Tensor { return a.T().Add(b.T()) }},
	{"a.T+b.T(1)", func(a, b, c *Tensor) *Tensor { return a.T().Add(b.Reshape(8, 4)) }},
	{"shrink", func(a, b, c *Tensor) *Tensor { return a.Shrink([][2]int{{1, 3}, {2, 6}}).Add(1) }},
	{"shrink other", func(a, b, c *Tensor) *Tensor { return a.Shrink([][2]int{{0, 2}, {2, 6}}).Add(1) }},
	{"pad", func(a, b, c *Tensor) *Tensor { return a.Pad([][2]int{{1, 0}, {0, 2}}).Add(1) }},
	{"flip", func(a, b, c *Tensor) *Tensor { return a.Flip(1).Mul(b) }},
	{"where", func(a, b, c *Tensor) *Tensor { return Where(a.Gt(b), a, 0.5) }},
	{"cast int", func(a, b, c *Tensor) *Tensor { return a.Mul(10).Cast(Int32).Add(3) }},
	{"sum 1", func(a, b, c *Tensor) *Tensor { return a.Mul(b).Sum(1) }},
	{"sum 0", func(a, b, c *Tensor) *Tensor { return a.Mul(b).Sum(0) }},
	{"max", func(a, b, c *Tensor) *Tensor { return a.Add(b).Max(1) }},
	{"exp", func(a, b, c *Tensor) *Tensor { return a.Exp() }},
	{"two kernels", func(a, b, c *Tensor) *Tensor { return a.Sub(a.Max(1).Unsqueeze(1)) }},
}

// TestEagerTemplatesMatchGeneralPath: each graph realized by Realize (the
// first call stores a template, the next ones launch it with new inputs)
// equals the same graph scheduled by the general path (RealizeAll), on
// every device, with fresh inputs each round.
func TestEagerTemplatesMatchGeneralPath(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			for round := range 3 {
				a := RandnSeed(int64(10*round+1), 4, 8).Realize()
				b := RandnSeed(int64(10*round+2), 4, 8).Realize()
				c := RandnSeed(int64(10*round+3), 1, 8).Realize()
				wants := make([]*Tensor, len(eagerCases))
				for i, tc := range eagerCases {
					wants[i] = tc.f(a, b, c)
				}
				RealizeAll(wants...) // the general scheduler, always (compiling concurrently)
				for i, tc := range eagerCases {
					got := tc.f(a, b, c).Realize()
					if w, g := wants[i].Float64s(), got.Float64s(); !slices.Equal(w, g) {
						t.Errorf("round %d, %s: Realize gave %v, the general path %v", round, tc.name, head(g), head(w))
					}
				}
			}
		})
	}
}

// TestEagerOpUsesTemplate: a repeated eager op is served by a template
// and allocates a few objects, not the general path's 53.
func TestEagerOpUsesTemplate(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			d := Device(dev)
			x := RandSeed(1, 256).Realize()
			x.Add(1).Realize()
			_ = d.Synchronize()
			tp := &tapeWalk{}
			if !tp.graph(x.Add(1).l) {
				t.Fatal("x.Add(1) is not a one-kernel graph to the tape walk")
			}
			if d.sched.lookup(tp.hash(), tp.tape[:tp.n]) == nil {
				t.Fatal("no template stored for x.Add(1) after realizing it")
			}
			allocs := testing.AllocsPerRun(200, func() { x.Add(1).Realize() })
			_ = d.Synchronize()
			// 1 on CPU; on GO up to 5 more when the pool is empty between
			// collections (the buffer, its header, its typed view).
			if allocs > 8 {
				t.Errorf("an eager x.Add(1).Realize() makes %.1f allocations, want at most 8 (the general path makes 53)", allocs)
			}
		})
	}
}

// TestEagerTemplateKeepsDeviceErrors: a graph mixing devices is refused by
// the general path's error even after the same structure on one device
// stored a template.
func TestEagerTemplateKeepsDeviceErrors(t *testing.T) {
	devs := testDevices(t)
	if len(devs) < 2 {
		t.Skip("one computing device")
	}
	x := FromFloat32s([]float32{1, 2, 3}).To(devs[0])
	y := FromFloat32s([]float32{1, 2, 3}).To(devs[0])
	x.Add(y).Realize()
	z := y.To(devs[1])
	// Build the graph by hand: binaryOp refuses mixed devices itself.
	l := newElem(OpAdd, Float32, x.l.shape, x.l.dev, x.l, z.l)
	defer func() {
		r := recover()
		if e, ok := r.(*OpError); !ok || e.Op != "Realize" {
			t.Errorf("realizing a graph across devices: %v, want the scheduler's Realize error", r)
		}
	}()
	l.Realize()
	t.Error("no panic realizing a graph across devices")
}

// flakyBackend is a NULL device whose small kernels run on the caller
// (device.Inliner, as CPU and GO) and panic while failNext is set: the
// fast path's launch on the caller (launchNow) must keep the failure for
// the next Synchronize, as a queued kernel's, and leave the device usable.
type flakyBackend struct{ null.Backend }

var failNext atomic.Bool

func (flakyBackend) Open(int) (device.Device, error) { return flakyDevice{}, nil }

type flakyDevice struct{ null.Device }

func (flakyDevice) Queue() device.Queue { return flakyQueue{} }
func (flakyDevice) InlineSmall() bool   { return true }

type flakyQueue struct{ null.Queue }

func (flakyQueue) Launch(device.Program, []device.Memory, device.Dims) error {
	if failNext.Swap(false) {
		panic("flaky kernel")
	}
	return nil
}

func init() { device.Register("TESTFLAKY", flakyBackend{}) }

// TestEagerTemplateFailureOnCaller: a template launched on the caller that
// panics is reported once by the next Synchronize, and the device (whose
// lock the launch held) goes on running eager ops and Synchronizes.
func TestEagerTemplateFailureOnCaller(t *testing.T) {
	onDevice(t, "TESTFLAKY")
	d := Device("TESTFLAKY")
	x := Ones(256).Realize()
	x.Add(1).Realize() // stores the template
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	hits := Counters().CacheHits
	failNext.Store(true)
	x.Add(1).Realize()
	if Counters().CacheHits == hits {
		t.Fatal("the second x.Add(1) did not take the template path")
	}
	done := make(chan error, 1)
	go func() { done <- d.Synchronize() }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "panicked: flaky kernel") {
			t.Fatalf("Synchronize = %v, want the kernel's panic", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Synchronize still waiting 10 s after a failed launch on the caller: the device is wedged")
	}
	if err := d.Synchronize(); err != nil {
		t.Errorf("the error is reported once; second Synchronize = %v", err)
	}
	for range 3 {
		x.Add(1).Realize()
	}
	if err := d.Synchronize(); err != nil {
		t.Errorf("eager ops after the failure: Synchronize = %v", err)
	}
}

// TestEagerConcurrentCallers: goroutines running eager ops on one device
// (launched on the caller when it is idle, queued when another's kernel
// is running) while others Synchronize get every result right; run under
// the race detector by the race stage. On a device with its own queue
// (CL) every op launches on the caller's goroutine; one goroutine's
// Synchronize then reads the device's stamps while others enqueue, which
// once read a command that had not run yet and panicked
// (CL_PROFILING_INFO_NOT_AVAILABLE).
func TestEagerConcurrentCallers(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			d := Device(dev)
			onDevice(t, dev)
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					x, one := Full(float64(g), 256).Realize(), Ones(256).Realize()
					for i := range 200 {
						x = x.Add(one).Realize()
						if i%10 == 0 {
							if err := d.Synchronize(); err != nil {
								errs <- fmt.Errorf("goroutine %d op %d: Synchronize: %w", g, i, err)
								return
							}
						}
						if i%50 == 49 {
							if v := x.Float64s()[255]; v != float64(g+i+1) {
								errs <- fmt.Errorf("goroutine %d op %d: %v, want %d", g, i, v, g+i+1)
								return
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}
