package tensor

// Surprising JIT behaviour, recorded as tests that assert today's answer
// (after tinygrad's test_jit_footguns.py). If one of these starts failing,
// the behaviour changed: update docs/runtime.md with it.

import (
	"fmt"
	"testing"
)

func one(v float32) *Tensor { return FromFloat32s([]float32{v}).Realize() }

// Keeping replay results in a slice: they all alias one buffer, so every
// element shows the last replay's value.
func TestFootgunKeptResultsAlias(t *testing.T) {
	onDevice(t, "GO")
	j := JIT(func(in ...*Tensor) *Tensor { return in[0].Add(100).Realize() })
	var kept []*Tensor
	for i := 0; i < 5; i++ {
		kept = append(kept, j.Call(one(float32(i))))
	}
	var got []float32
	for _, k := range kept {
		got = append(got, k.Float32s()[0])
	}
	// Call 1 is eager (own buffer); calls 2..5 share the capture's buffer.
	if fmt.Sprint(got) != "[100 104 104 104 104]" {
		t.Errorf("kept results %v, today's answer is [100 104 104 104 104]", got)
	}
}

// Go side effects in fn happen on calls 1 and 2 only.
func TestFootgunSideEffectsRunTwice(t *testing.T) {
	onDevice(t, "GO")
	calls := 0
	j := JIT(func(in ...*Tensor) *Tensor { calls++; return in[0].Neg().Realize() })
	for i := 0; i < 6; i++ {
		j.Call(one(1))
	}
	if calls != 2 {
		t.Errorf("fn body ran %d times, today's answer is 2", calls)
	}
}

// A Go value read inside fn is frozen into the captured kernel as a constant.
func TestFootgunGoValuesAreFrozen(t *testing.T) {
	onDevice(t, "GO")
	scale := 1.0
	j := JIT(func(in ...*Tensor) *Tensor { return in[0].Mul(scale).Realize() })
	var got []float32
	for i := 0; i < 4; i++ {
		scale = float64(i + 1)
		got = append(got, j.Call(one(1)).Float32s()[0])
	}
	if fmt.Sprint(got) != "[1 2 2 2]" {
		t.Errorf("results %v, today's answer is [1 2 2 2] (scale frozen at capture)", got)
	}
}

// A tensor made from Go data inside fn is copied in at capture and replayed
// as a constant buffer.
func TestFootgunTensorsCreatedInsideAreFrozen(t *testing.T) {
	onDevice(t, "GO")
	n := 0
	j := JIT(func(in ...*Tensor) *Tensor {
		n++
		return in[0].Add(FromFloat32s([]float32{float32(n)})).Realize()
	})
	var got []float32
	for i := 0; i < 4; i++ {
		got = append(got, j.Call(one(0)).Float32s()[0])
	}
	if fmt.Sprint(got) != "[1 2 2 2]" {
		t.Errorf("results %v, today's answer is [1 2 2 2]", got)
	}
}

// Data-dependent control flow is decided at capture: replays take the
// capture's branch whatever the input.
func TestFootgunBranchesAreFrozen(t *testing.T) {
	onDevice(t, "GO")
	j := JIT(func(in ...*Tensor) *Tensor {
		if in[0].Item() > 0 {
			return in[0].Mul(10).Realize()
		}
		return in[0].Mul(-1).Realize()
	})
	var got []float32
	for _, v := range []float32{1, 2, -3, -4} {
		got = append(got, j.Call(one(v)).Float32s()[0])
	}
	if fmt.Sprint(got) != "[10 20 -30 -40]" {
		t.Errorf("results %v, today's answer is [10 20 -30 -40] (positive branch captured)", got)
	}
}

// Feeding a replay's output back as its input makes the kernel read and
// write the same buffer. For a purely elementwise step the recurrence still
// comes out right; a step that moves data (here a flip) reads values it has
// already overwritten once the data spans more than one evaluation block.
func TestFootgunOutputFedBackAsInput(t *testing.T) {
	onDevice(t, "GO")
	step := JIT(func(in ...*Tensor) *Tensor { return in[0].Mul(2).Add(1).Realize() })
	x := one(0)
	for i := 0; i < 5; i++ {
		x = step.Call(x)
	}
	if got := x.Float32s()[0]; got != 31 {
		t.Errorf("elementwise recurrence gave %v, today's answer is 31 (2x+1 five times)", got)
	}
	flip := JIT(func(in ...*Tensor) *Tensor { return in[0].Flip(0).Add(0).Realize() })
	run := func(n int) (got, eager []float32) {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(i)
		}
		y := FromFloat32s(v).Realize()
		for i := 0; i < 3; i++ {
			y = flip.Call(y)
		}
		return y.Float32s(), FromFloat32s(v).Flip(0).Float32s()
	}
	// 4 elements fit one GO evaluation block (gathered before written): right.
	if got, eager := run(4); fmt.Sprint(got) != fmt.Sprint(eager) {
		t.Errorf("small in-place flip replay gave %v, today's answer is the eager %v", got, eager)
	}
	// 4096 elements span blocks: the replay reads what it already overwrote.
	flip.Reset()
	got, eager := run(4096)
	if fmt.Sprint(got) == fmt.Sprint(eager) {
		t.Errorf("large in-place flip replay matched eager; today it is corrupted (reads overwritten data)")
	}
}

// Returning an input unchanged returns the new input on replay (no kernel).
func TestFootgunIdentityReturnsTheInput(t *testing.T) {
	onDevice(t, "GO")
	j := JIT(func(in ...*Tensor) *Tensor { return in[0] })
	for i := 0; i < 4; i++ {
		x := one(float32(i))
		if got := j.Call(x); got.l.base().buf != x.l.buf {
			t.Fatalf("call %d: identity did not return the input's buffer", i)
		}
	}
	if s := j.State(); len(s.Kernels) != 0 {
		t.Errorf("captured %v, want no kernels", s.Kernels)
	}
}
