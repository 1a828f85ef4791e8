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
	o, err := TimeOnce(tg, w.c)
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
	if _, err := TimeOnce(Target{}, nil); err == nil {
		t.Error("TimeOnce without Call succeeded")
	}
}
