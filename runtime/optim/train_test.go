package optim

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/data"
	"github.com/tick-kernel/tick/runtime/nn"
	"github.com/tick-kernel/tick/runtime/tensor"
)

// Training a small MLP on the spirals: the optimizers, the nn layers,
// autodiff and the JIT together, as a notebook uses them.

// devices lists the devices to train on: every available one except NULL
// and the test backends; with hostOnly, also without CL, whose every
// kernel costs a slow compile (a few minutes for a training step's under
// load): the tests that check the optimizers' logic, the same on every
// device, run on the host devices, and CL trains once (Adam) and replays.
func devices(t *testing.T, hostOnly bool) []string {
	var out []string
	for _, n := range tensor.AvailableBackends() {
		if n != "NULL" && !strings.HasPrefix(n, "TEST") && (!hostOnly || n != "CL") {
			out = append(out, n)
		}
	}
	return out
}

func onDevice(t *testing.T, dev string) {
	prev := tensor.DefaultDevice()
	if err := tensor.SetDefaultDevice(dev); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tensor.SetDefaultDevice(prev) })
}

// mlp is the spirals classifier: 2 → 64 → 64 → 3 with ReLUs.
func mlp(seed int64) *nn.Sequential {
	tensor.ManualSeed(seed)
	return nn.NewSequential(nn.NewLinear(2, 64), nn.ReLU(), nn.NewLinear(64, 64), nn.ReLU(), nn.NewLinear(64, 3))
}

// trainStep is one training step of model with opt on a batch (x, y).
func trainStep(model *nn.Sequential, opt Optimizer) func(in ...*tensor.Tensor) *tensor.Tensor {
	return func(in ...*tensor.Tensor) *tensor.Tensor {
		opt.ZeroGrad()
		loss := nn.CrossEntropy(model.Forward(in[0]), in[1])
		loss.Backward()
		opt.Step()
		return loss
	}
}

// TestTrainingReachesAStatedLoss: on seed 1's spirals (300 points, 3
// arms) an MLP trained with Adam (lr 0.01, batches of 100, the step
// JIT-compiled) goes from a loss above 1 (chance is ln 3 ≈ 1.10) to a mean
// loss below 0.1 over its last 30 steps of 300, and classifies at least
// 97% of the points; SGD with momentum (lr 0.1, μ 0.9) gets below 0.25 and
// 90%.
func TestTrainingReachesAStatedLoss(t *testing.T) {
	ds := data.Spirals(100, 3, 0.2, 1)
	cases := []struct {
		name    string
		opt     func(ps []*tensor.Tensor) Optimizer
		maxLoss float64
		minAcc  float64
	}{
		{"Adam", func(ps []*tensor.Tensor) Optimizer { return NewAdam(ps, AdamConfig{LR: 0.01}) }, 0.1, 0.97},
		{"SGD momentum", func(ps []*tensor.Tensor) Optimizer { return NewSGD(ps, SGDConfig{LR: 0.1, Momentum: 0.9}) }, 0.25, 0.9},
	}
	for _, dev := range devices(t, false) {
		for _, c := range cases {
			if dev == "CL" && c.name != "Adam" {
				continue
			}
			t.Run(dev+"/"+c.name, func(t *testing.T) {
				onDevice(t, dev)
				model := mlp(0)
				step := tensor.JIT(trainStep(model, c.opt(model.Parameters())))
				bs := ds.Batches(100, 2)
				var losses []float64
				for i := range 300 {
					losses = append(losses, step.Call(bs[i%len(bs)].X, bs[i%len(bs)].Y).Item())
				}
				last := 0.0
				for _, l := range losses[270:] {
					last += l / 30
				}
				x, y := ds.Tensors()
				acc := nn.Accuracy(model.Forward(x), y)
				t.Logf("loss %.3f → %.4f (mean of the last 30 steps), accuracy %.3f", losses[0], last, acc)
				if losses[0] < 1 || last > c.maxLoss || acc < c.minAcc || math.IsNaN(last) {
					t.Fatalf("loss %.3f → %.4f (want < %v), accuracy %.3f (want ≥ %v)", losses[0], last, c.maxLoss, acc, c.minAcc)
				}
			})
		}
	}
}

