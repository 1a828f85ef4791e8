package timing

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Interleave measures a and b together: each goes through its own cold,
// capture, warm-up and calibration phases, then sampling proceeds in
// rounds, one sample of each statement per round, back to back in an order
// drawn at random for every round, until the shared budget is spent: slow
// drift of the machine (thermal, frequency, background load) affects both
// alike, and no statement is always the one that runs first after the
// other (a fixed order would give one of them the other's leftovers:
// caches, the collector's debt, a CPU the scheduler just handed back).
//
// Each statement's --check runs on its own calls: a false check in either
// stops the measurement with the *CheckError wrapped in the statement's
// name (Target.Label, or "first statement" / "second statement").
func Interleave(ctx context.Context, a, b Target, o Options) (*Result, *Result, error) {
	name := func(t Target, i int) string {
		if t.Label != "" {
			return "statement " + t.Label
		}
		return [...]string{"first statement", "second statement"}[i]
	}
	ra, err := newRunner(a, o)
	if err != nil {
		return nil, nil, wrapf(err, "%s", name(a, 0))
	}
	defer ra.settle()
	rb, err := newRunner(b, o)
	if err != nil {
		return nil, nil, wrapf(err, "%s", name(b, 1))
	}
	defer rb.settle()
	if err := ra.prepareCalls(ctx); err != nil {
		return nil, nil, wrapf(err, "%s", name(a, 0))
	}
	if err := rb.prepareCalls(ctx); err != nil {
		return nil, nil, wrapf(err, "%s", name(b, 1))
	}
	sameLoops(ra, rb)
	if err := ra.prepareSampling(ctx); err != nil {
		return nil, nil, wrapf(err, "%s", name(a, 0))
	}
	if err := rb.prepareSampling(ctx); err != nil {
		return nil, nil, wrapf(err, "%s", name(b, 1))
	}
	restore := ra.o.gcOff()
	ra.begin()
	rb.begin()
	seed := o.Seed
	if seed == 0 {
		seed = rand.Uint64() // a fresh order for every comparison
	}
	order := rand.New(rand.NewPCG(seed, 0x726f756e64))
	for round := 1; ra.wantMore() || rb.wantMore(); round++ {
		rs, names := [2]*runner{ra, rb}, [2]int{0, 1}
		if order.IntN(2) == 1 {
			rs, names = [2]*runner{rb, ra}, [2]int{1, 0}
		}
		for j, r := range rs {
			i := names[j]
			if !r.wantMore() {
				continue
			}
			r.round = round
			if err := r.sample(ctx); err != nil {
				restore()
				return nil, nil, wrapf(err, "%s", name(r.t, i))
			}
		}
	}
	restore()
	for i, r := range []*runner{ra, rb} {
		if err := r.end(); err != nil {
			return nil, nil, wrapf(err, "%s", name(r.t, i))
		}
	}
	group := fmt.Sprintf("interleaved-%d", interleaveID.Add(1))
	resA, resB := ra.finish(), rb.finish()
	resA.Group, resB.Group = group, group
	return resA, resB, nil
}

// sameLoopsWithin is how far apart (a factor) two statements' calibrated
// loops may be for Interleave to give both the smaller.
const sameLoopsWithin = 10

// sameLoops gives both statements the same loops per sample when their
// calibrated ones are within sameLoopsWithin of each other (statements of
// similar cost): the two calibrations ran at different moments, and on a
// loaded machine a sample of another length meets another pattern of
// preemption, so equal statements with different loops would differ. The
// smaller keeps samples within the calibrated length.
func sameLoops(ra, rb *runner) {
	a, b := ra.res.Loops, rb.res.Loops
	if ra.res.LoopsGiven || rb.res.LoopsGiven || a <= 0 || b <= 0 || max(a, b) > sameLoopsWithin*min(a, b) {
		return
	}
	ra.res.Loops, rb.res.Loops = min(a, b), min(a, b)
}

// interleaveID numbers Interleave calls, so the results of one call share
// a Group.
var interleaveID atomic.Int64

// Comparison compares results against the first (the base).
type Comparison struct {
	// Alpha is the significance level: a difference is claimed when the
	// ratio's 1-Alpha interval excludes 1 (equivalently p < Alpha, the
	// p-value coming from the same resamples).
	Alpha float64 `json:"alpha"`
	// Interleaved reports that the results were measured together, their
	// samples interleaved in rounds (%timeit --vs): drift of the machine
	// affected them alike, and rounds are resampled whole. Otherwise
	// DriftAllowance is the relative difference below which a difference
	// is not claimed however narrow the interval (see Compare).
	Interleaved    bool            `json:"interleaved"`
	DriftAllowance float64         `json:"drift_allowance,omitempty"`
	Rows           []ComparisonRow `json:"rows"`
	Warnings       []Warning       `json:"warnings"`
}

