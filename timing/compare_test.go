package timing

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMannWhitneyKnown(t *testing.T) {
	// Fully separated samples of 5: the exact two-sided p is 2/C(10,5).
	p, u := MannWhitney([]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10})
	if !near(p, 2.0/252) || u != 0 {
		t.Errorf("separated 5+5: p=%v U=%v, want %v, 0", p, u, 2.0/252)
	}
	// Identical samples: no evidence of a difference.
	if p, _ := MannWhitney([]float64{1, 1, 1}, []float64{1, 1, 1}); p != 1 {
		t.Errorf("identical samples: p=%v, want 1", p)
	}
	// Interleaved 1..6 vs 7..12 shifted by ½ rank: U=n1·n2/2 gives p=1.
	if p, u := MannWhitney([]float64{1, 4, 5, 8}, []float64{2, 3, 6, 7}); u != 8 || p != 1 {
		t.Errorf("balanced: p=%v U=%v, want 1, 8", p, u)
	}
	// Large separated samples (normal approximation): tiny p.
	var a, b []float64
	for i := range 100 {
		a = append(a, float64(i))
		b = append(b, float64(i+100))
	}
	if p, _ := MannWhitney(a, b); p > 1e-20 {
		t.Errorf("separated 100+100: p=%v", p)
	}
	// Exact and normal approximation agree roughly at the boundary (25+25,
	// random data): the approximation is within 0.02 of the exact p.
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		var x, y []float64
		for range 25 {
			x = append(x, rng.Float64())
			y = append(y, rng.Float64()+0.2)
		}
		pe, u := MannWhitney(x, y)
		z := (math.Abs(u-312.5) - 0.5) / math.Sqrt(25*25*51/12.0)
		pn := math.Erfc(z / math.Sqrt2)
		if math.Abs(pe-pn) > 0.02 {
			t.Errorf("exact p %v vs normal %v (U=%v)", pe, pn, u)
		}
	}
}

// pair returns two workloads on one synthetic clock.
func pair(hostA, hostB time.Duration, noise, drift float64) (*workload, *workload) {
	return pairSeed(hostA, hostB, noise, drift, 8)
}

func pairSeed(hostA, hostB time.Duration, noise, drift float64, seed uint64) (*workload, *workload) {
	c := &fakeClock{res: 1, read: 20}
	rng := rand.New(rand.NewPCG(7, seed))
	mk := func(h time.Duration) *workload {
		w := newWorkload(h)
		w.c, w.noise, w.drift, w.rng = c, noise, drift, rng
		return w
	}
	return mk(hostA), mk(hostB)
}

// TestInterleaveDetectsTenPercent: over 40 runs with ±5% noise per sample,
// a 10% difference is found every time, and its interval misses the true
// ratio at most 4 times; equal statements are called different at most 4
// times (the 5% the interval's level allows, with room for chance: 2
// expected).
func TestInterleaveDetectsTenPercent(t *testing.T) {
	for _, c := range []struct {
		name  string
		hostB time.Duration
		delta float64 // 0: want "~"
	}{
		{"10% slower", 11 * time.Microsecond, 0.10},
		{"equal", 10 * time.Microsecond, 0},
	} {
		wrong := 0
		for seed := range uint64(40) {
			a, b := pairSeed(10*time.Microsecond, c.hostB, 0.05, 0, seed)
			ra, rb, err := Interleave(context.Background(), a.target(), b.target(), Options{Clock: a.c, Budget: time.Second, Seed: seed + 1})
			if err != nil {
				t.Fatal(err)
			}
			ra.Label, rb.Label = "a", "b"
			cmp := Compare(ra, rb)
			row := cmp.Rows[1]
			switch {
			case c.delta == 0 && row.DeltaText != "~":
				wrong++
			case c.delta != 0 && row.Verdict != VerdictSlower:
				t.Errorf("%s, seed %d: delta %q (p=%v), want %v\n%s", c.name, seed, row.DeltaText, row.P, c.delta, cmp.Text(3))
			case c.delta != 0 && !(row.RatioLo <= 1+c.delta && 1+c.delta <= row.RatioHi):
				wrong++
			}
			if !strings.Contains(cmp.Text(3), row.DeltaText) {
				t.Errorf("%s: table lacks the delta:\n%s", c.name, cmp.Text(3))
			}
			if len(cmp.Warnings) != 0 {
				t.Errorf("%s: same provenance warned: %v", c.name, cmp.Warnings)
			}
		}
		if wrong > 4 {
			t.Errorf("%s: %d of 40 runs called equal statements different, or missed the true ratio", c.name, wrong)
		}
	}
}

