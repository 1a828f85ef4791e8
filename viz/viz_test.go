package viz

import (
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// The summary speaks the timing text's units (MFLOP, kB) and keeps every
// line within the width Notebook 6 shows, however long the kernel's
// reason or its list of fused ops.
func TestText(t *testing.T) {
	x := tensor.Rand(256, 256).Realize()
	w := tensor.Rand(256, 256).Realize()
	p := x.Matmul(w).Relu().Mul(0.5).Plan()
	p.Title = "x.Matmul(w).Relu().Mul(0.5): " + p.Title
	text := Text(p)
	for _, want := range []string{": 2 kernels\n", "  kernel 1  R_256_256_r256 on CPU, shape [256 256 256]\n", "fuses: ", "why a kernel: a reduce",
		"estimated 33.6 MFLOP, 786 kB per launch"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	for i, l := range strings.Split(text, "\n") {
		if n := len([]rune(l)); n > textWidth {
			t.Errorf("line %d is %d characters wide (limit %d): %q", i+1, n, textWidth, l)
		}
	}
}