// Verdict is what a comparison row concludes.
type Verdict string

// Verdicts. VerdictCannotTell is given instead of a verdict the
// measurement cannot support: the load changed during the comparison.
const (
	VerdictBase       Verdict = "base"
	VerdictSlower     Verdict = "slower"
	VerdictFaster     Verdict = "faster"
	VerdictSame       Verdict = "no detectable difference"
	VerdictCannotTell Verdict = "cannot tell"
)

// ComparisonRow is one result compared with the baseline (row 0).
type ComparisonRow struct {
	Label string `json:"label"`
	// Stats are the result's per-loop statistics (ns).
	Stats Stats `json:"stats"`
	// Ratio is median/baseline median, [RatioLo, RatioHi] its interval at
	// 1-Alpha and P its p-value, all from one block bootstrap (Estimate);
	// Delta is Ratio - 1 and DeltaText "+10.2%" when a difference is
	// claimed, "~" when none is detectable, "?" when the comparison cannot
	// tell.
	Ratio     float64       `json:"ratio"`
	RatioLo   float64       `json:"ratio_lo"`
	RatioHi   float64       `json:"ratio_hi"`
	P         float64       `json:"p"`
	Delta     float64       `json:"delta"`
	DeltaText string        `json:"delta_text"`
	Estimate  RatioEstimate `json:"estimate"`
	Verdict   Verdict       `json:"verdict"`
	// Why says, for VerdictCannotTell, what the measurement saw.
	Why string `json:"why,omitempty"`
	// LoadShift is how far the machine's speed moved during the
	// comparison: the largest relative difference between the median
	// per-round level (both statements' geometric mean) of any two
	// quarters of the rounds (interleaved results only).
	LoadShift float64 `json:"load_shift,omitempty"`
	// WithinDrift reports that the interval excludes 1 but the results
	// were not interleaved and |Delta| is under the drift allowance.
	WithinDrift bool `json:"within_drift,omitempty"`
}

// WarnProvenance: the compared results were measured under different
// conditions (device, inputs, DEBUG, environment, versions, machine,
// method); the message names each field that differs.
const WarnProvenance WarningKind = "provenance-differs"

// WarnTooFewToCompare: a result has so few samples that no interval for
// the ratio could exclude 1 however far apart they were.
const WarnTooFewToCompare WarningKind = "too-few-to-compare"

// WarnNotInterleaved: the results were measured one after the other, so
// drift of the machine between the runs is part of the difference.
const WarnNotInterleaved WarningKind = "not-interleaved"

// CompareAlpha is the significance level Compare uses.
const CompareAlpha = 0.05

// MaxLoadShift is the largest change of the machine's speed during an
// interleaved comparison (LoadShift) under which a ratio whose interval
// contains 1 is read as "no detectable difference"; above it the verdict
// is "cannot tell: the load changed during the comparison". Calibrated by
// bench/calibrate (docs/timing.md).
const MaxLoadShift = 0.25

// ShiftedAlpha is the significance level an interleaved comparison needs
// when the machine's speed moved by more than MaxLoadShift during it: the
// sign test stays exact under any load, but bench/calibrate's A/A false
// positives under a bursty load were the comparisons the load moved most
// (speed moved by 89% and 257% between quarters, p = 0.039 and 0.022),
// and a reader cannot check a claim made on such a machine; so there a
// difference needs p < ShiftedAlpha, and a weaker one reads "cannot tell:
// the load changed during the comparison".
const ShiftedAlpha = 0.01

// MaxSameSpread is the widest interval (its upper bound over its lower)
// read as "no detectable difference" when it contains 1: a wider one
// could hide a difference of more than about 12% either way (as wide as
// the differences people compare), and the verdict is "cannot tell"
// instead. bench/calibrate once read an interval of [0.998, 1.378]
// around a real 15% difference as "~" under 1.5.
const MaxSameSpread = 1.25

// minCompareSamples is the fewest samples (rounds) per result from which
// the bootstrap interval can exclude 1 at CompareAlpha.
const minCompareSamples = 6

// DriftFloor is the smallest drift allowance for results measured one
// after the other: on a shared machine, back-to-back runs of one statement
// differ by several percent (measured on this project's machines: +3.6%
// and +6.3% between identical statements at load 2).
const DriftFloor = 0.05

