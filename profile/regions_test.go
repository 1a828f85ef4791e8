package profile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// TestRegionsOfATrainingStep: a JIT'd training step's kernels are
// attributed to forward, backward and optimizer — on the replays too,
// which schedule nothing — in the table, the text and the Chrome trace.
func TestRegionsOfATrainingStep(t *testing.T) {
	if err := tensor.SetDefaultDevice("GO"); err != nil {
		t.Fatal(err)
	}
	w := tensor.RandSeed(1, 8, 4).Realize().RequiresGrad()
	x := tensor.RandSeed(2, 16, 8).Realize()
	step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor {
		w.ZeroGrad()
		loss := a[0].Matmul(w).Tanh().Mean()
		loss.Backward()
		end := tensor.Region("backward")
		tensor.RealizeAll(w.Grad())
		end()
		end = tensor.Region("optimizer")
		w.Assign(w.Detach().Sub(w.Grad().Mul(0.1))).Realize()
		end()
		return loss
	})
	for range 2 {
		step.Call(x)
	}
	if err := tensor.SynchronizeAll(); err != nil { // the capture's kernels must not run into the profile
		t.Fatal(err)
	}
	if err := tensor.StartProfile(0); err != nil {
		t.Fatal(err)
	}
	for range 3 { // replays only
		step.Call(x)
	}
	if err := tensor.SynchronizeAll(); err != nil {
		t.Fatal(err)
	}
	p := FromRecording("step.Call(x)", tensor.StopProfile(), 0)
	check := func(what string, p *Profile) {
		t.Helper()
		rs := p.Regions()
		var names []string
		for _, r := range rs {
			names = append(names, r.Name)
			if r.Launches%3 != 0 || r.Launches == 0 {
				t.Errorf("%s: region %s has %d launches over 3 replays", what, r.Name, r.Launches)
			}
		}
		if strings.Join(names, " ") != "forward backward optimizer" {
			t.Fatalf("%s: regions %v, want forward backward optimizer", what, names)
		}
		for _, r := range p.KernelTable() {
			if r.Region == "" {
				t.Errorf("%s: kernel %s has no region", what, r.Name)
			}
		}
		txt := p.Text()
		if !strings.Contains(txt, "regions  forward") {
			t.Errorf("%s: text lacks the regions:\n%s", what, txt)
		}
	}
	check("recorded", p)
	var buf bytes.Buffer
	if err := p.WriteChromeTrace(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadChromeTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	check("read back from the Chrome trace", back)
}
