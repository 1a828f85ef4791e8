package tensor

import (
	"slices"
	"strings"
	"testing"
)

// A training step under the JIT: forward, backward and an SGD update by
// assignment, captured once and replayed with new batches.

// linearStep is one SGD step of least squares on x·w + b.
func linearStep(w, b *Tensor, lr float64) func(in ...*Tensor) *Tensor {
	return func(in ...*Tensor) *Tensor {
		x, y := in[0], in[1]
		w.ZeroGrad()
		b.ZeroGrad()
		loss := x.Matmul(w).Add(b).Sub(y).Pow(2).Mean()
		loss.Backward()
		end := Region("backward")
		RealizeAll(w.Grad(), b.Grad())
		end()
		end = Region("optimizer")
		w.Assign(w.Detach().Sub(w.Grad().Mul(lr)))
		b.Assign(b.Detach().Sub(b.Grad().Mul(lr)))
		RealizeAll(w, b)
		end()
		return loss
	}
}

func stepBatches(n int) [][2]*Tensor {
	var out [][2]*Tensor
	for i := range n {
		x := RandnSeed(int64(100+i), 16, 8).Realize()
		y := x.Matmul(RandSeed(7, 8, 2)).Add(0.5).Realize()
		out = append(out, [2]*Tensor{x, y})
	}
	return out
}

func TestJITTrainingStepMatchesEagerAndAllocatesNothing(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			wj, bj := RandSeed(1, 8, 2).Realize().RequiresGrad(), Zeros(2).Contiguous().Realize().RequiresGrad()
			we, be := RandSeed(1, 8, 2).Realize().RequiresGrad(), Zeros(2).Contiguous().Realize().RequiresGrad()
			wbuf := wj.l.buf
			step := JIT(linearStep(wj, bj, 0.05))
			eager := linearStep(we, be, 0.05)
			batches := stepBatches(6)
			var losses []float64
			for i, bt := range batches {
				lj := step.Call(bt[0], bt[1]).Item()
				le := eager(bt[0], bt[1]).Item()
				if lj != le || !slices.Equal(wj.Float32s(), we.Float32s()) || !slices.Equal(bj.Float32s(), be.Float32s()) {
					t.Fatalf("step %d (%s): JIT loss %v, eager %v; parameters differ: %v vs %v", i+1, step.State().Phase, lj, le, wj.Float32s(), we.Float32s())
				}
				losses = append(losses, lj)
			}
			if wj.l.base().buf != wbuf {
				t.Fatal("the parameter moved to another buffer: the step must update it in place")
			}
			if losses[len(losses)-1] >= losses[0] {
				t.Fatalf("loss did not decrease: %v", losses)
			}
			st := step.State()
			if len(st.State) != 2 || !strings.Contains(st.State[0], "[8 2] float32") || !strings.Contains(st.State[0], "updated in place") {
				t.Fatalf("state %q: want w and b, updated in place", st.State)
			}
			if !slices.Equal(regionNames(st.Regions), []string{"forward", "backward", "optimizer"}) {
				t.Fatalf("kernels by region %q", st.Regions)
			}
			// Provenance: a replay reads the parameters besides its inputs.
			stop := RecordFacts()
			step.Call(batches[0][0], batches[0][1])
			f := stop()
			var reads []string
			for _, r := range f.Reads {
				reads = append(reads, r.String())
			}
			if !slices.Contains(reads, "[8 2] float32 on "+dev) || !slices.Contains(reads, "[16 8] float32 on "+dev) {
				t.Fatalf("a replay's reads %q lack the parameters or the batch", reads)
			}
			if raceEnabled {
				return
			}
			d := Device(dev)
			if err := d.Synchronize(); err != nil {
				t.Fatal(err)
			}
			i := 0
			got := testing.AllocsPerRun(100, func() {
				bt := batches[i%len(batches)]
				i++
				step.Call(bt[0], bt[1])
				if err := d.Synchronize(); err != nil {
					t.Fatal(err)
				}
			})
			if got > maxReplayAllocs {
				t.Errorf("a replayed training step plus Synchronize allocates %.2f times, want ≤ %v", got, maxReplayAllocs)
			}
		})
	}
}

func regionNames(rs []string) []string {
	var out []string
	for _, r := range rs {
		name, _, _ := strings.Cut(r, " ")
		out = append(out, name)
	}
	return out
}
