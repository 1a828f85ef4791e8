package tensor

import (
	"slices"
	"testing"
	"time"
)

// The eager fast path and JIT replay were made cheaper (pooled replay
// items, field-by-field node writes, views by pointer); what %time, %prof
// and Counters read from them must not have gone with the cost. These
// tests fail if either path stops counting its launches, its estimates or
// its phase times, or computes something else than the general path.

// TestEagerFastPathCounts: 50 eager ops through the schedule cache count
// 50 launches, their FLOPs and bytes, cache hits, and time in every host
// phase and on the device; the results are x+1.
func TestEagerFastPathCounts(t *testing.T) {
	const ops, n = 50, 256
	for _, dev := range hostDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			x := Arange(n).Realize()
			x.Add(1).Realize() // compiles; the template is stored
			_ = SynchronizeAll()
			ResetCounters()
			var last *Tensor
			for range ops {
				last = x.Add(1).Realize()
			}
			if err := SynchronizeAll(); err != nil {
				t.Fatal(err)
			}
			c := Counters()
			if c.KernelsLaunched != ops || c.CacheHits < ops || c.KernelsCompiled != 0 {
				t.Errorf("launched %d, cache hits %d, compiled %d; want %d, ≥ %d, 0", c.KernelsLaunched, c.CacheHits, c.KernelsCompiled, ops, ops)
			}
			if c.EstFLOPs != ops*n || c.EstBytes != ops*2*4*n {
				t.Errorf("estimates %d FLOPs, %d bytes; want %d and %d", c.EstFLOPs, c.EstBytes, ops*n, ops*2*4*n)
			}
			for name, d := range map[string]time.Duration{"graph": c.GraphBuild, "schedule": c.Schedule,
				"alloc": c.Alloc, "launch": c.Launch, "device": c.DeviceExec} {
				if d <= 0 {
					t.Errorf("phase %s has no time after %d eager ops", name, ops)
				}
			}
			want := make([]float32, n)
			for i := range want {
				want[i] = float32(i) + 1
			}
			if got := last.Float32s(); !slices.Equal(got, want) {
				t.Errorf("x.Add(1) = %v..., want %v...", got[:4], want[:4])
			}
		})
	}
}

// TestJITReplayCounts: a burst of replays from pooled items (the worker
// held, so every item is out at once) counts each replay, its ten
// launches and their estimates, and launch and device time; the output
// is the step's.
func TestJITReplayCounts(t *testing.T) {
	const calls, n = 40, 256
	for _, dev := range hostDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			d := Device(dev)
			x := Arange(n).Realize()
			want := tenKernelStepT(x).Float32s()
			step := JIT(tenKernelStepT)
			step.Call(x)
			step.Call(x)
			_ = SynchronizeAll()
			for round := range 2 { // the second burst reuses the first's items
				ResetCounters()
				release := holdQueue(d)
				var out *Tensor
				for range calls {
					out = step.Call(x)
				}
				release()
				if err := SynchronizeAll(); err != nil {
					t.Fatal(err)
				}
				c := Counters()
				if c.JITReplays != calls || c.KernelsLaunched != calls*10 {
					t.Errorf("burst %d: %d replays, %d launches; want %d and %d", round, c.JITReplays, c.KernelsLaunched, calls, calls*10)
				}
				if c.EstFLOPs != calls*10*2*n || c.EstBytes != calls*10*2*4*n {
					t.Errorf("burst %d: estimates %d FLOPs, %d bytes; want %d and %d", round, c.EstFLOPs, c.EstBytes, calls*10*2*n, calls*10*2*4*n)
				}
				if c.Launch <= 0 || c.DeviceExec <= 0 {
					t.Errorf("burst %d: launch %v, device %v: want both timed", round, c.Launch, c.DeviceExec)
				}
				if got := out.Float32s(); !slices.Equal(got, want) {
					t.Errorf("burst %d: replay = %v..., want %v...", round, got[:4], want[:4])
				}
			}
		})
	}
}

// hostDevices are the test devices with a worker (not a device with its
// own queue, whose worker cannot be held).
func hostDevices(t *testing.T) []string {
	var out []string
	for _, dev := range testDevices(t) {
		if d, err := LookupDevice(dev); err == nil && !d.async {
			out = append(out, dev)
		}
	}
	return out
}
