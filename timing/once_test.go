package timing

import (
	"strings"
	"testing"
	"time"
)

func TestTimeOnce(t *testing.T) {
	w := newWorkload(2 * time.Millisecond)
	tg := w.target()
	call := tg.Call
	tg.Call = func(n int) error {
		w.p.Phases = map[string]time.Duration{PhaseCompile: w.p.Phases[PhaseCompile] + 500*time.Microsecond,
			PhaseDevice: w.p.Phases[PhaseDevice] + time.Millisecond, "custom": time.Microsecond}
		return call(n)
	}
	o, err := TimeOnce(tg, w.c, Provenance{})
	if err != nil {
		t.Fatal(err)
	}
	want := 2*time.Millisecond + w.syncCost + 20 // one call, one sync, one clock read
	if o.Wall != want {
		t.Errorf("wall %v, want %v", o.Wall, want)
	}
	if len(o.Phases) != 3 || o.Phases[0].Name != PhaseCompile || o.Phases[1].Name != PhaseDevice || o.Phases[2].Name != "custom" {
		t.Errorf("phases %+v: want compilation, device execution, then custom", o.Phases)
	}
	text := o.Text(3)
	for _, s := range []string{"CPU times: user", "Wall time: 2.00 ms", "compilation", "500 µs", "25.0%", "other"} {
		if !strings.Contains(text, s) {
			t.Errorf("Text lacks %q:\n%s", s, text)
		}
	}
	if _, err := TimeOnce(Target{}, nil, Provenance{}); err == nil {
		t.Error("TimeOnce without Call succeeded")
	}
}

// TestOnceTextOverlap checks that the %time table never adds nested or
// concurrent phases into the wall time, and never shows a share over 100%
// without a footnote saying why.
func TestOnceTextOverlap(t *testing.T) {
	us := time.Microsecond
	cases := []struct {
		name   string
		o      Once
		want   []string
		reject []string
	}{
		{"device and allocation are not added to the sum",
			Once{Wall: 100 * us, Phases: []PhaseTime{{PhaseSchedule, 20 * us}, {PhaseAlloc, 10 * us}, {PhaseLaunch, 30 * us}, {PhaseDevice, 60 * us}, {PhaseWait, 40 * us}}},
			// other = 100 - (20+30+40) = 10: allocation and device are not subtracted.
			[]string{"other", "10.0 µs", "  allocation ¹", "  device execution ²", "¹ allocation timed inside scheduling", "² device execution runs on the devices"},
			[]string{"*", "more than the wall time"}},
		{"launch over the wall time is footnoted",
			Once{Wall: 43500 * time.Nanosecond, Phases: []PhaseTime{{PhaseLaunch, 43800 * time.Nanosecond}, {PhaseDevice, 10 * us}}},
			[]string{"100.7%*", "* over 100% of the wall time", "sum to 43.8 µs, more than the wall time"},
			[]string{"\nother"}},
		{"custom phases are sequential",
			Once{Wall: 10 * us, Phases: []PhaseTime{{PhaseTransfer, 0}, {"custom", 4 * us}}},
			[]string{"custom", "40.0%", "other", "60.0%"},
			[]string{"¹", "*", "transfer"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.o.Text(3)
			for _, s := range c.want {
				if !strings.Contains(text, s) {
					t.Errorf("Text lacks %q:\n%s", s, text)
				}
			}
			for _, s := range c.reject {
				if strings.Contains(text, s) {
					t.Errorf("Text has %q:\n%s", s, text)
				}
			}
		})
	}
}

// Every line of %time's text fits TextWidth, whichever JIT call was timed.
func TestOnceTextWidth(t *testing.T) {
	for _, call := range []CallKind{CallOrdinary, CallCapture, CallReplay} {
		o := Once{Wall: time.Millisecond, JITCall: 123456, Call: call,
			Phases: []PhaseTime{{PhaseLaunch, 100 * time.Microsecond}, {PhaseDevice, 2 * time.Millisecond}}}
		for i, l := range strings.Split(o.Text(3), "\n") {
			if n := runes(l); n > TextWidth {
				t.Errorf("%s: line %d is %d characters wide (limit %d): %q", call, i+1, n, TextWidth, l)
			}
		}
	}
}
