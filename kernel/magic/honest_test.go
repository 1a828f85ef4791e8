package magic_test

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

// Through a real session, the ways a measurement could teach something
// false (issue 10), one test per problem.

const stepSetup = `import (
	"time"
	"tick/runtime/tensor"
	"tick/timing"
)
x := tensor.Ones(256).Realize()
step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
var y, z *tensor.Tensor
var _ = time.Second
var _ = timing.Spin`

// 1. A JIT whose replays compute something else than its ordinary call
// (its function reads a Go value that the statement changes: the replay
// keeps the value of the capture) is refused by --check, which names the
// replay and the values it saw.
func TestCheckRefusesAWrongReplay(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, stepSetup+`
s := 0
frozen := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Add(float32(s)).Realize() })`)
	res, k := run(t, s, 2, `%timeit -n 10 -r 7 --check 'y.Float32s()[0] == float32(s+1)' s++; y = frozen.Call(x)`)
	if res.Err == nil {
		t.Fatalf("the wrong replays were timed:\n%s", final(t, k).Bundle["text/plain"])
	}
	for _, want := range []string{"--check is false after the first replay, before sampling (a replay of the JIT)",
		"y.Float32s()[0] is 3, float32(s+1) is 4", "frozen at the capture"} {
		if !strings.Contains(res.Err.Value, want) {
			t.Errorf("error lacks %q:\n%s", want, res.Err.Value)
		}
	}
	if k.Visible() != 0 {
		t.Error("a refused measurement showed a result")
	}
}

// 1. The statement given to --vs is checked too; a shared check that
// cannot see the --vs statement's result is refused before anything runs.
func TestVsStatementIsChecked(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, stepSetup+`
wrong := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(3).Add(1).Realize() })
calls := 0`)
	res, _ := run(t, s, 2, `%timeit -n 10 -r 7 --check 'y.Float32s()[0] == 3' --vs 'y = wrong.Call(x)' y = step.Call(x)`)
	if res.Err == nil || !strings.Contains(res.Err.Value, "statement y = wrong.Call(x): --check is false after the cold call") ||
		!strings.Contains(res.Err.Value, "y.Float32s()[0] is 4") {
		t.Errorf("a wrong --vs statement: %v", res.Err)
	}
	for code, want := range map[string]string{
		`%timeit --check 'y.Float32s()[0] == 3' --vs 'z = wrong.Call(x)' y = step.Call(x)`:                                              "the --vs statement assigns only z",
		`%timeit --check 'w.Float32s()[0] == 3' w := step.Call(x)`:                                                                      "which the statement declares with :=",
		`%timeit --vs-check 'z.Float32s()[0] == 3' y = step.Call(x)`:                                                                    "give --vs 'OTHER' too",
		`%timeit -n 10 -r 7 --check 'y.Float32s()[0] == 3' --vs 'z = wrong.Call(x)' --vs-check 'z.Float32s()[0] == 3' y = step.Call(x)`: "z.Float32s()[0] is 4",
	} {
		res, _ := run(t, s, 3, code)
		if res.Err == nil || !strings.Contains(res.Err.Value, want) {
			t.Errorf("%s: err %v, want %q", code, res.Err, want)
		}
	}
	if v, _ := s.Eval("calls"); v.Int() != 0 {
		t.Error("a refused check ran something")
	}
}

