package timing

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestStatsAgreeWithGonum checks Summarize against gonum/stat on random
// samples of several sizes and shapes.
func TestStatsAgreeWithGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 5, 6, 7, 10, 31, 100, 1001} {
		for _, shape := range []string{"normal", "lognormal", "ties"} {
			xs := make([]float64, n)
			for i := range xs {
				switch shape {
				case "normal":
					xs[i] = 1000 + 50*rng.NormFloat64()
				case "lognormal":
					xs[i] = math.Exp(7 + rng.NormFloat64())
				case "ties":
					xs[i] = float64(100 + rng.IntN(4))
				}
			}
			st := Summarize(xs, 0.95)
			sorted := append([]float64(nil), xs...)
			sort.Float64s(sorted)
			mean, sd := stat.MeanStdDev(xs, nil)
			if n == 1 {
				sd = 0 // gonum returns NaN for one value; we report 0
			}
			// Type-7 quantile p equals gonum's LinInterp (type 4) at ((n-1)p+1)/n.
			q := func(p float64) float64 {
				return stat.Quantile((float64(n-1)*p+1)/float64(n), stat.LinInterp, sorted, nil)
			}
			dev := make([]float64, n)
			for i, x := range xs {
				dev[i] = math.Abs(x - q(0.5))
			}
			sort.Float64s(dev)
			mad := stat.Quantile((float64(n-1)*0.5+1)/float64(n), stat.LinInterp, dev, nil)
			checks := []struct {
				name      string
				got, want float64
			}{
				{"mean", st.Mean, mean}, {"sd", st.SD, sd},
				{"min", st.Min, floats.Min(xs)}, {"max", st.Max, floats.Max(xs)},
				{"median", st.Median, q(0.5)}, {"q1", st.Q1, q(0.25)}, {"q3", st.Q3, q(0.75)},
				{"iqr", st.IQR, q(0.75) - q(0.25)}, {"p5", st.P5, q(0.05)}, {"p95", st.P95, q(0.95)},
				{"p99", st.P99, q(0.99)}, {"mad", st.MAD, mad},
			}
			if n%2 == 1 {
				checks = append(checks, struct {
					name      string
					got, want float64
				}{"median (empirical)", st.Median, stat.Quantile(0.5, stat.Empirical, sorted, nil)})
			}
			for _, c := range checks {
				if !near(c.got, c.want) {
					t.Errorf("n=%d %s: %s = %v, gonum says %v", n, shape, c.name, c.got, c.want)
				}
			}
			lo, hi := st.Q1-1.5*st.IQR, st.Q3+1.5*st.IQR
			out := 0
			for _, x := range xs {
				if x < lo || x > hi {
					out++
				}
			}
			if st.LowOutliers+st.HighOutliers != out {
				t.Errorf("n=%d %s: outliers %d, want %d", n, shape, st.LowOutliers+st.HighOutliers, out)
			}
		}
	}
}

// TestQuantileKnown checks textbook values: for 1..101 the type-7 p-quantile
// is 1+100p exactly; for {1,2,3,4} the median is 2.5.
func TestQuantileKnown(t *testing.T) {
	xs := make([]float64, 101)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	for _, p := range []float64{0, 0.05, 0.25, 0.5, 0.95, 0.99, 1} {
		if got := Quantile(xs, p); !near(got, 1+100*p) {
			t.Errorf("Quantile(1..101, %v) = %v, want %v", p, got, 1+100*p)
		}
	}
	if got := Quantile([]float64{1, 2, 3, 4}, 0.5); got != 2.5 {
		t.Errorf("median of 1..4 = %v", got)
	}
}

// TestMedianCI checks benchmath's order-statistic interval against the
// binomial coverage computed by hand, B ~ Binomial(n, ½) counting samples
// below the median: n=10 → (x(2), x(9)), coverage 1-2·11/1024; n=8 →
// (x(1), x(7)), 1-(1+8+1)/256 (one order statistic asymmetric: the
// symmetric (x(2), x(7)) only reaches 1-2·9/256 < 0.95); n=6 → (min, max),
// 1-2/64; n=5 has no 95% interval (1-2/32 < 0.95).
func TestMedianCI(t *testing.T) {
	for _, c := range []struct {
		n, lo, hi int
		cov       float64
		ok        bool
	}{
		{10, 1, 8, 1 - 2*11.0/1024, true},
		{8, 0, 6, 1 - 10.0/256, true},
		{6, 0, 5, 1 - 2/64.0, true},
		{5, 0, 0, 0, false},
		{1, 0, 0, 0, false},
		{0, 0, 0, 0, false},
	} {
		lo, hi, cov, ok := MedianCI(c.n, 0.95)
		if ok != c.ok || lo != c.lo || hi != c.hi || !near(cov, c.cov) {
			t.Errorf("MedianCI(%d) = %d, %d, %v, %v; want %d, %d, %v, %v", c.n, lo, hi, cov, ok, c.lo, c.hi, c.cov, c.ok)
		}
	}
	// Large n: the interval's coverage is at least the level, and a higher
	// level widens it.
	for _, n := range []int{30, 100, 1000} {
		lo, hi, cov, ok := MedianCI(n, 0.95)
		if !ok || cov < 0.95 {
			t.Fatalf("n=%d: coverage %v", n, cov)
		}
		if lo2, hi2, _, _ := MedianCI(n, cov+1e-3); hi2-lo2 <= hi-lo {
			t.Errorf("n=%d: a higher level did not widen the interval (%d..%d vs %d..%d)", n, lo2, hi2, lo, hi)
		}
	}
}

// TestSummarizeCI checks that Summarize reports MedianCI's order
// statistics as the interval, and explains a missing one.
func TestSummarizeCI(t *testing.T) {
	xs := []float64{50, 10, 40, 20, 30, 80, 60, 70, 100, 90} // 10..100 shuffled
	st := Summarize(xs, 0.95)
	if !st.CIValid || st.CILo != 20 || st.CIHi != 90 || st.Median != 55 || !near(st.Confidence, 1-2*11.0/1024) || st.CIWarning != "" {
		t.Errorf("n=10: %+v, want median 55 in [20, 90]", st)
	}
	if xs[0] != 50 {
		t.Error("Summarize reordered its input")
	}
	st = Summarize(xs[:5], 0.95)
	if st.CIValid || st.CILo != 0 || st.CIHi != 0 || !strings.Contains(st.CIWarning, "need >= 6 samples") {
		t.Errorf("n=5: %+v, want no interval and benchmath's reason", st)
	}
}

// A result or comparison printed with %v (a notebook cell's value) reads
// like the magic's text, not like a dump of its samples.
func TestResultAndComparisonPrint(t *testing.T) {
	r := &Result{Repeats: 7, Loops: 10, Stats: Summarize([]float64{10, 11, 12, 13, 14, 15, 16}, 0.95)}
	got := fmt.Sprintf("%v", r)
	if !strings.HasPrefix(got, r.Headline(DefaultDigits)) || strings.Contains(got, "Samples") {
		t.Errorf("%%v of a Result = %q; want its Text", got)
	}
	c := Compare(r, r)
	if got := fmt.Sprintf("%v", c); !strings.HasPrefix(got, "statement") {
		t.Errorf("%%v of a Comparison = %q; want its table", got)
	}
}
