package tensor

import (
	"testing"
	"time"
)

// profileOf records what f does, after synchronizing (so the recording
// holds every kernel f enqueued).
func profileOf(t *testing.T, capacity int, f func()) *Recording {
	t.Helper()
	if err := StartProfile(capacity); err != nil {
		t.Fatal(err)
	}
	f()
	if err := SynchronizeAll(); err != nil {
		StopProfile()
		t.Fatal(err)
	}
	rec := StopProfile()
	if rec == nil {
		t.Fatal("StopProfile returned nil while a profile was being taken")
	}
	return rec
}

func kernelsOf(rec *Recording) []Event {
	var out []Event
	for _, e := range rec.Events {
		if e.Kind == EventKernel {
			out = append(out, e)
		}
	}
	return out
}

func countKind(rec *Recording, k EventKind) int {
	n := 0
	for _, e := range rec.Events {
		if e.Kind == k {
			n++
		}
	}
	return n
}

func TestProfileOffRecordsNothing(t *testing.T) {
	if Profiling() {
		t.Fatal("profiling is on by default")
	}
	Arange(64).Mul(2).Realize().Float32s()
	if rec := StopProfile(); rec != nil {
		t.Fatalf("StopProfile without StartProfile returned %d events", len(rec.Events))
	}
}

// TestProfileKernelsAndLanes: every launch is one kernel event on its
// device's lane, with enqueue ≤ start ≤ end; the host spans of the walk of
// a Realize are there; a device's kernels run one after another in the
// order they were enqueued.
func TestProfileKernelsAndLanes(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			x := Arange(1024).Realize()
			rec := profileOf(t, 0, func() {
				y := x
				for range 5 {
					y = y.Mul(2).Add(1).Realize()
				}
				// Something for the read-back to wait for: small work on an
				// idle host device runs on the caller, and a Synchronize with
				// nothing pending records no sync span.
				Device(dev).Spin(time.Millisecond)
				y.Float32s()
			})
			ks := kernelsOf(rec)
			if len(ks) != 5 {
				t.Fatalf("%d kernel events, want 5 (one per Realize): %+v", len(ks), ks)
			}
			for i, k := range ks {
				if k.Device != dev || k.Name != "E_1024" || k.Key == "" || len(k.Shape) != 1 || k.Shape[0] != 1024 {
					t.Errorf("kernel %d: device %q name %q shape %v key %q", i, k.Device, k.Name, k.Shape, k.Key)
				}
				if k.FLOPs != 2*1024 || k.Bytes != 2*1024*4 {
					t.Errorf("kernel %d: estimates %d FLOPs %d bytes, want %d and %d", i, k.FLOPs, k.Bytes, 2*1024, 2*1024*4)
				}
				if !(0 <= k.Enqueued && k.Enqueued <= k.Start && k.Start <= k.End && k.End <= rec.Duration) {
					t.Errorf("kernel %d: enqueued %v start %v end %v (profile %v)", i, k.Enqueued, k.Start, k.End, rec.Duration)
				}
				if i > 0 && (k.Start < ks[i-1].End || k.Enqueued < ks[i-1].Enqueued) {
					t.Errorf("kernel %d starts %v before kernel %d ends %v, or was enqueued earlier", i, k.Start, i-1, ks[i-1].End)
				}
			}
			for _, kind := range []EventKind{EventGraph, EventSchedule, EventCodegen, EventAlloc, EventLaunch, EventSync, EventTransfer, EventCompile} {
				if countKind(rec, kind) == 0 {
					t.Errorf("no %s span recorded", kind)
				}
			}
			if Device(dev).stamped != nil { // the read-back is a copy on the device's queue, by its clock
				if n := countKind(rec, EventCopy); n == 0 {
					t.Errorf("no copy event on %s for the read-back", dev)
				}
				// and the recording says its lanes are its own clock's, aligned within a bound
				if len(rec.Clocks) != 1 || rec.Clocks[0].Device != dev || rec.Clocks[0].Bound <= 0 {
					t.Errorf("clocks %+v: want %s with the bound of its offset", rec.Clocks, dev)
				}
			} else if len(rec.Clocks) != 0 {
				t.Errorf("%s has no clock of its own, but the recording lists %+v", dev, rec.Clocks)
			}
			for _, e := range rec.Events {
				if e.Kind != EventKernel && e.Kind != EventCompile && e.Kind != EventCopy && e.Device != "" {
					t.Errorf("host span %s on lane %q", e.Kind, e.Device)
				}
				if e.End < e.Start {
					t.Errorf("%s span ends before it starts: %v < %v", e.Kind, e.End, e.Start)
				}
			}
		})
	}
}

