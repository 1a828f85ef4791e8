package tensor

import "testing"

// TestTutorialExample is the timing tutorial's example in Go: a tensor of
// 0..255, a JIT'd step a*2+1, the cold and capture calls, synchronize, ten timed
// calls, synchronize, and a check that the result is 2i+1.
func TestTutorialExample(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			v := make([]float32, 256)
			for i := range v {
				v[i] = float32(i)
			}
			x := FromFloat32s(v).Realize()
			step := JIT(func(a ...*Tensor) *Tensor { return a[0].Mul(2).Add(1).Realize() })
			ResetCounters()
			step.Call(x)
			step.Call(x)
			if err := MustDevice(x.Device()).Synchronize(); err != nil {
				t.Fatal(err)
			}
			var result *Tensor
			for i := 0; i < 10; i++ {
				result = step.Call(x)
			}
			if err := MustDevice(x.Device()).Synchronize(); err != nil {
				t.Fatal(err)
			}
			got := result.Float32s()
			for i, g := range got {
				if g != float32(2*i+1) {
					t.Fatalf("result[%d] = %v, want %v", i, g, 2*i+1)
				}
			}
			c := Counters()
			if c.JITCaptures != 1 || c.JITReplays != 10 {
				t.Errorf("captures %d replays %d, want 1 and 10 (state %s)", c.JITCaptures, c.JITReplays, step)
			}
			if s := step.State(); s.Phase != "replay" || len(s.Kernels) != 1 {
				t.Errorf("state %+v: want phase replay and one captured kernel", s)
			}
		})
	}
}