// DriftFactor scales the drift seen within one run into the allowance for
// two runs: within a run the first and last thirds are two thirds of a run
// apart; two runs measured back to back are a run apart plus whatever time
// passed between them, so three times the within-run drift covers a gap
// of about one run. Runs further apart can drift more than that; the
// not-interleaved warning says so.
const DriftFactor = 3.0

// Compare compares results against the first with one method: the ratio
// of medians, its 95% interval and p-value from a moving-block bootstrap
// (bootstrap.go). A difference is claimed exactly when the interval
// excludes 1, and, for interleaved results, when the first and second
// halves of the rounds agree on its direction and, when the machine's
// speed moved by more than MaxLoadShift during the comparison, p <
// ShiftedAlpha; otherwise, when the speed moved that much or the halves
// disagree, the verdict is "cannot tell".
//
// Results measured one after the other (not by one Interleave) are
// resampled separately, and drift between the runs can shift one as a
// whole; for them Compare sets a drift allowance — the larger of
// DriftFloor and DriftFactor times the largest drift seen within one run
// (the change of the median from the first to the last third of its
// samples, beyond their intervals) — and claims no difference smaller than
// it (WithinDrift), with a warning that says so and advises --vs.
func Compare(results ...*Result) *Comparison {
	c := &Comparison{Alpha: CompareAlpha, Interleaved: interleaved(results)}
	if len(results) == 0 {
		return c
	}
	if !c.Interleaved && len(results) > 1 {
		c.DriftAllowance = DriftFloor
		for _, r := range results {
			c.DriftAllowance = math.Max(c.DriftAllowance, DriftFactor*withinDrift(r))
		}
	}
	for i, r := range results {
		row := ComparisonRow{Label: r.Label, Stats: r.Stats, Ratio: 1, RatioLo: 1, RatioHi: 1, P: 1, DeltaText: "base", Verdict: VerdictBase}
		if row.Label == "" {
			row.Label = fmt.Sprintf("#%d", i+1)
		}
		if i > 0 {
			c.compareRow(&row, results[0], r, results)
		}
		c.Rows = append(c.Rows, row)
	}
	if len(results) > 1 && !c.Interleaved {
		c.Warnings = append(c.Warnings, notInterleaved(results, c.DriftAllowance))
	}
	return c
}

// compareRow fills row (result r against the baseline) and adds its
// warnings.
func (c *Comparison) compareRow(row *ComparisonRow, base, r *Result, results []*Result) {
	var a, b []float64
	if c.Interleaved {
		a, b = rounds(base, r)
	} else {
		a, b = floorless(base), floorless(r)
	}
	var e RatioEstimate
	if c.Interleaved {
		e = ratioOfRounds(a, b, 1-c.Alpha)
	} else {
		e = ratioOfMedians(a, b, false, 1-c.Alpha, seedOf(a, b))
	}
	row.Estimate, row.P = e, e.P
	if !math.IsNaN(e.Ratio) {
		row.Ratio, row.RatioLo, row.RatioHi, row.Delta = e.Ratio, e.Lo, e.Hi, e.Ratio-1
	}
	if c.Interleaved {
		row.LoadShift = loadShift(a, b)
	}
	c.verdict(row, a, b)
	if n := min(len(a), len(b)); n < minCompareSamples {
		row.Verdict, row.DeltaText = VerdictCannotTell, "?"
		row.Why = fmt.Sprintf("%d and %d samples are too few (the interval needs %d each)", len(a), len(b), minCompareSamples)
		c.Warnings = append(c.Warnings, Warning{Kind: WarnTooFewToCompare,
			Message: fmt.Sprintf("%s vs %s: %d and %d samples are too few for an interval of the ratio that could exclude 1",
				c.label(results, 0), row.Label, len(a), len(b)),
			Fix: "measure longer (-T) or with more samples (-r) before reading \"~\" as \"no difference\""})
	}
	if d := provenanceDiff(results[0], r); len(d) > 0 {
		fix := "compare results from the same machine, device, inputs and settings"
		if !c.Interleaved {
			fix += ", measured together with %timeit --vs"
		} else {
			fix += ": interleaving cancels drift, not different conditions"
		}
		c.Warnings = append(c.Warnings, Warning{Kind: WarnProvenance,
			Message: fmt.Sprintf("%s and %s were measured under different conditions: %s", c.label(results, 0), row.Label, strings.Join(d, "; ")),
			Fix:     fix})
	}
}