// 3. After --sync=none the next cell starts with an empty queue; the drain
// is reported and no throughput is claimed.
func TestSyncNoneLeavesNothingQueued(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, stepSetup+`
dev := tensor.Device("GO")`)
	k := mustRun(t, s, 2, `%timeit -T 300ms --sync=none --plot=none -v r dev.Spin(20*time.Microsecond)`)
	text := final(t, k).Bundle["text/plain"].(string)
	v, err := s.Eval("dev.Pending()")
	if err != nil || v.Int() != 0 {
		t.Errorf("after --sync=none, %v items are still queued (%v)", v, err)
	}
	for _, want := range []string{"drain after the samples' calls returned the device needed", "no FLOP/s or B/s: --sync=none", "warning: --sync=none left a backlog"} {
		if !strings.Contains(flat(text), want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// 4. Provenance records the device that ran (NULL is NULL, with no
// throughput), every tensor read, and the DEBUG level however it was set;
// %compare names the DEBUG difference and says the results were not
// interleaved.
func TestProvenanceThroughSession(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, stepSetup+`
tensor.SetDefaultDevice("NULL")
xn := tensor.Ones(64).Realize()
stepN := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
tensor.SetDefaultDevice("GO")
xg := tensor.Ones(3, 5).Realize()
var yn, yg *tensor.Tensor`)
	mustRun(t, s, 2, `%timeit -q -n 10 -r 7 -v onNull yn = stepN.Call(xn)`)
	mustRun(t, s, 3, `%timeit -q -n 10 -r 7 -v eager yg = xg.Mul(xg).Sum(1).Realize()`)
	var buf bytes.Buffer
	tensor.SetDebugWriter(&buf)
	t.Cleanup(func() { tensor.SetDebug(0); tensor.SetDebugWriter(nil) })
	mustRun(t, s, 4, `tensor.SetDebug(2)`)
	mustRun(t, s, 5, `%timeit -q -n 100 -r 7 -v traced y = step.Call(x)`)
	mustRun(t, s, 6, `tensor.SetDebug(0)`)
	mustRun(t, s, 7, `%timeit -q -n 100 -r 7 -v quiet y = step.Call(x)`)

	p := evalResult(t, s, "onNull").Provenance
	if p.Device != "NULL" || len(p.Devices) != 1 || p.Devices[0].Computes || !strings.Contains(p.Line(), "device NULL") {
		t.Errorf("NULL recorded as %q (%+v)", p.Device, p.Devices)
	}
	if r := evalResult(t, s, "onNull"); r.Counters == nil || r.Counters.GFLOPS != 0 || !r.Has(timing.WarnNoCompute) {
		t.Errorf("NULL credited with throughput: %+v", r.Counters)
	}
	if in := evalResult(t, s, "eager").Provenance.Inputs; len(in) != 1 || in[0] != "[3 5] float32 on GO" {
		t.Errorf("the eager statement's reads: %q", in)
	}
	if d := evalResult(t, s, "traced").Provenance.Debug; d != 2 {
		t.Errorf("DEBUG set with SetDebug(2) recorded as %d", d)
	}
	if n := strings.Count(buf.String(), "\n"); n > 10 || !strings.Contains(buf.String(), "DEBUG=2 during %timeit") {
		t.Errorf("DEBUG=2 inside %%timeit wrote %d lines, want a short summary:\n%.2000s", n, buf.String())
	}
	k := mustRun(t, s, 8, `%compare --plot=none quiet traced`)
	text := final(t, k).Bundle["text/plain"].(string)
	for _, want := range []string{`DEBUG (effective) "0" vs "2"`, "measured one after the other, not interleaved", "%timeit --vs"} {
		if !strings.Contains(text, want) {
			t.Errorf("%%compare lacks %q:\n%s", want, text)
		}
	}
}

// 6. JIT phase labels whatever the JIT's state when %timeit starts; the
// capture's time is in the text; %time names the call it timed.
func TestJITPhasesThroughSession(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, stepSetup)
	for i, c := range []struct {
		before int
		kind   timing.CallKind
		phrase string
	}{
		{0, timing.CallOrdinary, "(JIT call 1, ordinary"},
		{1, timing.CallCapture, "(JIT call 2, capture: 0 compiled, 0 from disk, 1 memory hit) · capture: the cold call · first replay"},
		{2, timing.CallReplay, "(JIT call 3, replay) · warm-up"},
		{5, timing.CallReplay, "(JIT call 6, replay) · warm-up"},
	} {
		name := fmt.Sprintf("j%d", c.before)
		mustRun(t, s, 10*i+2, fmt.Sprintf(`%s := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Add(%d).Realize() })
for i := 0; i < %d; i++ { %s.Call(x) }`, name, i+7, c.before, name))
		k := mustRun(t, s, 10*i+3, fmt.Sprintf(`%%timeit -n 10 -r 7 --plot=none -v r%s y = %s.Call(x)`, name, name))
		text := final(t, k).Bundle["text/plain"].(string)
		r := evalResult(t, s, "r"+name)
		if r.Cold.Kind != c.kind || r.Cold.JITCall != c.before+1 || !strings.Contains(flat(text), flat(c.phrase)) {
			t.Errorf("called %d times before: cold %s (call %d); text lacks %q:\n%s", c.before, r.Cold.Kind, r.Cold.JITCall, c.phrase, text)
		}
		if c.before == 0 && !strings.Contains(text, "capture 1 call ") {
			t.Errorf("fresh JIT: the capture's time is not in the text:\n%s", text)
		}
		if (c.before > 0) != r.Has(timing.WarnJITWarmBefore) {
			t.Errorf("called %d times before: jit-called-before warning %v", c.before, r.Has(timing.WarnJITWarmBefore))
		}
	}
	mustRun(t, s, 50, `fresh := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Add(100).Realize() })`)
	for i, want := range []string{"Timed call: JIT call 1, its first call", "Timed call: JIT call 2, the capture", "Timed call: JIT call 3, a replay"} {
		k := mustRun(t, s, 51+i, `%time --plot=none y = fresh.Call(x)`)
		if text := final(t, k).Bundle["text/plain"].(string); !strings.Contains(text, want) || !strings.Contains(text, "prov: device ") {
			t.Errorf("%%time #%d lacks %q:\n%s", i+1, want, text)
		}
	}
}

func evalResult(t *testing.T, s interface {
	Eval(string) (reflect.Value, error)
}, name string) *timing.Result {
	t.Helper()
	v, err := s.Eval(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r, ok := v.Interface().(*timing.Result)
	if !ok {
		t.Fatalf("%s is a %s", name, v.Type())
	}
	return r
}

// flat is s with the layout taken out (line breaks, indentation and the
// " · " between items), for tests that look for a phrase in a text block.
func flat(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "·", " ")), " ")
}
