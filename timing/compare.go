package timing

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// Interleave measures a and b together: each goes through its own cold,
// capture, warm-up and calibration phases, then their samples alternate
// (a, b, a, b, …) until the shared budget is spent, so slow drift of the
// machine (thermal, frequency, background load) affects both alike.
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
	if err := ra.prepare(ctx); err != nil {
		return nil, nil, wrapf(err, "%s", name(a, 0))
	}
	if err := rb.prepare(ctx); err != nil {
		return nil, nil, wrapf(err, "%s", name(b, 1))
	}
	restore := ra.o.gcOff()
	ra.begin()
	rb.begin()
	for ra.wantMore() || rb.wantMore() {
		for i, r := range []*runner{ra, rb} {
			if !r.wantMore() {
				continue
			}
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

// interleaveID numbers Interleave calls, so the results of one call share
// a Group.
var interleaveID atomic.Int64

// Comparison is a benchstat-style comparison of results against the first.
type Comparison struct {
	// Alpha is the significance level: a p-value above it means "no
	// detectable difference" and the delta is shown as "~".
	Alpha float64 `json:"alpha"`
	// Interleaved reports that the results were measured together, their
	// samples interleaved (%timeit --vs): drift of the machine affected
	// them alike. Otherwise DriftAllowance is the relative difference
	// below which a delta is shown as "~" however small p is (see
	// Compare).
	Interleaved    bool            `json:"interleaved"`
	DriftAllowance float64         `json:"drift_allowance,omitempty"`
	Rows           []ComparisonRow `json:"rows"`
	Warnings       []Warning       `json:"warnings"`
}

// ComparisonRow is one result compared with the baseline (row 0).
type ComparisonRow struct {
	Label string `json:"label"`
	// Stats are the result's per-loop statistics (ns).
	Stats Stats `json:"stats"`
	// Delta is median/baseline median - 1; P the Mann–Whitney U p-value
	// against the baseline's per-loop times; DeltaText "+10.2%" or "~".
	Delta     float64 `json:"delta"`
	P         float64 `json:"p"`
	DeltaText string  `json:"delta_text"`
	// WithinDrift reports that p ≤ Alpha but the results were not
	// interleaved and |Delta| is under the drift allowance: shown as "~".
	WithinDrift bool `json:"within_drift,omitempty"`
	// Ratio is median/baseline median and RatioErr its approximate
	// uncertainty: the relative CI half-widths combined in quadrature.
	Ratio    float64 `json:"ratio"`
	RatioErr float64 `json:"ratio_err"`
}

// WarnProvenance: the compared results were measured under different
// conditions (device, inputs, DEBUG, environment, versions, machine,
// method); the message names each field that differs.
const WarnProvenance WarningKind = "provenance-differs"

// WarnTooFewToCompare: a result has so few samples that the U test could
// not report a difference at CompareAlpha however far apart they were.
const WarnTooFewToCompare WarningKind = "too-few-to-compare"

// WarnNotInterleaved: the results were measured one after the other, so
// drift of the machine between the runs is part of the difference.
const WarnNotInterleaved WarningKind = "not-interleaved"

// CompareAlpha is the significance level Compare uses.
const CompareAlpha = 0.05

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

// Compare compares results against the first: median ± CI, delta, p-value
// of a Mann–Whitney U test (benchmath.AssumeNothing.Compare; "~" when
// p > CompareAlpha), and the ratio with its uncertainty. It warns when the
// results' provenance differs (naming each field), and when benchmath finds
// too few samples to detect any difference.
//
// The U test assumes every sample of both results came from one
// unchanging machine. Results measured one after the other (not by one
// Interleave) break that: drift between the runs shifts one result as a
// whole, and the test, seeing many consistent samples, calls the shift
// significant. So for them Compare sets a drift allowance — the larger of
// DriftFloor and DriftFactor times the largest drift seen within one run
// (the change of the median from the first to the last third of its
// samples, beyond their intervals) — and shows a delta smaller than it as
// "~" (WithinDrift), with a warning that says so and advises --vs. The
// p-value itself is reported unchanged.
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
	th := &benchmath.Thresholds{CompareAlpha: CompareAlpha}
	base := benchmath.NewSample(floorless(results[0]), th)
	bs := results[0].Stats
	for i, r := range results {
		row := ComparisonRow{Label: r.Label, Stats: r.Stats, Ratio: 1, P: 1, DeltaText: "base"}
		if row.Label == "" {
			row.Label = fmt.Sprintf("#%d", i+1)
		}
		if i > 0 {
			c.compareRow(&row, base, bs, r, results, th)
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
func (c *Comparison) compareRow(row *ComparisonRow, base *benchmath.Sample, bs Stats, r *Result, results []*Result, th *benchmath.Thresholds) {
	u := benchmath.AssumeNothing.Compare(base, benchmath.NewSample(floorless(r), th))
	row.P = u.P
	if bs.Median != 0 {
		row.Ratio = r.Stats.Median / bs.Median
		row.Delta = row.Ratio - 1
		row.RatioErr = row.Ratio * math.Hypot(rel(bs), rel(r.Stats))
	}
	row.DeltaText = "~"
	if u.P <= u.Alpha {
		if !c.Interleaved && math.Abs(row.Delta) < c.DriftAllowance {
			row.WithinDrift = true
		} else {
			row.DeltaText = fmt.Sprintf("%+.1f%%", 100*row.Delta)
		}
	}
	for _, w := range u.Warnings {
		if errors.Is(w, stats.ErrSamplesEqual) {
			continue // every time identical: "~" is the truth
		}
		c.Warnings = append(c.Warnings, Warning{Kind: WarnTooFewToCompare,
			Message: fmt.Sprintf("%s vs %s (n=%d+%d): %v", c.label(results, 0), row.Label, u.N1, u.N2, w),
			Fix:     "measure longer (-T) or with more samples (-r) before reading \"~\" as \"no difference\""})
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
			"is part of each difference and the U test does not know it, so differences under %.0f%% (the drift allowance) are shown as ~",
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

// rel is the relative half-width of the median's interval (0 without one).
func rel(s Stats) float64 {
	if s.Median == 0 {
		return 0
	}
	return s.HalfWidth() / math.Abs(s.Median)
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
	diff("inputs", strings.Join(a.Inputs, ", "), strings.Join(b.Inputs, ", "))
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
