package tensor

import (
	"sync/atomic"
	"time"
)

// The runtime reads the clock several times per eager op (one phase
// boundary each: graph, schedule, alloc, launch, device), so the clock's own
// cost shows in the op's: time.Since costs 45 ns on the project's VM,
// about a sixth of the eager path. Where the CPU has an invariant
// time-stamp counter (amd64 with constant_tsc and nonstop_tsc), stamps come
// from RDTSC (22 ns there) scaled to nanoseconds, and stay within a few
// microseconds of the monotonic clock: every tscSlewEvery the scale is
// recomputed from the whole run and nudged to absorb the difference over
// the next interval, continuously, so a stamp never jumps and durations
// are never negative. Elsewhere a stamp is time.Since(clockBase).

// stamp is a reading of the monotonic clock in ns since clockBase.
type stamp int64

var clockBase = time.Now()

// time is the stamp as a time.Time (for profile events).
func (s stamp) time() time.Time { return clockBase.Add(time.Duration(s)) }

// tscAnchor maps counter readings to stamps: at tick c0 the stamp is t0,
// and each tick after it is mult ns. Anchors are immutable; the current one
// is replaced whole.
type tscAnchor struct {
	c0   uint64
	t0   float64
	mult float64
	next uint64 // the tick after which the anchor is renewed
}

// tscClock is the process's counter clock: first (the calibration, fixed)
// and cur (renewed every tscSlewEvery). Nil cur: no usable counter.
type tscClock struct {
	first tscAnchor
	cur   atomic.Pointer[tscAnchor]
}

const (
	tscCalibrate = 500 * time.Microsecond // the first scale's baseline
	tscSlewEvery = 50 * time.Millisecond
)

// clock is process-wide because the counters it serves are.
var clock tscClock

func init() {
	mono := func() int64 { return int64(time.Since(clockBase)) }
	if readCost(func() { readTSC() }) < readCost(func() { mono() }) {
		clock.start(readTSC, mono)
	}
}

// start calibrates the counter against mono (ns since clockBase) over
// tscCalibrate, from readings of mono bracketed by two of the counter
// (the tightest of a few, so a preemption between them cannot skew the
// scale). A counter that read reports unusable, or whose scale is not
// plausible, leaves the clock on mono.
func (k *tscClock) start(read func() (uint64, bool), mono func() int64) {
	if _, ok := read(); !ok {
		return
	}
	sample := func() (c uint64, t int64) {
		width := uint64(1 << 63)
		for range 8 {
			a, _ := read()
			m := mono()
			b, _ := read()
			if b >= a && b-a < width {
				width, c, t = b-a, a+(b-a)/2, m
			}
		}
		return c, t
	}
	c0, t0 := sample()
	for time.Duration(mono()-t0) < tscCalibrate {
	}
	c1, t1 := sample()
	mult := float64(t1-t0) / float64(c1-c0)
	if !(c1 > c0 && mult > 0.01 && mult < 100) { // 10 MHz to 100 GHz
		return
	}
	k.first = tscAnchor{c0: c0, t0: float64(t0), mult: mult}
	k.cur.Store(&tscAnchor{c0: c1, t0: float64(t1), mult: mult, next: c1 + uint64(float64(tscSlewEvery)/mult)})
}

// readCost is the best of a few timings of 64 calls of f.
func readCost(f func()) time.Duration {
	best := time.Duration(1 << 62)
	for range 5 {
		t0 := time.Now()
		for range 64 {
			f()
		}
		best = min(best, time.Since(t0))
	}
	return best
}

// now returns the stamp of counter reading c, renewing the anchor when it
// is due (mono is the monotonic clock, read only then).
func (k *tscClock) now(a *tscAnchor, c uint64, mono func() int64) stamp {
	// Signed: a reading on another core may trail the anchor's by a few
	// ticks.
	t := a.t0 + float64(int64(c-a.c0))*a.mult
	if int64(c-a.next) < 0 {
		return stamp(t)
	}
	// The scale of the whole run, plus the slew that brings the stamps
	// back to mono over the next interval (at most 1% of the scale).
	m := mono()
	rate := (float64(m) - k.first.t0) / float64(int64(c-k.first.c0))
	ticks := float64(tscSlewEvery) / rate
	slew := (float64(m) - t) / ticks
	slew = max(-rate/100, min(rate/100, slew))
	k.cur.CompareAndSwap(a, &tscAnchor{c0: c, t0: t, mult: rate + slew, next: c + uint64(ticks)})
	return stamp(t)
}

// monoNow returns the stamp of now.
func monoNow() stamp {
	if a := clock.cur.Load(); a != nil {
		if c, ok := readTSC(); ok {
			return clock.now(a, c, func() int64 { return int64(time.Since(clockBase)) })
		}
	}
	return stamp(time.Since(clockBase))
}
