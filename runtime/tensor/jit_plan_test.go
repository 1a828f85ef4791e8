package tensor

import (
	"strings"
	"testing"
)

// TestJITPlanOfATrainingStep: a capture of more than compactKernels
// kernels is drawn a node per kernel (readable), with the parameters
// labelled as state updated in place and each kernel's region.
func TestJITPlanOfATrainingStep(t *testing.T) {
	onDevice(t, "GO")
	w1 := RandSeed(1, 8, 6).Realize().RequiresGrad()
	w2 := RandSeed(2, 6, 3).Realize().RequiresGrad()
	b1 := RandSeed(4, 6).Realize().RequiresGrad()
	x := RandSeed(3, 4, 8).Realize()
	step := JIT(func(in ...*Tensor) *Tensor {
		w1.ZeroGrad()
		w2.ZeroGrad()
		b1.ZeroGrad()
		loss := in[0].Matmul(w1).Add(b1).Tanh().Matmul(w2).LogSoftmax(-1).Mean()
		loss.Backward()
		end := Region("backward")
		RealizeAll(w1.Grad(), w2.Grad(), b1.Grad())
		end()
		end = Region("optimizer")
		w1.Assign(w1.Detach().Sub(w1.Grad().Mul(0.1)))
		w2.Assign(w2.Detach().Sub(w2.Grad().Mul(0.1)))
		b1.Assign(b1.Detach().Sub(b1.Grad().Mul(0.1)))
		RealizeAll(w1, w2, b1)
		end()
		return loss
	})
	step.Call(x)
	step.Call(x)
	p := step.Plan()
	if len(p.Kernels) <= compactKernels {
		t.Fatalf("%d kernels: the test needs a capture larger than %d", len(p.Kernels), compactKernels)
	}
	perKernel := map[int]int{}
	states := 0
	for _, n := range p.Nodes {
		if n.Kernel >= 0 {
			perKernel[n.Kernel]++
		}
		if strings.Contains(n.Label, "state (updated in place)") {
			states++
		}
	}
	for ki := range p.Kernels {
		if perKernel[ki] != 1 {
			t.Fatalf("kernel %d is drawn with %d nodes, want 1 in a compact plan", ki, perKernel[ki])
		}
	}
	if states != 6 {
		t.Fatalf("%d buffers labelled as state updated in place, want w1, w2 and b1, each before and after its update", states)
	}
	// The drawing is acyclic: an update in place is a new node.
	seen := map[int]bool{}
	var visit func(id int, path map[int]bool)
	visit = func(id int, path map[int]bool) {
		if path[id] {
			t.Fatalf("node %d (%s) is on a cycle", id, p.Nodes[id].Label)
		}
		if seen[id] {
			return
		}
		seen[id], path[id] = true, true
		for _, s := range p.Nodes[id].Srcs {
			visit(s, path)
		}
		delete(path, id)
	}
	for id := range p.Nodes {
		visit(id, map[int]bool{})
	}
	regions := map[string]int{}
	for _, k := range p.Kernels {
		regions[k.Region]++
		if !strings.Contains(k.Reason, "("+k.Region+")") {
			t.Fatalf("kernel %s: reason %q does not name its region", k.Name, k.Reason)
		}
	}
	if regions["forward"] == 0 || regions["backward"] == 0 || regions["optimizer"] != 3 {
		t.Fatalf("kernels by region %v", regions)
	}
}
