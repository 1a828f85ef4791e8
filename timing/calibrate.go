package timing

import (
	"math"
	"time"
)

// Calibration rule. One sample must be long enough that neither the clock
// nor the synchronization matter, and short enough that the budget holds
// enough samples for an interval:
//
//	target = max(Budget/100, 1000 × timer resolution, 100 × empty-sync cost)
//
// (the clock then contributes ≤ 0.1% and one sync ≤ 1% of a sample).
// Starting from n = 1, a sample of n calls is timed; while it is shorter
// than target, n grows to the prediction target/(time per call) × 1.2,
// but at most 100× and at least n+1 per round, rounded up to 1, 2, 3 or 5
// × 10^k — the rule of Go's testing.B (predictN), so n reads the same way
// to Go users. Calibration stops when a sample reaches target (and a
// second sample of the same n does too: a sample that was long only
// because the process was pre-empted does not stop it) or n reaches
// MaxLoops.
const (
	resolutionFactor = 1000
	syncFactor       = 100
	samplesPerBudget = 100
	// MaxLoops caps calibrated loops per sample.
	MaxLoops = 1_000_000_000
)

// SampleTarget returns the duration one sample should last under the
// calibration rule.
func SampleTarget(budget, resolution, syncCost time.Duration) time.Duration {
	t := budget / samplesPerBudget
	t = max(t, resolutionFactor*resolution)
	t = max(t, syncFactor*syncCost)
	return t
}

// PredictN returns the next loop count after a sample of n calls took
// elapsed, aiming at target (see the calibration rule above).
func PredictN(n int, elapsed, target time.Duration) int {
	var next int
	if elapsed <= 0 {
		next = n * 100
	} else {
		next = int(math.Min(1.2*float64(target)*float64(n)/float64(elapsed), float64(MaxLoops)))
	}
	next = min(next, 100*n)
	next = max(next, n+1)
	return min(RoundUp(next), MaxLoops)
}

// RoundUp rounds n up to 1, 2, 3 or 5 times a power of ten.
func RoundUp(n int) int {
	if n <= 1 {
		return 1
	}
	base := 1
	for base*10 <= n {
		base *= 10
	}
	for _, m := range []int{1, 2, 3, 5, 10} {
		if m*base >= n {
			return m * base
		}
	}
	return 10 * base
}

// TimerResolution estimates the clock's resolution: the smallest non-zero
// step seen between consecutive readings, over several tries.
func TimerResolution(c Clock) time.Duration {
	best := time.Duration(math.MaxInt64)
	for range 20 {
		t0 := c.Now()
		t1 := t0
		for i := 0; t1 == t0 && i < 1_000_000; i++ {
			t1 = c.Now()
		}
		if d := t1 - t0; d > 0 && d < best {
			best = d
		}
	}
	if best == time.Duration(math.MaxInt64) {
		return time.Microsecond
	}
	return best
}
