package tensor

import (
	"strings"
	"testing"
)

// TestPlanFusesAndSplits: an elementwise chain is one kernel; its sum is a
// second (a reduce feeding an elementwise consumer ends a kernel); a
// transposed intermediate is materialized first. Planning computes
// nothing and leaves the tensor unrealized.
func TestPlanFusesAndSplits(t *testing.T) {
	onDevice(t, "GO")
	x := Arange(16).Reshape(4, 4).Realize()
	before := Counters()
	fused := x.Mul(2).Add(1).Exp()
	p := fused.Plan()
	if len(p.Kernels) != 1 {
		t.Fatalf("a chain of 3 elementwise ops: %d kernels, want 1: %+v", len(p.Kernels), p.Kernels)
	}
	ops := 0
	for _, n := range p.Nodes {
		if n.Kind == "op" {
			ops++
			if n.Kernel != 0 {
				t.Errorf("op %s is in kernel %d, want 0", n.Label, n.Kernel)
			}
		}
		if n.Kind == "buffer" && n.Kernel != -1 {
			t.Errorf("the realized input is in kernel %d", n.Kernel)
		}
	}
	if ops != 3 {
		t.Errorf("%d op nodes, want 3 (mul, add, exp)", ops)
	}
	if !strings.Contains(p.Kernels[0].Reason, "realize target") || p.Kernels[0].Source == "" || p.Kernels[0].IR == "" {
		t.Errorf("kernel %+v", p.Kernels[0])
	}

	norm := x.Sub(x.Sum(1).Div(4)) // a reduce read by an elementwise kernel
	p = norm.Plan()
	if len(p.Kernels) != 2 {
		t.Fatalf("x - mean(x): %d kernels, want 2", len(p.Kernels))
	}
	if !strings.Contains(p.Kernels[0].Reason, "reduce") {
		t.Errorf("first kernel's reason %q, want a reduce", p.Kernels[0].Reason)
	}

	tr := x.Add(1).Transpose(0, 1).Contiguous().Sum(0)
	p = tr.Plan()
	if len(p.Kernels) < 1 {
		t.Fatalf("no kernels")
	}
	after := Counters()
	if after.KernelsLaunched != before.KernelsLaunched || after.KernelsCompiled != before.KernelsCompiled || after.Buffers != before.Buffers {
		t.Errorf("planning launched %d, compiled %d kernels, allocated %d buffers",
			after.KernelsLaunched-before.KernelsLaunched, after.KernelsCompiled-before.KernelsCompiled, after.Buffers-before.Buffers)
	}
	if fused.l.kind == kBuffer || norm.l.kind == kBuffer {
		t.Error("planning realized the tensor")
	}
	// Planning changed nothing: the tensor still computes the right values.
	if got := fused.Float32s()[1]; got < 20.08 || got > 20.09 {
		t.Errorf("exp(1*2+1) = %v after planning", got)
	}
}

func TestPlanOfPaddedView(t *testing.T) {
	onDevice(t, "GO")
	x := Arange(8).Realize()
	y := x.Mul(2).Pad([][2]int{{1, 1}}).Add(1)
	p := y.Plan()
	var views []string
	for _, n := range p.Nodes {
		if n.Kind == "view" {
			views = append(views, n.Label)
		}
	}
	if len(views) == 0 || !strings.Contains(strings.Join(views, " "), "pad") {
		t.Errorf("views %q, want a pad", views)
	}
	if len(p.Kernels) != 2 || !strings.Contains(p.Kernels[0].Reason, "pad") {
		t.Errorf("x*2 padded then +1: %d kernels, first because %q; want 2, the first because of the pad", len(p.Kernels), p.Kernels[0].Reason)
	}
}

func TestJITPlan(t *testing.T) {
	onDevice(t, "GO")
	x := Arange(64).Realize()
	step := JIT(func(a ...*Tensor) *Tensor { return a[0].Mul(2).Realize().Add(1).Sum().Realize() })
	if p := step.Plan(); len(p.Kernels) != 0 || !strings.Contains(p.Title, "next: cold") {
		t.Errorf("before any call: %+v", p)
	}
	step.Call(x)
	step.Call(x)
	p := step.Plan()
	if len(p.Kernels) != 2 {
		t.Fatalf("%d captured kernels, want 2", len(p.Kernels))
	}
	labels := map[string]bool{}
	for _, n := range p.Nodes {
		labels[n.Label] = true
	}
	for _, want := range []string{"JIT input 0", "JIT output 0", "mul", "add", "sum over axes [0]"} {
		if !labels[want] {
			t.Errorf("no node %q in %v", want, labels)
		}
	}
}