func TestJITStepMatchesEagerSteps(t *testing.T) {
	ds := data.Spirals(40, 3, 0.2, 3)
	for _, dev := range devices(t, true) {
		t.Run(dev, func(t *testing.T) {
			onDevice(t, dev)
			bs := ds.Batches(40, 4)
			mj, me := mlp(5), mlp(5)
			step := tensor.JIT(trainStep(mj, NewAdamW(mj.Parameters(), AdamConfig{LR: 0.02, WeightDecay: 0.01})))
			eager := trainStep(me, NewAdamW(me.Parameters(), AdamConfig{LR: 0.02, WeightDecay: 0.01}))
			for i := range 6 {
				b := bs[i%len(bs)]
				lj, le := step.Call(b.X, b.Y).Item(), eager(b.X, b.Y).Item()
				pj, pe := mj.Parameters(), me.Parameters()
				for k := range pj {
					if lj != le || !slices.Equal(pj[k].Float32s(), pe[k].Float32s()) {
						t.Fatalf("step %d: JIT and eager differ (loss %v vs %v, parameter %d)", i+1, lj, le, k)
					}
				}
			}
			st := step.State()
			if len(st.Regions) != 3 || !strings.HasPrefix(st.Regions[0], "forward") || !strings.HasPrefix(st.Regions[2], "optimizer") {
				t.Fatalf("regions %v", st.Regions)
			}
		})
	}
}

func TestReplayedStepAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	ds := data.Spirals(100, 3, 0.2, 3) // batches of 100 as above: on CL the same kernels, compiled once
	for _, dev := range devices(t, false) {
		for _, name := range []string{"SGD", "Adam"} {
			if dev == "CL" && name != "Adam" {
				continue
			}
			t.Run(dev+"/"+name, func(t *testing.T) {
				onDevice(t, dev)
				bs := ds.Batches(100, 4)
				model := mlp(1)
				var opt Optimizer = NewSGD(model.Parameters(), SGDConfig{LR: 0.05, Momentum: 0.9})
				if name == "Adam" {
					opt = NewAdam(model.Parameters(), AdamConfig{})
				}
				step := tensor.JIT(trainStep(model, opt))
				for i := range 3 {
					step.Call(bs[i%len(bs)].X, bs[i%len(bs)].Y)
				}
				d := tensor.Device(dev)
				if err := d.Synchronize(); err != nil {
					t.Fatal(err)
				}
				i := 0
				allocs := testing.AllocsPerRun(50, func() {
					b := bs[i%len(bs)]
					i++
					step.Call(b.X, b.Y)
					if err := d.Synchronize(); err != nil {
						t.Fatal(err)
					}
				})
				if allocs > 0.5 {
					t.Fatalf("a replayed training step plus Synchronize allocates %.2f times per call, want 0", allocs)
				}
			})
		}
	}
}

func TestSetLRReachesReplays(t *testing.T) {
	ds := data.Spirals(32, 3, 0.2, 3)
	b := ds.Batches(32, 4)[0]
	model := mlp(2)
	opt := NewSGD(model.Parameters(), SGDConfig{LR: 0.1})
	step := tensor.JIT(trainStep(model, opt))
	for range 3 {
		step.Call(b.X, b.Y)
	}
	w := model.Parameters()[0]
	opt.SetLR(0)
	before := w.Float32s()
	step.Call(b.X, b.Y)
	if !slices.Equal(before, w.Float32s()) {
		t.Fatal("with the learning rate set to 0, a replay still changed the weights: the rate was frozen at capture")
	}
	opt.SetLR(0.1)
	step.Call(b.X, b.Y)
	if slices.Equal(before, w.Float32s()) || opt.LR() != 0.1 {
		t.Fatal("after SetLR(0.1) a replay did not change the weights")
	}
}
