package main

// How every figure is taken (bench/cpu_numpy.py does the same for numpy and
// OpenBLAS, and the limits in peak.go too): after two warm-up calls, calls
// are timed in batches of n, with n chosen so that a batch lasts at least
// minSample (the clock's resolution and the call of time.Now then cost
// under 0.1%); a sample is a batch's time divided by n. Samples are taken
// until the case's budget is spent, at least minSamples and at most
// maxSamples, and the figure is their median. A median, not the fastest
// sample: on a shared machine the minimum is the one lucky moment, and a
// limit measured as a best would be compared with a typical kernel. The
// spread the report shows is over rounds (bench/cpu.sh runs several),
// each round's figure being this median.

import (
	"slices"
	"time"
)

const (
	minSample  = 500 * time.Microsecond
	minSamples = 5
	maxSamples = 25
)

// measure returns the median time per call of f.
func measure(budget time.Duration, f func()) time.Duration {
	f() // warm-up: compiles kernels, touches memory
	f()
	n := 1
	for {
		t0 := time.Now()
		for i := 0; i < n; i++ {
			f()
		}
		d := time.Since(t0)
		if d >= minSample || n >= 1<<20 {
			break
		}
		// Aim for twice minSample so the next batch passes.
		n = max(n*2, int(float64(n)*2*float64(minSample)/float64(max(d, 1))))
	}
	var s []time.Duration
	t0 := time.Now()
	for len(s) < minSamples || len(s) < maxSamples && time.Since(t0) < budget {
		b := time.Now()
		for i := 0; i < n; i++ {
			f()
		}
		s = append(s, time.Since(b)/time.Duration(n))
	}
	slices.Sort(s)
	return median(s)
}

// median of sorted durations.
func median(s []time.Duration) time.Duration {
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