// TestInterleaveCancelsDrift: two equal statements on a machine that slows
// down steadily. Measured one after the other the U test finds them
// different, but the difference is within the drift allowance: Compare
// shows "~" and says the results were not interleaved. Interleaved they do
// not differ at all.
func TestInterleaveCancelsDrift(t *testing.T) {
	o := func(c Clock) Options { return Options{Clock: c, Budget: time.Second, Seed: 1} }
	a, b := pair(10*time.Microsecond, 10*time.Microsecond, 0.02, 0.2)
	ra, err := Measure(context.Background(), a.target(), o(a.c))
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Measure(context.Background(), b.target(), o(a.c))
	if err != nil {
		t.Fatal(err)
	}
	seqCmp := Compare(ra, rb)
	seq := seqCmp.Rows[1]
	if seq.P > CompareAlpha || seqCmp.Interleaved || seqCmp.DriftAllowance <= DriftFloor {
		t.Fatalf("sequential runs under drift: want p ≤ %v, not interleaved, an allowance above the floor from the drift within the runs; got %+v (allowance %.3f)",
			CompareAlpha, seq, seqCmp.DriftAllowance)
	}
	if seq.WithinDrift != (math.Abs(seq.Delta) < seqCmp.DriftAllowance) || seq.WithinDrift != (seq.DeltaText == "~") {
		t.Errorf("sequential: delta %.3f, allowance %.3f, within drift %v, shown %q: inconsistent", seq.Delta, seqCmp.DriftAllowance, seq.WithinDrift, seq.DeltaText)
	}
	if w := kinds(seqCmp.Warnings); !slices.Contains(w, WarnNotInterleaved) {
		t.Errorf("sequential comparison warnings %v lack %s", w, WarnNotInterleaved)
	}
	a, b = pair(10*time.Microsecond, 10*time.Microsecond, 0.02, 0.2)
	ra, rb, err = Interleave(context.Background(), a.target(), b.target(), o(a.c))
	if err != nil {
		t.Fatal(err)
	}
	ilCmp := Compare(ra, rb)
	if il := ilCmp.Rows[1]; il.DeltaText != "~" || il.WithinDrift || !ilCmp.Interleaved {
		t.Errorf("interleaved equal statements under drift: delta %q p=%v within drift %v, want ~", il.DeltaText, il.P, il.WithinDrift)
	}
	if w := kinds(ilCmp.Warnings); len(w) != 0 {
		t.Errorf("interleaved comparison warned: %v", w)
	}
}

// TestDriftAllowance: results measured one after the other, 4% apart
// with no drift inside either run, are "~" (under the 5% floor of the
// allowance) even though the U test finds them different; 8% apart they
// differ. Interleaved, 4% is a difference.
func TestDriftAllowance(t *testing.T) {
	mk := func(ns float64, group string) *Result {
		r := &Result{Group: group}
		for i := range 40 {
			r.Samples = append(r.Samples, Sample{Phase: PhaseMeasured, N: 1, Elapsed: time.Duration(ns + float64(i%5))})
		}
		r.Repeats = 40
		r.Stats = Summarize(r.Measured(), DefaultConfidence)
		return r
	}
	for _, c := range []struct {
		b      float64
		group  string
		within bool
		text   string
	}{
		{1040, "", true, "~"},
		{1080, "", false, "+8.0%"},
		{1040, "g", false, "+4.0%"},
	} {
		a, b := mk(1000, c.group), mk(c.b, c.group)
		cmp := Compare(a, b)
		row := cmp.Rows[1]
		if row.P > CompareAlpha || row.WithinDrift != c.within || row.DeltaText != c.text {
			t.Errorf("%v vs 1000 (group %q): p %v, within drift %v, shown %q; want within %v, %q (allowance %.3f)",
				c.b, c.group, row.P, row.WithinDrift, row.DeltaText, c.within, c.text, cmp.DriftAllowance)
		}
		if hasKind(cmp.Warnings, WarnNotInterleaved) == (c.group != "") {
			t.Errorf("group %q: not-interleaved warning %v", c.group, kinds(cmp.Warnings))
		}
	}
}

