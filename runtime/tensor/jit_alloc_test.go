package tensor

import (
	"slices"
	"testing"
)

// maxReplayAllocs bounds the allocations of one warm replay plus
// SynchronizeAll: replays reuse their queue items, buffer tables and output
// tensors, so the steady state allocates nothing; the bound leaves room for
// a rare pool refill, not for per-call garbage.
const maxReplayAllocs = 0.5

// TestJITReplayAllocs checks the hot path stays allocation-free: the
// tutorial's step (one kernel) and a ten-kernel step, with and without a
// wait hook installed (the notebook installs one).
func TestJITReplayAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	steps := []struct {
		name string
		fn   func(...*Tensor) *Tensor
	}{
		{"tutorial", func(a ...*Tensor) *Tensor { return a[0].Mul(2).Add(1).Realize() }},
		{"ten_kernels", tenKernelStepT},
	}
	hooks := []struct {
		name string
		hook func() error
	}{{"no_hook", nil}, {"hook", func() error { return nil }}}
	for _, dev := range testDevices(t) {
		for _, st := range steps {
			for _, h := range hooks {
				t.Run(dev+"/"+st.name+"/"+h.name, func(t *testing.T) {
					onDevice(t, dev)
					SetWaitHook(h.hook)
					t.Cleanup(func() { SetWaitHook(nil) })
					x := Arange(256).Realize()
					d := Device(dev)
					step := JIT(st.fn)
					for range 3 {
						step.Call(x)
					}
					if err := d.Synchronize(); err != nil {
						t.Fatal(err)
					}
					got := testing.AllocsPerRun(200, func() {
						step.Call(x)
						if err := SynchronizeAll(); err != nil { // what the timing magics call
							t.Fatal(err)
						}
					})
					if got > maxReplayAllocs {
						t.Errorf("a replay plus Synchronize allocates %.2f times, want ≤ %v (state %s)", got, maxReplayAllocs, step)
					}
				})
			}
		}
	}
}

// TestJITReplayBurstAllocs: a hundred replays without a synchronize
// between them (bench/cpubench's and BenchmarkJITReplayKernel's loop) run
// ahead of the device's worker; the items they have out at once come back
// to the pool and serve the next burst, so a warm burst allocates nothing.
// The worker is held (execMu) while the burst is enqueued, so every item
// is out at once whatever the machine's load. With a pool of 16 items each
// burst allocated 84 items, about a thousand allocations.
func TestJITReplayBurstAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	const burst = 100
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			d := Device(dev)
			if d.async {
				t.Skip("a device with its own queue has no worker to hold")
			}
			x := Arange(256).Realize()
			step := JIT(tenKernelStepT)
			step.Call(x)
			step.Call(x)
			want := step.Call(x).Float32s()
			got := testing.AllocsPerRun(3, func() {
				release := holdQueue(d) // the worker waits with the burst's first item
				for range burst {
					step.Call(x)
				}
				release()
				if err := SynchronizeAll(); err != nil {
					t.Fatal(err)
				}
			})
			if got > 1 {
				t.Errorf("a warm burst of %d replays allocates %.0f times, want ≤ 1", burst, got)
			}
			if out := step.Call(x).Float32s(); !slices.Equal(out, want) {
				t.Errorf("replay after bursts = %v..., want %v...", out[:4], want[:4])
			}
		})
	}
}

// tenKernelStepT is ten dependent elementwise kernels on one input.
func tenKernelStepT(in ...*Tensor) *Tensor {
	x := in[0]
	for i := 0; i < 10; i++ {
		x = x.Mul(1.0001).Add(0.5).Realize()
	}
	return x
}

// TestJITReplayReusesOutputs: replays return the same *Tensor for an
// output, refilled by each replay, as the JIT's documentation says; an
// output that is an input unchanged is that call's input.
func TestJITReplayReusesOutputs(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			step := JITMulti(func(a ...*Tensor) []*Tensor { return []*Tensor{a[0].Add(1).Realize(), a[1]} })
			x, y := FromFloat32s([]float32{1, 2}).Realize(), FromFloat32s([]float32{5, 6}).Realize()
			step.CallMulti(x, y)
			step.CallMulti(x, y)
			r1 := step.CallMulti(x, y)
			if got := r1[0].Float32s(); got[0] != 2 || got[1] != 3 {
				t.Fatalf("replay 1 = %v, want [2 3]", got)
			}
			x2, y2 := FromFloat32s([]float32{10, 20}).Realize(), FromFloat32s([]float32{7, 8}).Realize()
			r2 := step.CallMulti(x2, y2)
			if r1[0] != r2[0] {
				t.Errorf("replays returned different output tensors %p and %p; the docs say they are one", r1[0], r2[0])
			}
			if got := r1[0].Float32s(); got[0] != 11 || got[1] != 21 {
				t.Errorf("first replay's output after the second = %v, want the second's [11 21]", got)
			}
			if got := r2[1].Float32s(); got[0] != 7 || got[1] != 8 {
				t.Errorf("returned input = %v, want the second call's input [7 8]", got)
			}
			if r1[1] == r2[1] {
				t.Error("an output that is an input should be that call's input, not reused")
			}
		})
	}
}

// TestJITPooledItemsKeepNoInputs: after a burst of replays of fresh
// inputs, the items back in the pool reference none of those inputs'
// memory (a pool keeps up to maxFreeWork items; each holding an old
// input's memory would keep that many inputs alive).
func TestJITPooledItemsKeepNoInputs(t *testing.T) {
	for _, dev := range hostDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			d := Device(dev)
			step := JIT(tenKernelStepT)
			step.Call(Arange(256).Realize())
			step.Call(Arange(256).Realize())
			var mems []any
			release := holdQueue(d)
			for range 20 {
				x := Arange(256).Realize()
				mems = append(mems, x.l.buf.mem)
				step.Call(x)
			}
			release()
			if err := SynchronizeAll(); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, seg := range step.segs {
				seg.pool.mu.Lock()
				for _, w := range seg.pool.free {
					n++
					for _, k := range w.keep {
						if k != nil {
							t.Errorf("a pooled item keeps input buffer %p", k)
						}
					}
					for _, ms := range w.mems {
						for _, m := range ms {
							for _, in := range mems {
								if m != nil && any(m) == in {
									t.Errorf("a pooled item's table still holds an input's memory")
								}
							}
						}
					}
				}
				seg.pool.mu.Unlock()
			}
			if n == 0 {
				t.Fatal("no pooled items to check")
			}
		})
	}
}
