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
// microseconds of the monotonic clock: calibrated over the first
// tscCalibrate after start (without waiting: until then stamps come from
// the monotonic clock), then every tscSlewEvery the scale is
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

// tscClock is the process's counter clock: first (the calibration's first
// reading, then the scale it found) and cur (renewed every tscSlewEvery).
// Nil cur: stamps come from the monotonic clock (before calibration ends,
// or with no usable counter).
type tscClock struct {
	first   tscAnchor
	pending atomic.Bool // begun, not yet finished
	cur     atomic.Pointer[tscAnchor]
	read    func() (uint64, bool)
}

const (
	tscCalibrate = 500 * time.Microsecond // the first scale's baseline
	tscSlewEvery = 50 * time.Millisecond
)

// clock is process-wide because the counters it serves are.
var clock tscClock

// The calibration costs nothing at start: init takes its first reading,
// and the first stamp at least tscCalibrate later finishes it.
func init() {
	if readCost(func() { readTSC() }) < readCost(func() { monoNS() }) {
		clock.begin(readTSC, monoNS)
	}
}

// monoNS is the monotonic clock in ns since clockBase.
func monoNS() int64 { return int64(time.Since(clockBase)) }

// begin takes the calibration's first reading. The readings of mono are
// bracketed by two of the counter (the tightest of a few, so a preemption
// between them cannot skew the scale). A counter that read reports
// unusable leaves the clock on mono.
func (k *tscClock) begin(read func() (uint64, bool), mono func() int64) {
	if _, ok := read(); !ok {
		return
	}
	k.read = read
	c0, t0 := k.sample(mono)
	k.first = tscAnchor{c0: c0, t0: float64(t0)}
	k.pending.Store(true)
}

// finish ends the calibration once mono (m now) is tscCalibrate past its
// first reading: one caller computes the scale and, when it is plausible,
// installs the first anchor.
func (k *tscClock) finish(m int64, mono func() int64) {
	if time.Duration(m-int64(k.first.t0)) < tscCalibrate || !k.pending.CompareAndSwap(true, false) {
		return
	}
	c1, t1 := k.sample(mono)
	c0, t0 := k.first.c0, int64(k.first.t0)
	mult := float64(t1-t0) / float64(c1-c0)
	if !(c1 > c0 && mult > 0.01 && mult < 100) { // 10 MHz to 100 GHz
		return
	}
	k.first.mult = mult
	k.cur.Store(&tscAnchor{c0: c1, t0: float64(t1), mult: mult, next: c1 + uint64(float64(tscSlewEvery)/mult)})
}

func (k *tscClock) sample(mono func() int64) (c uint64, t int64) {
	width := uint64(1 << 63)
	for range 8 {
		a, _ := k.read()
		m := mono()
		b, _ := k.read()
		if b >= a && b-a < width {
			width, c, t = b-a, a+(b-a)/2, m
		}
	}
	return c, t
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
			return clock.now(a, c, monoNS)
		}
	}
	m := monoNS()
	if clock.pending.Load() {
		clock.finish(m, monoNS)
	}
	return stamp(m)
}