func kinds(ws []Warning) []WarningKind {
	var out []WarningKind
	for _, w := range ws {
		out = append(out, w.Kind)
	}
	return out
}

func warningOf(ws []Warning, k WarningKind) (Warning, bool) {
	for _, w := range ws {
		if w.Kind == k {
			return w, true
		}
	}
	return Warning{}, false
}

func TestCompareWarnsOnProvenance(t *testing.T) {
	a, b := pair(10*time.Microsecond, 10*time.Microsecond, 0.01, 0)
	oa := Options{Clock: a.c, Budget: 200 * time.Millisecond, Provenance: Provenance{Device: "CPU", Inputs: []string{"float32[256]"}}}
	ob := oa
	ob.Provenance = Provenance{Device: "GO", Inputs: []string{"float32[256]"}}
	ta, tb := a.target(), b.target()
	ta.Record, tb.Record = nil, nil // the provenance is the caller's
	ra, _ := Measure(context.Background(), ta, oa)
	rb, _ := Measure(context.Background(), tb, ob)
	cmp := Compare(ra, rb)
	if w, ok := warningOf(cmp.Warnings, WarnProvenance); !ok || !strings.Contains(w.Message, `device "CPU" vs "GO"`) || strings.Contains(w.Message, "inputs") {
		t.Errorf("warnings %v", cmp.Warnings)
	}
	// The same tensors read in another order are the same inputs; other
	// tensors are not.
	ra.Provenance, rb.Provenance = Provenance{Inputs: []string{"[2] float32", "[3] int32"}}, Provenance{Inputs: []string{"[3] int32", "[2] float32"}}
	if w, ok := warningOf(Compare(ra, rb).Warnings, WarnProvenance); ok {
		t.Errorf("inputs in another order: %s", w.Message)
	}
	rb.Provenance.Inputs = []string{"[3] int32", "[4] float32"}
	if w, ok := warningOf(Compare(ra, rb).Warnings, WarnProvenance); !ok || !strings.Contains(w.Message, "inputs") {
		t.Errorf("other inputs: %v", w)
	}
	// A statement that reads no tensor (compiled Go on a slice) is not
	// measured under other conditions for that.
	rb.Provenance.Inputs = nil
	if w, ok := warningOf(Compare(ra, rb).Warnings, WarnProvenance); ok {
		t.Errorf("one statement reads no tensor: %s", w.Message)
	}
}

// TestCompareTooFewSamples: with three samples each, even fully separated
// results give no interval that could exclude 1, so Compare cannot tell
// ("?") and says why, and each result explains its missing interval with
// benchmath's sample count.
func TestCompareTooFewSamples(t *testing.T) {
	a, b := pair(10*time.Microsecond, 20*time.Microsecond, 0.01, 0)
	ra, err := Measure(context.Background(), a.target(), Options{Clock: a.c, Repeats: 3})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Measure(context.Background(), b.target(), Options{Clock: b.c, Repeats: 3})
	if err != nil {
		t.Fatal(err)
	}
	cmp := Compare(ra, rb)
	row := cmp.Rows[1]
	if row.DeltaText != "?" || row.Verdict != VerdictCannotTell {
		t.Errorf("3+3 separated: delta %q verdict %q, want ? and cannot tell", row.DeltaText, row.Verdict)
	}
	if w, ok := warningOf(cmp.Warnings, WarnTooFewToCompare); !ok || !strings.Contains(w.Message, "3 and 3 samples are too few") {
		t.Errorf("warnings %v, want one %s naming 3 and 3 samples", cmp.Warnings, WarnTooFewToCompare)
	}
	var msg string
	for _, w := range ra.Warnings {
		if w.Kind == WarnTooFewSamples {
			msg = w.Message
		}
	}
	if !strings.Contains(msg, "need >= 6 samples") {
		t.Errorf("too-few-samples warning %q lacks the needed count", msg)
	}
}

// TestMannWhitneyDegenerate: identical times give p = 1 (Compare shows "~"
// and, skipping benchmath's all-equal error, no warning); empty gives p = 1.
func TestMannWhitneyDegenerate(t *testing.T) {
	if p, u := MannWhitney([]float64{5, 5, 5, 5}, []float64{5, 5, 5, 5, 5}); p != 1 || u != 10 {
		t.Errorf("all equal: p=%v U=%v, want 1, 10", p, u)
	}
	if p, u := MannWhitney(nil, []float64{1}); p != 1 || u != 0 {
		t.Errorf("empty: p=%v U=%v, want 1, 0", p, u)
	}
}