// TestProfileCompileCacheState: the first Realize of a new kernel records a
// compile (or a disk-cache load on CPU); the second finds it in memory.
func TestProfileCompileCacheState(t *testing.T) {
	onDevice(t, "GO")
	x := Arange(77).Realize()
	rec := profileOf(t, 0, func() {
		x.Sqrt().Mul(3.25).Realize()
		x.Sqrt().Mul(3.25).Realize()
	})
	var states []string
	for _, e := range rec.Events {
		if e.Kind == EventCompile {
			states = append(states, e.Detail)
			if e.Name != "E_77" || e.Device != "GO" || e.Key == "" {
				t.Errorf("compile event %+v", e)
			}
		}
	}
	if len(states) != 2 || states[0] != "compiled" || states[1] != "memory cache" {
		t.Errorf("compile states %q, want [compiled memory cache]", states)
	}
}

// TestProfileJITPhases: each JIT call is a span named by its phase, and
// a replay's kernels are recorded one by one (not as one batch).
func TestProfileJITPhases(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			x := Arange(256).Realize()
			step := JIT(tenKernelStepT)
			rec := profileOf(t, 0, func() {
				for range 5 {
					step.Call(x)
				}
			})
			var phases []string
			for _, e := range rec.Events {
				if e.Kind == EventJIT {
					phases = append(phases, e.Name)
					if e.Call != len(phases) {
						t.Errorf("JIT span %q has call %d, want %d", e.Name, e.Call, len(phases))
					}
				}
			}
			want := []string{"cold", "capture", "replay", "replay", "replay"}
			if len(phases) != len(want) {
				t.Fatalf("JIT phases %q, want %q", phases, want)
			}
			for i := range want {
				if phases[i] != want[i] {
					t.Fatalf("JIT phases %q, want %q", phases, want)
				}
			}
			ks := kernelsOf(rec)
			if len(ks) != 5*10 {
				t.Errorf("%d kernel events, want 50 (ten per call, replays included)", len(ks))
			}
			// A replay's launches run as one batch on CPU: each still has
			// its own span, in order, none overlapping the next.
			for i := 1; i < len(ks); i++ {
				if ks[i].Start < ks[i-1].End || ks[i].End < ks[i].Start || ks[i].Enqueued > ks[i].Start {
					t.Fatalf("kernel %d [%v, %v] (enqueued %v) overlaps kernel %d [%v, %v]",
						i, ks[i].Start, ks[i].End, ks[i].Enqueued, i-1, ks[i-1].Start, ks[i-1].End)
				}
			}
		})
	}
}

