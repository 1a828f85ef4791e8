package magic_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestOneWordPerPhase: the JIT's compiling first call is "cold" and only
// the calls %timeit runs before sampling are "warm-up", in %time,
// %timeit, %prof, the JIT's state and the profile's counters: no output
// calls the first call a warm-up, and %timeit's warm-up is never the cold
// call.
func TestOneWordPerPhase(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, `import "tick/runtime/tensor"
x := tensor.Ones(256).Realize()
fresh := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(3).Realize() })
step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
next := fresh.State().Phase
var y *tensor.Tensor`)
	if v, err := s.Eval("next"); err != nil || v.String() != "cold" {
		t.Errorf("a new JIT's next call is %v (%v), want cold", v, err)
	}
	texts := map[string]string{}
	for i, c := range []struct{ name, cell string }{
		{"%time", "%time y = fresh.Call(x)"},
		{"%timeit", "%timeit -r 7 y = step.Call(x)"},
		{"%prof", "%prof -n 4 y = step.Call(x)"},
	} {
		k := mustRun(t, s, 2+i, c.cell)
		var b strings.Builder
		for _, d := range k.Published() {
			if s, ok := d.Bundle["text/plain"].(string); ok {
				b.WriteString(s)
			}
		}
		texts[c.name] = strings.Join(strings.Fields(b.String()), " ")
	}
	firstAsWarmup := regexp.MustCompile(`(?i)warm-up[^·\n]{0,40}(JIT call 1\b|call 1\b|compil)|(call 1|first call)[^·\n]{0,20}warm-up|\d+ warm-up · \d+ capture`)
	for name, text := range texts {
		if m := firstAsWarmup.FindString(text); m != "" {
			t.Errorf("%s calls the first call a warm-up (%q):\n%s", name, m, text)
		}
	}
	if !strings.Contains(texts["%timeit"], "cold ") || !regexp.MustCompile(`warm-up \d+ calls?`).MatchString(texts["%timeit"]) {
		t.Errorf("%%timeit lacks its cold call or its warm-up calls:\n%s", texts["%timeit"])
	}
	if !strings.Contains(texts["%prof"], "capture") || !regexp.MustCompile(`\d+ cold · \d+ capture · \d+ replay calls`).MatchString(texts["%prof"]) {
		t.Errorf("%%prof's JIT line does not name the cold call:\n%s", texts["%prof"])
	}
}