// verdict decides row's verdict from its interval, the halves of an
// interleaved run and the load's change.
func (c *Comparison) verdict(row *ComparisonRow, a, b []float64) {
	e := row.Estimate
	row.Verdict, row.DeltaText = VerdictSame, "~"
	switch {
	case math.IsNaN(e.Ratio):
		row.Verdict, row.DeltaText = VerdictCannotTell, "?"
		row.Why = "there are no samples (or a zero median) to compare"
	case e.Excludes1() && !c.Interleaved && math.Abs(row.Delta) < c.DriftAllowance:
		row.WithinDrift = true
	case e.Excludes1():
		if c.Interleaved {
			if h1, h2 := halves(a, b); (h1-1)*(e.Ratio-1) <= 0 || (h2-1)*(e.Ratio-1) <= 0 {
				row.Verdict, row.DeltaText = VerdictCannotTell, "?"
				row.Why = fmt.Sprintf("the load changed during the comparison: the first half of the rounds gives a ratio of %s, the second %s",
					formatSig(h1, 3), formatSig(h2, 3))
				return
			}
			if row.LoadShift > MaxLoadShift && !(e.P < ShiftedAlpha) {
				row.Verdict, row.DeltaText = VerdictCannotTell, "?"
				row.Why = fmt.Sprintf("the load changed during the comparison: the machine's speed moved by %.0f%% between quarters of the run, "+
					"and with the load moving this much a difference needs p < %g, although the ratio's interval [%s, %s] excludes 1 "+
					"(measure again when the machine is steadier)",
					100*row.LoadShift, ShiftedAlpha, formatSig(e.Lo, 3), formatSig(e.Hi, 3))
				return
			}
		}
		row.Verdict, row.DeltaText = VerdictSlower, fmt.Sprintf("%+.1f%%", 100*row.Delta)
		if row.Ratio < 1 {
			row.Verdict = VerdictFaster
		}
	case row.LoadShift > MaxLoadShift:
		row.Verdict, row.DeltaText = VerdictCannotTell, "?"
		row.Why = fmt.Sprintf("the load changed during the comparison: the machine's speed moved by %.0f%% between quarters of the run, "+
			"and the ratio's interval [%s, %s] is too wide to tell", 100*row.LoadShift, formatSig(e.Lo, 3), formatSig(e.Hi, 3))
	case !(e.Hi <= MaxSameSpread*e.Lo):
		row.Verdict, row.DeltaText = VerdictCannotTell, "?"
		row.Why = fmt.Sprintf("the ratio's interval [%s, %s] is too wide to tell a difference from none (the samples varied too much: "+
			"measure longer with -T, or on a quieter machine)", formatSig(e.Lo, 3), formatSig(e.Hi, 3))
	}
}

// rounds pairs a's and b's measured per-loop times (floor subtracted) by
// the Interleave round they were taken in.
func rounds(a, b *Result) (xa, xb []float64) {
	na, _ := a.NetOfFloor()
	nb, _ := b.NetOfFloor()
	if !hasRounds(a) || !hasRounds(b) { // built by hand or read from old JSON: pair in order
		k := min(len(na), len(nb))
		return na[:k], nb[:k]
	}
	byRound := map[int]float64{}
	i := 0
	for _, s := range a.Samples {
		if s.Phase == PhaseMeasured {
			if s.Round > 0 {
				byRound[s.Round] = na[i]
			}
			i++
		}
	}
	i = 0
	for _, s := range b.Samples {
		if s.Phase == PhaseMeasured {
			if x, ok := byRound[s.Round]; ok && s.Round > 0 {
				xa, xb = append(xa, x), append(xb, nb[i])
			}
			i++
		}
	}
	return xa, xb
}

func hasRounds(r *Result) bool {
	return slices.ContainsFunc(r.Samples, func(s Sample) bool { return s.Round > 0 })
}

// halves is the ratio of medians over the first and over the second half
// of the rounds.
func halves(a, b []float64) (float64, float64) {
	k := len(a) / 2
	r := func(x, y []float64) float64 {
		if m := median(x); m > 0 {
			return median(y) / m
		}
		return math.NaN()
	}
	return r(a[:k], b[:k]), r(a[k:], b[k:])
}

