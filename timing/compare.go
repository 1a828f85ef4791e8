package timing

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// Interleave measures a and b together: each goes through its own cold,
// capture, warm-up and calibration phases, then their samples alternate
// (a, b, a, b, …) until the shared budget is spent, so slow drift of the
// machine (thermal, frequency, background load) affects both alike.
func Interleave(ctx context.Context, a, b Target, o Options) (*Result, *Result, error) {
	ra, err := newRunner(a, o)
	if err != nil {
		return nil, nil, wrapf(err, "first statement")
	}
	rb, err := newRunner(b, o)
	if err != nil {
		return nil, nil, wrapf(err, "second statement")
	}
	if err := ra.prepare(ctx); err != nil {
		return nil, nil, wrapf(err, "first statement")
	}
	if err := rb.prepare(ctx); err != nil {
		return nil, nil, wrapf(err, "second statement")
	}
	restore := ra.o.gcOff()
	defer restore()
	for ra.wantMore() || rb.wantMore() {
		for i, r := range []*runner{ra, rb} {
			if !r.wantMore() {
				continue
			}
			if err := r.sample(ctx); err != nil {
				return nil, nil, wrapf(err, "statement %d", i+1)
			}
		}
	}
	return ra.finish(), rb.finish(), nil
}

// Comparison is a benchstat-style comparison of results against the first.
type Comparison struct {
	// Alpha is the significance level: a p-value above it means "no
	// detectable difference" and the delta is shown as "~".
	Alpha    float64         `json:"alpha"`
	Rows     []ComparisonRow `json:"rows"`
	Warnings []Warning       `json:"warnings"`
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
	// Ratio is median/baseline median and RatioErr its approximate
	// uncertainty: the relative CI half-widths combined in quadrature.
	Ratio    float64 `json:"ratio"`
	RatioErr float64 `json:"ratio_err"`
}

// WarnProvenance: the compared results were measured under different
// conditions (device, inputs, environment, versions, machine).
const WarnProvenance WarningKind = "provenance-differs"

// WarnTooFewToCompare: a result has so few samples that the U test could
// not report a difference at CompareAlpha however far apart they were.
const WarnTooFewToCompare WarningKind = "too-few-to-compare"

// CompareAlpha is the significance level Compare uses.
const CompareAlpha = 0.05

// Compare compares results against the first: median ± CI, delta, p-value
// of a Mann–Whitney U test (benchmath.AssumeNothing.Compare; "~" when
// p > CompareAlpha), and the ratio with its uncertainty. It warns when the
// results' provenance differs, and when benchmath finds too few samples to
// detect any difference.
func Compare(results ...*Result) *Comparison {
	c := &Comparison{Alpha: CompareAlpha}
	if len(results) == 0 {
		return c
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
			u := benchmath.AssumeNothing.Compare(base, benchmath.NewSample(floorless(r), th))
			row.P = u.P
			if bs.Median != 0 {
				row.Ratio = r.Stats.Median / bs.Median
				row.Delta = row.Ratio - 1
				row.RatioErr = row.Ratio * math.Hypot(rel(bs), rel(r.Stats))
			}
			row.DeltaText = "~"
			if u.P <= u.Alpha {
				row.DeltaText = fmt.Sprintf("%+.1f%%", 100*row.Delta)
			}
			for _, w := range u.Warnings {
				if errors.Is(w, stats.ErrSamplesEqual) {
					continue // every time identical: "~" is the truth
				}
				c.Warnings = append(c.Warnings, Warning{Kind: WarnTooFewToCompare,
					Message: fmt.Sprintf("%s vs %s (n=%d+%d): %v", c.label(results, 0), row.Label, u.N1, u.N2, w),
					Fix:     "measure longer (-T) or with more samples (-r) before reading \"~\" as \"no difference\""})
			}
			if d := provenanceDiff(results[0].Provenance, r.Provenance); len(d) > 0 {
				c.Warnings = append(c.Warnings, Warning{Kind: WarnProvenance,
					Message: fmt.Sprintf("%s and %s were measured under different conditions (%s)", c.label(results, 0), row.Label, strings.Join(d, "; ")),
					Fix:     "compare results from the same machine, device, inputs and settings, or interleave them with --vs"})
			}
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}

func (c *Comparison) label(rs []*Result, i int) string {
	if rs[i].Label != "" {
		return rs[i].Label
	}
	return fmt.Sprintf("#%d", i+1)
}

// floorless returns r's measured per-loop times with the floor subtracted.
func floorless(r *Result) []float64 {
	xs := r.Measured()
	for i := range xs {
		xs[i] -= r.Floor
	}
	return xs
}

// rel is the relative half-width of the median's interval (0 without one).
func rel(s Stats) float64 {
	if s.Median == 0 {
		return 0
	}
	return s.HalfWidth() / math.Abs(s.Median)
}

func provenanceDiff(a, b Provenance) []string {
	var d []string
	diff := func(name, x, y string) {
		if x != y {
			d = append(d, fmt.Sprintf("%s %q vs %q", name, x, y))
		}
	}
	diff("backend", a.Backend, b.Backend)
	diff("device", a.Device, b.Device)
	diff("inputs", strings.Join(a.Inputs, ", "), strings.Join(b.Inputs, ", "))
	for _, k := range slices.Sorted(maps.Keys(a.Env)) {
		diff(k, a.Env[k], b.Env[k])
	}
	diff("go", a.GoVersion, b.GoVersion)
	diff("tick", a.Tick+" "+a.Commit, b.Tick+" "+b.Commit)
	diff("cpu", fmt.Sprintf("%s ×%d", a.CPU, a.CPUs), fmt.Sprintf("%s ×%d", b.CPU, b.CPUs))
	return d
}

// String is Text with the default precision (a cell's value, %v).
func (c *Comparison) String() string { return c.Text(0) }