// TestInterleaveCountersPerStatement: two statements on one runtime share
// its cumulative counters (one probe). Interleaved, each statement's
// per-loop counters must come from its own samples only: one kernel per
// call for a, two for b, as when each is measured alone.
func TestInterleaveCountersPerStatement(t *testing.T) {
	cases := []struct {
		name               string
		kernelsA, kernelsB int64
		hostA, hostB       time.Duration
	}{
		{"one kernel each", 1, 1, 10 * time.Microsecond, 10 * time.Microsecond},
		{"one and two kernels", 1, 2, 10 * time.Microsecond, 30 * time.Microsecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := pair(c.hostA, c.hostB, 0.02, 0)
			a.kernels, b.kernels = c.kernelsA, c.kernelsB
			// The runtime's counters: whatever either statement launched.
			shared := func() Probe {
				pa, pb := a.probe(), b.probe()
				return Probe{Kernels: pa.Kernels + pb.Kernels, FLOPs: pa.FLOPs + pb.FLOPs, Bytes: pa.Bytes + pb.Bytes}
			}
			ta, tb := a.target(), b.target()
			ta.Probe, tb.Probe = shared, shared
			ra, rb, err := Interleave(context.Background(), ta, tb, Options{Clock: a.c, Budget: 200 * time.Millisecond, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range []struct {
				name string
				r    *Result
				want int64
			}{{"a", ra, c.kernelsA}, {"b", rb, c.kernelsB}} {
				if x.r.Counters == nil {
					t.Fatalf("%s: no counters", x.name)
				}
				if got := x.r.Counters.Kernels; got != float64(x.want) {
					t.Errorf("%s: %v kernels per loop, want %d (its own samples only)", x.name, got, x.want)
				}
				if got := x.r.Counters.FLOPs; got != 1e6 {
					t.Errorf("%s: %v FLOPs per loop, want 1e6", x.name, got)
				}
			}
		})
	}
}

// TestShiftedLoadNeedsStrongerEvidence: an interleaved comparison whose
// rounds show the machine's speed doubling halfway (a load shift of 100%)
// claims a difference only at p < ShiftedAlpha: 28 rounds of 40 above 1
// (sign test p ≈ 0.017, an interval excluding 1) read "cannot tell: the
// load changed", the same rounds on a steady machine read slower, and 34
// of 40 (p < 0.001) read slower under the shift too.
func TestShiftedLoadNeedsStrongerEvidence(t *testing.T) {
	mk := func(above int, shift bool) (*Result, *Result) {
		a, b := &Result{Group: "g"}, &Result{Group: "g"}
		for i := range 40 {
			level := 1000.0
			if shift && i >= 20 {
				level = 2000
			}
			ratio := 0.95
			if i%20 < above/2 { // above/2 rounds above 1 in each half
				ratio = 1.05
			}
			a.Samples = append(a.Samples, Sample{Phase: PhaseMeasured, N: 1, Elapsed: time.Duration(level)})
			b.Samples = append(b.Samples, Sample{Phase: PhaseMeasured, N: 1, Elapsed: time.Duration(level * ratio)})
		}
		for _, r := range []*Result{a, b} {
			r.Repeats = 40
			r.Stats = Summarize(r.Measured(), DefaultConfidence)
		}
		return a, b
	}
	for _, c := range []struct {
		above int
		shift bool
		want  Verdict
	}{
		{28, true, VerdictCannotTell},
		{28, false, VerdictSlower},
		{34, true, VerdictSlower},
	} {
		row := Compare(mk(c.above, c.shift)).Rows[1]
		if row.Verdict != c.want {
			t.Errorf("%d of 40 rounds above 1, load shift %v (%.2f): verdict %v (p=%.3f, interval [%.3f, %.3f]: %s), want %v",
				c.above, c.shift, row.LoadShift, row.Verdict, row.P, row.RatioLo, row.RatioHi, row.Why, c.want)
		}
		if c.want == VerdictCannotTell && !strings.Contains(row.Why, "the load changed during the comparison") {
			t.Errorf("the reason does not say the load changed: %q", row.Why)
		}
	}
}