// TestProfileDoesNotSynchronize: with a profile being taken, Realize still
// returns while the kernel is blocked on the device.
func TestProfileDoesNotSynchronize(t *testing.T) {
	onDevice(t, "TESTGATE")
	if err := StartProfile(0); err != nil {
		t.Fatal(err)
	}
	defer StopProfile()
	returned := make(chan struct{})
	go func() {
		Ones(8).Add(1).Realize()
		Ones(8).Mul(3).Realize()
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("Realize waited for the device while profiling")
	}
	if ran := gate.ran.Load(); ran != 0 {
		t.Fatalf("%d kernels ran before the gate opened", ran)
	}
	gate.gate <- struct{}{}
	gate.gate <- struct{}{}
	if err := Device("TESTGATE").Synchronize(); err != nil {
		t.Fatal(err)
	}
	gate.ran.Store(0)
	rec := StopProfile()
	ks := kernelsOf(rec)
	if len(ks) != 2 {
		t.Fatalf("%d kernel events, want 2", len(ks))
	}
	// The host enqueued both before the gate opened: the second launch was
	// enqueued before the first one ended.
	if ks[1].Enqueued >= ks[0].End {
		t.Errorf("second launch enqueued at %v, after the first ended (%v): the host waited", ks[1].Enqueued, ks[0].End)
	}
}

// TestProfileBoundedBuffer: a long run keeps the first Capacity events and
// counts the rest; the buffer never grows.
func TestProfileBoundedBuffer(t *testing.T) {
	onDevice(t, "GO")
	x := Arange(16).Realize()
	step := JIT(func(a ...*Tensor) *Tensor { return a[0].Add(1).Realize() })
	const capacity = 100
	rec := profileOf(t, capacity, func() {
		for range 2000 {
			step.Call(x)
		}
	})
	if len(rec.Events) != capacity || rec.Capacity != capacity {
		t.Fatalf("kept %d events (capacity %d), want %d", len(rec.Events), rec.Capacity, capacity)
	}
	// Each replay records at least a JIT span, a launch and a kernel.
	if rec.Dropped < 3*2000-capacity {
		t.Errorf("dropped %d events, want at least %d", rec.Dropped, 3*2000-capacity)
	}
}

// TestProfileFullBufferAllocatesNothing: once the buffer is full, recording
// more (dropping) allocates nothing either, so memory stays bounded however
// long the profiled run.
func TestProfileFullBufferAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	onDevice(t, "GO")
	x := Arange(16).Realize()
	step := JIT(func(a ...*Tensor) *Tensor { return a[0].Add(1).Realize() })
	for range 3 {
		step.Call(x)
	}
	if err := StartProfile(10); err != nil {
		t.Fatal(err)
	}
	defer StopProfile()
	got := testing.AllocsPerRun(500, func() {
		step.Call(x)
		if err := Device("GO").Synchronize(); err != nil {
			t.Fatal(err)
		}
	})
	if got > maxReplayAllocs {
		t.Errorf("a replay recorded into a full buffer allocates %.2f times", got)
	}
	if rec := StopProfile(); rec.Dropped < 500 {
		t.Errorf("dropped %d events, want at least 500", rec.Dropped)
	}
}

func TestProfileTwiceIsAnError(t *testing.T) {
	if err := StartProfile(10); err != nil {
		t.Fatal(err)
	}
	defer StopProfile()
	err := StartProfile(10)
	if _, ok := err.(*ProfileError); !ok {
		t.Fatalf("second StartProfile = %v, want a *ProfileError", err)
	}
}

// TestProfileReplayAllocs: recording keeps a replay allocation-free.
func TestProfileReplayAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			x := Arange(256).Realize()
			step := JIT(tenKernelStepT)
			for range 3 {
				step.Call(x)
			}
			if err := StartProfile(1 << 20); err != nil {
				t.Fatal(err)
			}
			defer StopProfile()
			got := testing.AllocsPerRun(200, func() {
				step.Call(x)
				if err := Device(dev).Synchronize(); err != nil {
					t.Fatal(err)
				}
			})
			if got > maxReplayAllocs {
				t.Errorf("a profiled replay allocates %.2f times, want ≤ %v", got, maxReplayAllocs)
			}
		})
	}
}

func TestEventKindNames(t *testing.T) {
	for k := EventKind(0); k < numEventKinds; k++ {
		back, ok := ParseEventKind(k.String())
		if !ok || back != k {
			t.Errorf("kind %d: %q parses back as %d, %v", k, k.String(), back, ok)
		}
	}
}
