package tensor

import (
	"errors"
	"runtime"
	"testing"
)

func TestJITReplayEqualsEager(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			w := RandnSeed(1, 8, 8).Realize()
			f := func(in ...*Tensor) *Tensor {
				h := in[0].Matmul(w).Relu().Realize()
				return h.Add(in[1]).Softmax(1).Realize()
			}
			j := JIT(f)
			for call := 0; call < 5; call++ {
				x, b := RandnSeed(int64(10+call), 4, 8).Realize(), RandnSeed(int64(20+call), 8).Realize()
				want := f(x, b).Float32s()
				got := j.Call(x, b).Float32s()
				checkF32(t, "replay vs eager", got, want, 8)
			}
			if s := j.State(); s.Calls != 5 || s.Phase != "replay" || len(s.Kernels) == 0 {
				t.Errorf("state after 5 calls: %+v", s)
			}
		})
	}
}

func TestJITSeesChangedInputAndSkipsFn(t *testing.T) {
	onDevice(t, "GO")
	ran := 0
	j := JIT(func(in ...*Tensor) *Tensor { ran++; return in[0].Mul(3).Realize() })
	for i := 0; i < 4; i++ {
		x := FromFloat32s([]float32{float32(i), 1}).Realize()
		got := j.Call(x).Float32s()
		if got[0] != float32(3*i) || got[1] != 3 {
			t.Fatalf("call %d: %v, want [%d 3]", i, got, 3*i)
		}
	}
	if ran != 2 {
		t.Errorf("fn ran %d times, want 2 (cold and capture only)", ran)
	}
}

func TestJITRefusesChangedSignature(t *testing.T) {
	onDevice(t, "GO")
	j := JIT(func(in ...*Tensor) *Tensor { return in[0].Add(1).Realize() })
	j.Call(Ones(4))
	j.Call(Ones(4))
	cases := []struct {
		field string
		in    []*Tensor
	}{
		{"shape", []*Tensor{Ones(5)}},
		{"dtype", []*Tensor{Ones(4).Cast(Int32)}},
		{"count", []*Tensor{Ones(4), Ones(4)}},
		{"device", []*Tensor{Ones(4).To("NULL")}},
	}
	for _, c := range cases {
		_, err := j.CallE(c.in...)
		var je *JITError
		if !errors.As(err, &je) || je.Field != c.field {
			t.Errorf("%s change: error %v, want *JITError with Field %q", c.field, err, c.field)
		}
	}
	if _, err := j.CallE(Ones(4)); err != nil {
		t.Errorf("the original signature still replays: %v", err)
	}
	two := JIT(func(in ...*Tensor) *Tensor { return in[0].Sub(in[1]).Realize() })
	x := Ones(3).Realize()
	var je *JITError
	if _, err := two.CallE(x, x); !errors.As(err, &je) || je.Field != "duplicate" {
		t.Errorf("the same buffer as two inputs: error %v, want *JITError with Field \"duplicate\"", err)
	}
}

// TestJITReplayOutputsAlias documents the aliasing rule: replays reuse the
// output buffer captured on call 2, so an earlier replay's result changes
// when a later replay runs. Copy out (Float32s) what you keep.
func TestJITReplayOutputsAlias(t *testing.T) {
	onDevice(t, "GO")
	j := JIT(func(in ...*Tensor) *Tensor { return in[0].Mul(2).Realize() })
	x := func(v float32) *Tensor { return FromFloat32s([]float32{v}).Realize() }
	j.Call(x(1))
	c2 := j.Call(x(2)) // capture
	r3 := j.Call(x(3)) // replay
	r4 := j.Call(x(4)) // replay
	if got := r4.Float32s()[0]; got != 8 {
		t.Fatalf("r4 = %v, want 8", got)
	}
	if got := r3.Float32s()[0]; got != 8 {
		t.Errorf("r3 = %v: replays alias, so r3 shows replay 4's value 8", got)
	}
	if got := c2.Float32s()[0]; got != 8 {
		t.Errorf("capture output = %v: the capture's output buffer is the replay buffer, so 8", got)
	}
	if r3.l.base().buf != r4.l.base().buf {
		t.Error("replay outputs should share one buffer")
	}
}

func TestJITMultiOutput(t *testing.T) {
	onDevice(t, "GO")
	j := JITMulti(func(in ...*Tensor) []*Tensor {
		return []*Tensor{in[0].Add(in[1]).Realize(), in[0].Mul(in[1]).Sum().Realize()}
	})
	for i := 1; i <= 4; i++ {
		a, b := Full(float64(i), 3).Realize(), Full(2, 3).Realize()
		out := j.CallMulti(a, b)
		if s := out[0].Float32s(); s[0] != float32(i+2) {
			t.Fatalf("call %d sum = %v", i, s)
		}
		if p := out[1].Item(); p != float64(6*i) {
			t.Fatalf("call %d dot = %v, want %d", i, p, 6*i)
		}
	}
}

// TestJITNoMemoryGrowth replays 10,000 times and checks live buffers and the
// heap do not grow.
func TestJITNoMemoryGrowth(t *testing.T) {
	onDevice(t, "GO")
	x := Arange(256).Realize()
	j := JIT(func(in ...*Tensor) *Tensor { return in[0].Mul(2).Add(1).Realize() })
	for i := 0; i < 100; i++ {
		j.Call(x)
	}
	_ = SynchronizeAll()
	before, heap0 := settle()
	for i := 0; i < 10000; i++ {
		j.Call(x)
	}
	_ = SynchronizeAll()
	after, heap1 := settle()
	if after.Buffers != before.Buffers || after.MemoryInUse != before.MemoryInUse {
		t.Errorf("buffers %d → %d, memory %d → %d bytes over 10,000 replays", before.Buffers, after.Buffers, before.MemoryInUse, after.MemoryInUse)
	}
	if heap1 > heap0+1<<20 {
		t.Errorf("heap grew from %d to %d bytes over 10,000 replays", heap0, heap1)
	}
	runtime.KeepAlive(x)
	runtime.KeepAlive(j)
}

func settle() (Stats, uint64) {
	var ms runtime.MemStats
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	return Counters(), ms.HeapAlloc
}
