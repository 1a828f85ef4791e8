package timing

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The comparison's methods. Each gives a ratio (statement / base), an
// interval and a p-value from one computation, and the verdict is the
// interval: a difference is claimed exactly when the interval excludes 1,
// so the verdict and the interval shown beside it cannot disagree.
//
// Interleaved results (rounds of one sample each, back to back in an order
// drawn at random per round): the sign test on the per-round log ratios.
// Its interval for the median per-round ratio is a pair of order
// statistics of the ratios, and its p-value counts the rounds on either
// side of 1. It is exact whatever the load did: if the two statements are
// the same, which of a round's two samples belongs to which statement was
// a coin flip, so each round's ratio is above or below 1 with probability
// ½ independently of every other round, however a burst of load slowed
// the samples around it. A burst that slows one sample of a round makes
// that round's ratio extreme, but the sign test counts it once, whatever
// its size.
//
// Results measured one after the other: the ratio of medians with a
// percentile interval from a moving-block bootstrap, and a p-value from
// the same resamples. Blocks, not single samples, are resampled: a burst
// of load slows several consecutive samples, and those samples are one
// piece of evidence, not several. The block length grows with the serial
// correlation the samples show (at least n^⅓).

// RatioEstimate is the ratio of two medians with its bootstrap interval.
type RatioEstimate struct {
	Ratio float64 `json:"ratio"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// P is the two-sided bootstrap p-value of "the ratio is 1": twice the
	// smaller share of resampled ratios on either side of 1.
	P float64 `json:"p"`
	// Block is the block length in samples (rounds when Paired); N the
	// samples (rounds) resampled; Resamples how many resamples.
	Block     int  `json:"block"`
	N         int  `json:"n"`
	Resamples int  `json:"resamples,omitempty"`
	Paired    bool `json:"paired"`
	// Above and Below count the rounds whose ratio is above and below 1
	// (Paired only).
	Above int `json:"above,omitempty"`
	Below int `json:"below,omitempty"`
}

// ratioOfRounds is the sign test on rounds: round i's samples are a[i]
// and b[i]. The estimate is the median of the ratios b[i]/a[i]; the
// interval is the pair of order statistics the binomial(n, ½) distribution
// gives at level (coverage at least level); P is the two-sided sign test's
// p-value of "the median ratio is 1".
func ratioOfRounds(a, b []float64, level float64) RatioEstimate {
	e := RatioEstimate{Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), P: 1, Paired: true, Block: 1}
	n := min(len(a), len(b))
	if n == 0 {
		return e
	}
	d := make([]float64, n)
	pos, neg := 0, 0
	for i := range d {
		d[i] = math.Max(b[i], 1e-3) / math.Max(a[i], 1e-3)
		switch {
		case d[i] > 1:
			pos++
		case d[i] < 1:
			neg++
		}
	}
	slices.Sort(d)
	e.N, e.Ratio, e.Above, e.Below = n, medianSorted(d), pos, neg
	// The largest j with P(X ≤ j-1) ≤ α/2 for X ~ binomial(n, ½): the
	// interval is [d(j), d(n+1-j)] (1-based); none when j would be 0.
	alpha := (1 - level) / 2
	j := 0
	for j < n/2 && binomCDF(n, j) <= alpha {
		j++
	}
	if j > 0 {
		e.Lo, e.Hi = d[j-1], d[n-j]
	} else {
		e.Lo, e.Hi = 0, math.Inf(1) // too few rounds: the interval is everything
	}
	// Ties at 1 are dropped, as the sign test does.
	if m := pos + neg; m > 0 {
		e.P = math.Min(1, 2*binomCDF(m, min(pos, neg)))
	}
	return e
}

// binomCDF is P(X ≤ k) for X ~ binomial(n, ½).
func binomCDF(n, k int) float64 {
	if k < 0 {
		return 0
	}
	var sum float64
	ln2n := float64(n) * math.Ln2
	lgn, _ := math.Lgamma(float64(n + 1))
	for i := 0; i <= min(k, n); i++ {
		a, _ := math.Lgamma(float64(i + 1))
		b, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lgn - a - b - ln2n)
	}
	return math.Min(sum, 1)
}

func medianSorted(x []float64) float64 {
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// Excludes1 reports whether the interval lies wholly on one side of 1.
func (e RatioEstimate) Excludes1() bool { return e.Lo > 1 || e.Hi < 1 }

// bootstrapWork bounds resamples × samples (a few tens of milliseconds).
const bootstrapWork = 4_000_000

// ratioOfMedians estimates median(b)/median(a). Paired: a[i] and b[i] are
// round i's samples (equal lengths), resampled together. Otherwise each is
// resampled in blocks of its own. seed makes the resampling repeatable (the
// same samples give the same interval).
func ratioOfMedians(a, b []float64, paired bool, level float64, seed uint64) RatioEstimate {
	e := RatioEstimate{Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), P: 1, Paired: paired}
	if len(a) == 0 || len(b) == 0 || (paired && len(a) != len(b)) {
		return e
	}
	ma, mb := median(a), median(b)
	if ma <= 0 {
		return e
	}
	e.Ratio = mb / ma
	n := len(a)
	la, lb := blockLength(logs(a)), blockLength(logs(b))
	if paired {
		d := make([]float64, n)
		for i := range d {
			d[i] = math.Log(math.Max(b[i], 1e-3)) - math.Log(math.Max(a[i], 1e-3))
		}
		la = max(blockLength(d), la, lb)
		lb = la
	}
	e.Block, e.N = la, n
	B := max(400, min(2000, bootstrapWork/max(n+len(b), 1)))
	e.Resamples = B
	rng := rand.New(rand.NewPCG(seed, 0x7469636b))
	ra, rb := make([]float64, 0, n), make([]float64, 0, len(b))
	idx := make([]int, 0, max(n, len(b)))
	rs := make([]float64, 0, B)
	below, above := 0, 0
	for range B {
		if paired {
			idx = blockIndices(rng, n, la, idx[:0])
			ra, rb = gather(a, idx, ra[:0]), gather(b, idx, rb[:0])
		} else {
			ra = gather(a, blockIndices(rng, n, la, idx[:0]), ra[:0])
			rb = gather(b, blockIndices(rng, len(b), lb, idx[:0]), rb[:0])
		}
		x := medianInPlace(ra)
		if x <= 0 {
			continue
		}
		r := medianInPlace(rb) / x
		rs = append(rs, r)
		if r <= 1 {
			below++
		}
		if r >= 1 {
			above++
		}
	}
	if len(rs) == 0 {
		return e
	}
	slices.Sort(rs)
	alpha := (1 - level) / 2
	e.Lo = rs[int(math.Floor(alpha*float64(len(rs))))]
	e.Hi = rs[min(len(rs)-1, int(math.Ceil((1-alpha)*float64(len(rs))))-1)]
	e.P = math.Min(1, 2*float64(min(below, above))/float64(len(rs)))
	return e
}

// blockLength is the moving-block bootstrap's block for series x: at least
// n^⅓, and at least the first lag at which x's autocorrelation falls
// inside the ±2/√n band of a series without any (so samples a burst
// correlated fall in one block), at most n/4.
func blockLength(x []float64) int {
	n := len(x)
	l := max(1, int(math.Ceil(math.Cbrt(float64(n)))))
	if n < 8 {
		return l
	}
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	var v0 float64
	for _, v := range x {
		v0 += (v - mean) * (v - mean)
	}
	if v0 == 0 {
		return l
	}
	band := 2 / math.Sqrt(float64(n))
	for lag := 1; lag <= n/4; lag++ {
		var c float64
		for i := lag; i < n; i++ {
			c += (x[i] - mean) * (x[i-lag] - mean)
		}
		if c/v0 < band {
			return max(l, lag)
		}
	}
	return max(l, n/4)
}

// blockIndices appends n indices of [0, n): random blocks of l consecutive
// ones (a moving-block resample).
func blockIndices(rng *rand.Rand, n, l int, idx []int) []int {
	l = max(1, min(l, n))
	for len(idx) < n {
		s := rng.IntN(n - l + 1)
		for j := s; j < s+l && len(idx) < n; j++ {
			idx = append(idx, j)
		}
	}
	return idx
}

func gather(x []float64, idx []int, out []float64) []float64 {
	for _, i := range idx {
		out = append(out, x[i])
	}
	return out
}

func logs(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Log(math.Max(v, 1e-3))
	}
	return out
}

// median of x (not modified).
func median(x []float64) float64 { return medianInPlace(slices.Clone(x)) }

// medianInPlace is the median of x, reordering x.
func medianInPlace(x []float64) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// seedOf derives a repeatable seed from samples.
func seedOf(xs ...[]float64) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range xs {
		for _, v := range x {
			h ^= math.Float64bits(v)
			h *= 1099511628211
		}
	}
	return h
}
