package timing

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestRoundUpAndPredictN(t *testing.T) {
	for _, c := range []struct{ in, want int }{
		{0, 1}, {1, 1}, {2, 2}, {3, 3}, {4, 5}, {6, 10}, {11, 20}, {21, 30}, {31, 50}, {51, 100}, {1200, 2000}, {999_999, 1_000_000},
	} {
		if got := RoundUp(c.in); got != c.want {
			t.Errorf("RoundUp(%d) = %d, want %d", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		n               int
		elapsed, target time.Duration
		want            int
	}{
		{1, 10 * time.Microsecond, 10 * time.Millisecond, 100},  // capped at 100× growth
		{100, time.Millisecond, 10 * time.Millisecond, 2000},    // 1.2 × 1000 = 1200 → 2000
		{1, 0, time.Millisecond, 100},                           // unmeasurable: grow 100×
		{10, 9 * time.Millisecond, 10 * time.Millisecond, 20},   // at least n+1, rounded
		{5, 100 * time.Millisecond, 10 * time.Millisecond, 10},  // never shrinks below n+1
		{MaxLoops / 10, time.Nanosecond, time.Second, MaxLoops}, // capped
	} {
		if got := PredictN(c.n, c.elapsed, c.target); got != c.want {
			t.Errorf("PredictN(%d, %v, %v) = %d, want %d", c.n, c.elapsed, c.target, got, c.want)
		}
	}
}

func TestSampleTarget(t *testing.T) {
	for _, c := range []struct {
		budget, res, sync, want time.Duration
	}{
		{2 * time.Second, time.Nanosecond, time.Microsecond, 20 * time.Millisecond}, // budget decides
		{10 * time.Millisecond, time.Microsecond, 0, time.Millisecond},              // resolution decides
		{10 * time.Millisecond, time.Nanosecond, time.Millisecond, 100 * time.Millisecond},
	} {
		if got := SampleTarget(c.budget, c.res, c.sync); got != c.want {
			t.Errorf("SampleTarget(%v, %v, %v) = %v, want %v", c.budget, c.res, c.sync, got, c.want)
		}
	}
}

// TestCalibrationPicksNAsDocumented checks the rule on a synthetic 10 µs
// statement: the chosen sample reaches the target, the one before did not,
// n is 1/2/3/5×10^k and grows at most 100× per round.
func TestCalibrationPicksNAsDocumented(t *testing.T) {
	for _, host := range []time.Duration{50 * time.Nanosecond, 10 * time.Microsecond, 3 * time.Millisecond} {
		w := newWorkload(host)
		r, err := Measure(context.Background(), w.target(), Options{Clock: w.c, Budget: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		target := SampleTarget(time.Second, r.Resolution, r.SyncCost)
		if r.SampleTarget != target {
			t.Errorf("host %v: SampleTarget %v, want %v", host, r.SampleTarget, target)
		}
		var cal []Sample
		for _, s := range r.Samples {
			if s.Phase == PhaseCalibrate {
				cal = append(cal, s)
			}
		}
		// The last two samples have the chosen n and reach the target (the
		// second confirms the first); none before them did.
		last, confirm := cal[len(cal)-1], cal[len(cal)-2]
		if last.N != r.Loops || last.Elapsed < target || confirm.N != r.Loops || confirm.Elapsed < target {
			t.Errorf("host %v: last calibration samples %d loops %v and %d loops %v, want %d loops ≥ %v",
				host, confirm.N, confirm.Elapsed, last.N, last.Elapsed, r.Loops, target)
		}
		for i := 1; i < len(cal)-1; i++ {
			if cal[i-1].Elapsed >= target {
				t.Errorf("host %v: calibration continued after a long enough sample", host)
			}
			if cal[i].N > 100*cal[i-1].N || RoundUp(cal[i].N) != cal[i].N {
				t.Errorf("host %v: n went %d → %d", host, cal[i-1].N, cal[i].N)
			}
		}
		want := float64(host + w.syncCost/time.Duration(r.Loops))
		if got := r.Stats.Median + r.Floor; math.Abs(got-want)/want > 0.01 {
			t.Errorf("host %v: median+floor %v ns, want %v", host, got, want)
		}
	}
}

func TestMeasurePhasesAndCounters(t *testing.T) {
	w := newWorkload(10 * time.Microsecond)
	w.jit, w.coldHost = true, 2*time.Millisecond
	var phases []CallPhase
	r, err := Measure(context.Background(), w.target(), Options{Clock: w.c, Budget: 500 * time.Millisecond,
		Progress: func(p Progress) {
			if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
				phases = append(phases, p.Phase)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := []CallPhase{PhaseCold, PhaseCapture, PhaseWarmup, PhaseCalibrate, PhaseMeasured}
	if strings.Join(phaseStrings(phases), ",") != strings.Join(phaseStrings(want), ",") {
		t.Errorf("progress phases %v, want %v", phases, want)
	}
	if r.Cold.Compiles != 3 || r.Captures != 1 || !r.Replaying || !r.JIT || r.Cold.Kind != CallOrdinary {
		t.Errorf("cold compiles %d (%s), captures %d, replaying %v, JIT %v; want 3 (ordinary), 1 (the first replay is not a capture), true, true",
			r.Cold.Compiles, r.Cold.Kind, r.Captures, r.Replaying, r.JIT)
	}
	if r.Counters == nil || r.Counters.Kernels != 3 || r.Counters.FLOPs != 1e6 {
		t.Fatalf("counters %+v, want 3 kernels and 1e6 FLOPs per loop", r.Counters)
	}
	if g := r.Counters.GFLOPS; math.Abs(g-1e6/r.Stats.Median) > 1e-9 {
		t.Errorf("GFLOP/s %v, want %v", g, 1e6/r.Stats.Median)
	}
	if r.Repeats < MinRepeats || r.Repeats != len(r.Measured()) {
		t.Errorf("repeats %d, measured %d", r.Repeats, len(r.Measured()))
	}
	if !r.Has(WarnColdDominates) {
		t.Errorf("2 ms cold call vs 10 µs warm call did not warn: %v", r.Warnings)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Samples) != len(r.Samples) || back.Stats != r.Stats {
		t.Errorf("JSON round trip lost samples or stats")
	}
	text := strings.Join(strings.Fields(r.Text(3)), " ") // lines wrap between words
	for _, s := range []string{"per loop (median ± 95% confidence interval", "cold 2.01 ms (JIT call 1, ordinary: 3 compiled, 0 from disk, 0 memory hits)",
		"capture 1 call 11.0 µs", "first replay 11.0 µs", "3.00 kernels", "warning: cold call"} {
		if !strings.Contains(text, s) {
			t.Errorf("Text lacks %q:\n%s", s, text)
		}
	}
}

func phaseStrings(ps []CallPhase) []string {
	var s []string
	for _, p := range ps {
		s = append(s, string(p))
	}
	return s
}

func TestMeasureErrors(t *testing.T) {
	w := newWorkload(time.Microsecond)
	tg := w.target()
	tg.Check = func() (bool, string, error) { return false, "", nil }
	_, err := Measure(context.Background(), tg, Options{Clock: w.c})
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Errorf("false check: err %v, want *CheckError", err)
	}

	w = newWorkload(time.Microsecond)
	w.jit = true
	tg = w.target()
	n := 0
	tg.Call = func(k int) error {
		n++
		if n > 30 { // the statement builds a new JIT every call: captures keep rising
			w.p.JITCaptures++
		}
		return w.call(k)
	}
	_, err = Measure(context.Background(), tg, Options{Clock: w.c, Loops: 10})
	var re *RecaptureError
	if !errors.As(err, &re) || re.Captures == 0 {
		t.Errorf("re-capture: err %v, want *RecaptureError", err)
	}

	boom := errors.New("boom")
	_, err = Measure(context.Background(), Target{Call: func(int) error { return boom }}, Options{Clock: w.c})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "cold call") {
		t.Errorf("failing call: err %v, want wrapped boom naming the cold call", err)
	}
	if _, err := Measure(context.Background(), Target{}, Options{}); !errors.Is(err, ErrNoCall) {
		t.Errorf("no Call: err %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w = newWorkload(time.Microsecond)
	if _, err := Measure(ctx, w.target(), Options{Clock: w.c}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
}

// TestMemoryIgnoresAnotherGoroutine: a goroutine that allocates beside the
// first memory batch (the code assistant type-checking an import did, in a
// new kernel) is not charged to a statement that allocates nothing: the
// heap's counts are the process's, so the smaller of two batches is kept.
func TestMemoryIgnoresAnotherGoroutine(t *testing.T) {
	w := newWorkload(10 * time.Microsecond)
	target := w.target()
	const loops = 50
	bursts := 0
	call := target.Call
	target.Call = func(n int) error {
		if n == loops && bursts == 0 { // the first batch at the sampled loops: the memory batch
			bursts++
			stop, done := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(done)
				var keep [][]byte
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					keep = append(keep[:i%64], make([]byte, 256))
				}
			}()
			time.Sleep(5 * time.Millisecond)
			close(stop)
			<-done
		}
		return call(n)
	}
	r, err := Measure(context.Background(), target, Options{Clock: w.c, Loops: loops, Repeats: MinRepeats})
	if err != nil {
		t.Fatal(err)
	}
	if bursts != 1 {
		t.Fatalf("the burst ran %d times", bursts)
	}
	if r.Memory.AllocsPerOp > 0.5 {
		t.Errorf("%.1f allocations per call charged to a statement that makes none (another goroutine's)", r.Memory.AllocsPerOp)
	}
}