// loadShift is how far the machine's speed moved over the rounds: the
// level of a round is the geometric mean of its two samples; the largest
// ratio between the median levels of two quarters of the rounds, less 1.
func loadShift(a, b []float64) float64 {
	n := len(a)
	if n < 8 {
		return 0
	}
	lv := make([]float64, n)
	for i := range lv {
		lv[i] = (math.Log(math.Max(a[i], 1e-3)) + math.Log(math.Max(b[i], 1e-3))) / 2
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for q := range 4 {
		m := median(lv[q*n/4 : (q+1)*n/4])
		lo, hi = math.Min(lo, m), math.Max(hi, m)
	}
	return math.Exp(hi-lo) - 1
}

// interleaved reports whether all results come from one Interleave call.
func interleaved(rs []*Result) bool {
	if len(rs) < 2 || rs[0].Group == "" {
		return false
	}
	for _, r := range rs[1:] {
		if r.Group != rs[0].Group {
			return false
		}
	}
	return true
}

// withinDrift is how much r's median moved during its own run beyond the
// noise: the change from the median of its first third of measured samples
// to that of its last third, less both medians' 95% interval half-widths
// (so noisy samples alone give 0), relative to r's median. It is 0 with
// fewer than 18 samples (6 a third, the fewest an interval needs).
func withinDrift(r *Result) float64 {
	xs := floorless(r)
	if len(xs) < 18 || r.Stats.Median == 0 {
		return 0
	}
	k := len(xs) / 3
	first, last := Summarize(xs[:k], DefaultConfidence), Summarize(xs[len(xs)-k:], DefaultConfidence)
	moved := math.Abs(last.Median-first.Median) - first.HalfWidth() - last.HalfWidth()
	return math.Max(moved, 0) / math.Abs(r.Stats.Median)
}

// notInterleaved is the warning for results measured at different times.
func notInterleaved(rs []*Result, allowance float64) Warning {
	var when []string
	for i, r := range rs {
		s := label(rs, i)
		if !r.Started.IsZero() {
			s += " at " + r.Started.Local().Format(time.TimeOnly)
		}
		if l := r.Provenance.Load.Start; l != "" {
			s += " (load " + strings.Fields(l)[0] + ")"
		}
		when = append(when, s)
	}
	return Warning{Kind: WarnNotInterleaved,
		Message: fmt.Sprintf("these results were measured one after the other, not interleaved (%s): drift of the machine between the runs "+
			"is part of each difference and the bootstrap cannot tell it from one, so differences under %.0f%% (the drift allowance) are not claimed",
			strings.Join(when, ", "), 100*allowance),
		Fix: "measure the two together, samples interleaved, with %timeit --vs 'OTHER' STATEMENT"}
}

func label(rs []*Result, i int) string {
	if rs[i].Label != "" {
		return rs[i].Label
	}
	return fmt.Sprintf("#%d", i+1)
}

func (c *Comparison) label(rs []*Result, i int) string { return label(rs, i) }

// floorless returns r's measured per-loop times with the floor subtracted
// (at least 0: Result.NetOfFloor).
func floorless(r *Result) []float64 {
	xs, _ := r.NetOfFloor()
	return xs
}

// provenanceDiff names every condition under which a and b differ.
func provenanceDiff(ra, rb *Result) []string {
	a, b := ra.Provenance, rb.Provenance
	var d []string
	diff := func(name, x, y string) {
		if x != y {
			d = append(d, fmt.Sprintf("%s %q vs %q", name, x, y))
		}
	}
	diff("DEBUG (effective)", itoa(a.Debug), itoa(b.Debug))
	diff("device", a.Device, b.Device)
	diff("backend", a.Backend, b.Backend)
	// The tensors read, in any order: the order is when each was first read
	// (a fused and an unfused training step read the same parameters in
	// another order). A statement that reads no tensor (compiled Go on a
	// slice: `CopyF32(s)` against `y.Float32s()`) has no inputs to differ.
	if len(a.Inputs) > 0 && len(b.Inputs) > 0 {
		diff("inputs", strings.Join(slices.Sorted(slices.Values(a.Inputs)), ", "), strings.Join(slices.Sorted(slices.Values(b.Inputs)), ", "))
	}
	for _, k := range slices.Sorted(maps.Keys(a.Env)) {
		diff("$"+k, a.Env[k], b.Env[k])
	}
	diff("go", a.GoVersion, b.GoVersion)
	diff("tick", a.Tick+" "+a.Commit, b.Tick+" "+b.Commit)
	diff("cpu", fmt.Sprintf("%s ×%d", a.CPU, a.CPUs), fmt.Sprintf("%s ×%d", b.CPU, b.CPUs))
	diff("--sync", string(ra.Sync), string(rb.Sync))
	diff("--gc", string(ra.GC), string(rb.GC))
	return d
}

// String is Text with the default precision (a cell's value, %v).
func (c *Comparison) String() string { return c.Text(0) }
