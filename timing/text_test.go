package timing

import (
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// stepClock is a synthetic clock: time moves only when the statement spends
// it, and every reading costs 20 ns.
type stepClock struct{ t time.Duration }

func (c *stepClock) Now() time.Duration { c.t += 20; return c.t }

// jitStep is a synthetic JIT'd statement on a synchronous device: call 1
// compiles one kernel (cold extra), call 2 captures, later calls replay;
// each call costs cost scaled by a seeded noise that is occasionally slow
// (every slowEvery-th call costs slowFactor × more: a skewed distribution).
type jitStep struct {
	c          *stepClock
	cost, cold time.Duration
	rng        *rand.Rand
	slowEvery  int
	slowFactor float64
	calls      int
	p          Probe
}

func newJITStep(cost time.Duration, seed uint64) *jitStep {
	return &jitStep{c: &stepClock{}, cost: cost, cold: 2 * time.Millisecond, rng: rand.New(rand.NewPCG(seed, 7))}
}

func (s *jitStep) target() Target {
	return Target{
		Call: func(n int) error {
			for range n {
				s.calls++
				d := float64(s.cost) * (0.97 + 0.06*s.rng.Float64())
				if s.slowEvery > 0 && s.calls%s.slowEvery == 0 {
					d *= s.slowFactor
				}
				switch s.calls {
				case 1:
					d += float64(s.cold)
					s.p.Compiles++
				case 2:
					s.p.JITCaptures++
				default:
					s.p.JITReplays++
				}
				s.p.Kernels++
				s.p.FLOPs += 512
				s.p.Bytes += 2048
				s.c.t += time.Duration(d)
			}
			return nil
		},
		Sync:  func() error { s.c.t += 150; return nil },
		Probe: func() Probe { return s.p },
	}
}

// measureGolden measures s with o on its clock and replaces everything that
// depends on the machine (heap activity, versions, CPU, date) with fixed
// values, so the text is the same on every run.
func measureGolden(t *testing.T, s *jitStep, label string, o Options) *Result {
	t.Helper()
	o.Clock, o.GC = s.c, GCKeep
	r, err := Measure(context.Background(), s.target(), o)
	if err != nil {
		t.Fatal(err)
	}
	r.Label = label
	r.Memory = Memory{BytesPerOp: 216, AllocsPerOp: 6}
	r.Provenance = Provenance{Device: "CPU", Backend: "C via /usr/bin/cc -O3 -march=native",
		Inputs: []string{"[256] float32 on CPU"}, CacheState: r.Provenance.CacheState,
		Env: map[string]string{"GOMAXPROCS": "2"}, GoVersion: "go1.26.8", Tick: "0.1.0", Commit: "abc1234",
		Yaegi: "v0.16.1", CPU: "Synthetic CPU @ 2.00GHz", CPUs: 2, Warmup: r.Warmups,
		Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)}
	r.Started, r.Finished = time.Time{}, time.Time{} // no wall-clock times in the golden text
	r.Warnings = Diagnose(r)
	return r
}

// checkText compares got with testdata/name, and checks that no line is
// wider than TextWidth.
func checkText(t *testing.T, name, got string) {
	t.Helper()
	for i, l := range strings.Split(got, "\n") {
		if n := runes(l); n > TextWidth {
			t.Errorf("%s line %d is %d characters wide (limit %d):\n%s", name, i+1, n, TextWidth, l)
		}
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./timing -run TestTextGolden -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test ./timing -run TestTextGolden -update, then read the diff):\n--- got\n%s--- want\n%s", name, got, want)
	}
}

// TestTextGolden pins the layout of the %timeit, %time and %compare blocks
// on a synthetic clock.
func TestTextGolden(t *testing.T) {
	base := measureGolden(t, newJITStep(time.Microsecond, 1), "y = step.Call(x)", Options{Loops: 20, Repeats: 60})
	checkText(t, "timeit.txt", base.Text(0))

	skew := newJITStep(time.Microsecond, 2)
	skew.slowEvery, skew.slowFactor = 3, 8
	r := measureGolden(t, skew, "y = skewed.Call(x)", Options{Loops: 1, Repeats: 40})
	if r.Stats.Symmetric() {
		t.Fatalf("the skewed statement's interval [%v, %v] around %v is symmetric", r.Stats.CILo, r.Stats.CIHi, r.Stats.Median)
	}
	checkText(t, "timeit-asymmetric.txt", r.Text(0))

	few := measureGolden(t, newJITStep(time.Microsecond, 3), "y = step.Call(x)", Options{Loops: 100, Repeats: 3})
	checkText(t, "timeit-few.txt", few.Text(0))

	fast := measureGolden(t, newJITStep(800*time.Nanosecond, 4), "y = fused.Call(x)", Options{Loops: 20, Repeats: 60})
	fast.Provenance.Inputs = []string{"[16 16] float32 on CPU"}
	checkText(t, "compare.txt", Compare(base, fast).Text(0))

	// %timeit --vs: interleaved rounds, the sign test.
	a, b := pairSeed(100*time.Microsecond, 115*time.Microsecond, 0.1, 0, 1)
	ra, rb, err := Interleave(context.Background(), a.target(), b.target(), Options{Clock: a.c, Budget: time.Second, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ra.Label, rb.Label = "timing.Spin(100 * time.Microsecond)", "timing.Spin(115 * time.Microsecond)"
	checkText(t, "compare-vs.txt", Compare(ra, rb).Text(0))

	us := time.Microsecond
	o := &Once{Wall: 1310 * us, User: 1200 * us, Phases: []PhaseTime{{PhaseGraph, 40 * us}, {PhaseSchedule, 120 * us},
		{PhaseCodegen, 60 * us}, {PhaseCompile, 500 * us}, {PhaseAlloc, 30 * us}, {PhaseLaunch, 90 * us},
		{PhaseDevice, 380 * us}, {PhaseWait, 300 * us}}}
	// %time's provenance as a real CPU device gives it: a compiler with its
	// version and flags makes the line three times TextWidth.
	o.Provenance = base.Provenance
	o.Provenance.Backend = "C via /usr/bin/cc (cc (Debian 12.2.0-14+deb12u1) 12.2.0) -O3 -march=native -fPIC -shared " +
		"-std=gnu11 -ffp-contract=off -fno-math-errno -fwrapv -fno-semantic-interposition"
	o.Provenance.Load = Load{Start: "0.52 0.40 0.31", End: "0.55 0.41 0.31"}
	checkText(t, "time.txt", o.Text(0))
}

// Long words and long rows wrap between words and items, never inside
// one, with continuation lines under the first item.
func TestWrap(t *testing.T) {
	items := []string{strings.Repeat("a", 50), strings.Repeat("b", 40), "c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c"}
	lines := joinWrapped(items, 60)
	want := []string{strings.Repeat("a", 50), strings.Repeat("b", 40), strings.TrimSpace(strings.Repeat("c ", 30)), strings.TrimSpace(strings.Repeat("c ", 17))}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("joinWrapped:\n%q\nwant\n%q", lines, want)
	}
	var b strings.Builder
	writeWrapped(&b, "  warning: ", strings.Repeat("word ", 30))
	for i, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if runes(l) > TextWidth || (i > 0 && !strings.HasPrefix(l, strings.Repeat(" ", 11)+"word")) {
			t.Errorf("line %d %q", i, l)
		}
	}
}

// flat is s with the layout taken out (line breaks, indentation and the
// " · " between items), for tests that look for a phrase in a text block.
func flat(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "·", " ")), " ")
}
