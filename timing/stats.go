package timing

import (
	"math"
	"sort"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// Stats summarizes per-loop times in nanoseconds. Quantiles use linear
// interpolation between order statistics (Hyndman–Fan type 7, numpy's
// default), so Median is the usual median.
type Stats struct {
	N int `json:"n"`
	// Median and its distribution-free confidence interval [CILo, CIHi],
	// both from benchmath.AssumeNothing (order statistics of the sample).
	// CIValid is false when there are too few samples for an interval at
	// the requested level (6 at 95%); CIWarning then says how many are
	// needed, in benchmath's words.
	Median     float64 `json:"median_ns"`
	CILo       float64 `json:"ci_lo_ns"`
	CIHi       float64 `json:"ci_hi_ns"`
	CIValid    bool    `json:"ci_valid"`
	Confidence float64 `json:"confidence"` // actual coverage, ≥ the requested level
	CIWarning  string  `json:"ci_warning,omitempty"`
	Mean       float64 `json:"mean_ns"`
	SD         float64 `json:"sd_ns"` // sample standard deviation (n-1)
	Min        float64 `json:"min_ns"`
	Max        float64 `json:"max_ns"`
	// MAD is the raw median absolute deviation (not scaled by 1.4826).
	MAD float64 `json:"mad_ns"`
	Q1  float64 `json:"q1_ns"`
	Q3  float64 `json:"q3_ns"`
	IQR float64 `json:"iqr_ns"`
	P5  float64 `json:"p5_ns"`
	P95 float64 `json:"p95_ns"`
	P99 float64 `json:"p99_ns"`
	// Outliers counts values outside Tukey's fences Q1-1.5·IQR, Q3+1.5·IQR.
	LowOutliers  int `json:"low_outliers"`
	HighOutliers int `json:"high_outliers"`
}

// HalfWidth returns the larger distance from the median to a CI bound, or
// 0 when there is no interval.
func (s Stats) HalfWidth() float64 {
	if !s.CIValid {
		return 0
	}
	return math.Max(s.CIHi-s.Median, s.Median-s.CILo)
}

// Summarize computes Stats of xs at the given confidence level (0.95 when
// out of range). xs is not modified. Empty input gives the zero Stats.
func Summarize(xs []float64, confidence float64) Stats {
	if len(xs) == 0 {
		return Stats{}
	}
	if confidence <= 0 || confidence >= 1 {
		confidence = DefaultConfidence
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	st := Stats{N: n, Min: s[0], Max: s[n-1]}
	st.medianCI(s, confidence)
	st.Q1, st.Q3 = Quantile(s, 0.25), Quantile(s, 0.75)
	st.IQR = st.Q3 - st.Q1
	st.P5, st.P95, st.P99 = Quantile(s, 0.05), Quantile(s, 0.95), Quantile(s, 0.99)
	var sum float64
	for _, x := range s {
		sum += x
	}
	st.Mean = sum / float64(n)
	if n > 1 {
		var ss float64
		for _, x := range s {
			ss += (x - st.Mean) * (x - st.Mean)
		}
		st.SD = math.Sqrt(ss / float64(n-1))
	}
	dev := make([]float64, n)
	for i, x := range s {
		dev[i] = math.Abs(x - st.Median)
	}
	sort.Float64s(dev)
	st.MAD = Quantile(dev, 0.5)
	lo, hi := st.Q1-1.5*st.IQR, st.Q3+1.5*st.IQR
	for _, x := range s {
		if x < lo {
			st.LowOutliers++
		} else if x > hi {
			st.HighOutliers++
		}
	}
	return st
}

// medianCI sets the median and its interval from benchmath's
// distribution-free summary of sorted. A bound benchmath reports as ±∞ (too
// few samples) leaves CIValid false and CILo, CIHi zero, so the result
// still marshals to JSON.
func (st *Stats) medianCI(sorted []float64, confidence float64) {
	// NewSample sorts in place; sorted already is, and is ours.
	sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(sorted, &benchmath.DefaultThresholds), confidence)
	st.Median, st.Confidence = sum.Center, sum.Confidence
	if !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0) {
		st.CILo, st.CIHi, st.CIValid = sum.Lo, sum.Hi, true
	} else {
		st.Confidence = 0
	}
	for _, w := range sum.Warnings {
		if st.CIWarning != "" {
			st.CIWarning += "; "
		}
		st.CIWarning += w.Error()
	}
}

// Quantile returns the p-quantile of sorted xs by linear interpolation
// between order statistics (Hyndman–Fan type 7).
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := p * float64(n-1)
	i := int(math.Floor(h))
	if i >= n-1 {
		return sorted[n-1]
	}
	if i < 0 {
		return sorted[0]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// MedianCI returns 0-based indexes lo, hi into a sorted sample of size n
// such that [x(lo), x(hi)] covers the population median with probability
// cov ≥ confidence. It is the interval benchmath.AssumeNothing reports
// (go-moremath's stats.QuantileCI: exact binomial coverage up to n = 30,
// the normal approximation above; it may be one order statistic
// asymmetric, biased low). No distributional assumption about the times is
// made. ok is false when even (min, max) does not reach the level.
func MedianCI(n int, confidence float64) (lo, hi int, cov float64, ok bool) {
	if n < 1 {
		return 0, 0, 0, false
	}
	ci := stats.QuantileCI(n, 0.5, confidence)
	if ci.LoOrder < 1 || ci.HiOrder > n {
		return 0, 0, 0, false
	}
	return ci.LoOrder - 1, ci.HiOrder - 1, ci.Confidence, true
}
