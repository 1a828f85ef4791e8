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
// from RDTSC (22 ns there) scaled to nanoseconds.
//
// The counter is mapped to the monotonic clock by a chain of anchors: a
// piecewise-linear, strictly increasing function of the counter reading.
// The first anchor comes from a calibration over tscCalibrate (without
// waiting: until it ends, stamps come from the monotonic clock); then,
// every tscSlewEvery, a new anchor continues the function from where the
// last one reached, with the scale recomputed over the whole run and
// nudged (by at most 1%) so the stamps come back to the monotonic clock
// over the next interval. Because a stamp is a function of the counter
// alone, and the invariant counter is shared by every core, stamps taken
// one after the other on any goroutines never go back.
//
// Every pairing of the counter with the monotonic clock (the calibration's
// and each renewal's) is a reading of the monotonic clock bracketed by two
// of the counter's and is used only when the bracket is tight (under
// tscMaxBracket): a goroutine descheduled between the two readings, which
// on a loaded machine happens for milliseconds, would otherwise pair a
// counter value with a clock reading taken much later and skew the scale
// (an earlier version did that, and under load 17–45 a profile showed a
// kernel starting 4.8 ms before it was enqueued). A loose pairing is
// dropped and retried on a later stamp.
//
// The stated error bound, tscErrorBound: a stamp is within it of the
// monotonic clock read at the same moment, once the first renewal has run
// (TestClockHammer checks it from several goroutines beside CPU hogs).
// Elsewhere a stamp is time.Since(clockBase).

// stamp is a reading of the monotonic clock in ns since clockBase.
type stamp int64

var clockBase = time.Now()

// time is the stamp as a time.Time (for profile events).
func (s stamp) time() time.Time { return clockBase.Add(time.Duration(s)) }

// tscAnchor maps counter readings to stamps: at tick c0 the stamp is t0,
// and each tick after it is mult ns. Anchors are immutable; the current one
// is replaced whole. prev is the anchor before it (whose own prev is nil),
// for readings taken before c0 by a goroutine that loaded the new anchor
// after reading the counter.
type tscAnchor struct {
	c0   uint64
	t0   float64
	mult float64
	next uint64 // the tick after which the anchor is renewed
	prev *tscAnchor
}

// at is the stamp of reading c: on a's segment, or on prev's for a reading
// taken before a began.
func (a *tscAnchor) at(c uint64) float64 {
	if int64(c-a.c0) < 0 && a.prev != nil {
		a = a.prev
	}
	// Signed: a reading before the first anchor extrapolates back.
	return a.t0 + float64(int64(c-a.c0))*a.mult
}

// tscClock is the process's counter clock: first (the calibration's first
// reading, then the scale it found) and cur (renewed every tscSlewEvery).
// Nil cur: stamps come from the monotonic clock (before calibration ends,
// or with no usable counter). dropped counts pairings refused as loose.
type tscClock struct {
	first   tscAnchor
	pending atomic.Bool // begun, not yet finished
	cur     atomic.Pointer[tscAnchor]
	read    func() (uint64, bool)
	dropped atomic.Int64
}

const (
	tscCalibrate  = 500 * time.Microsecond // the first scale's baseline
	tscSlewEvery  = 50 * time.Millisecond
	tscMaxBracket = 20 * time.Microsecond // the widest pairing used
	// tscErrorBound: how far a stamp may be from the monotonic clock read
	// at the same moment after the first renewal. Half the widest pairing
	// (the offset's uncertainty at a renewal), plus the scale's error over
	// one interval (at most 2 × 10 µs over the 0.5 ms calibration,
	// 4% of 50 ms, before the first renewal; then two widest pairings
	// over the run, under 1% × 20 µs), plus the slew's limit: the offset
	// left over when it exceeds 1% of an interval (only after a clock
	// step, which the monotonic clock does not take).
	tscErrorBound = tscMaxBracket/2 + 2*tscMaxBracket
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

// begin takes the calibration's first reading, retried until one is
// tight. A counter that read reports unusable leaves the clock on mono.
func (k *tscClock) begin(read func() (uint64, bool), mono func() int64) {
	if _, ok := read(); !ok {
		return
	}
	k.read = read
	for range 100 {
		if c0, t0, ok := k.pair(mono); ok {
			k.first = tscAnchor{c0: c0, t0: float64(t0)}
			k.pending.Store(true)
			return
		}
	}
}

// finish ends the calibration once mono (m now) is tscCalibrate past its
// first reading: one caller computes the scale and, when its pairing is
// tight and the scale plausible, installs the first anchor; otherwise a
// later stamp tries again.
func (k *tscClock) finish(m int64, mono func() int64) {
	if time.Duration(m-int64(k.first.t0)) < tscCalibrate || !k.pending.CompareAndSwap(true, false) {
		return
	}
	c1, t1, ok := k.pair(mono)
	c0, t0 := k.first.c0, int64(k.first.t0)
	if !ok {
		k.pending.Store(true)
		return
	}
	mult := float64(t1-t0) / float64(c1-c0)
	if !(c1 > c0 && mult > 0.01 && mult < 100) { // 10 MHz to 100 GHz
		return
	}
	k.first.mult = mult
	k.cur.Store(&tscAnchor{c0: c1, t0: float64(t1), mult: mult, next: c1 + uint64(float64(tscSlewEvery)/mult)})
}

// pair reads mono between two counter readings, the tightest of a few,
// and reports whether that one was within tscMaxBracket (measured on the
// counter at the first anchor's scale once there is one, else on mono
// read around the bracket).
func (k *tscClock) pair(mono func() int64) (c uint64, t int64, ok bool) {
	width := uint64(1 << 63)
	m0 := mono()
	for range 4 {
		a, _ := k.read()
		m := mono()
		b, _ := k.read()
		if b >= a && b-a < width {
			width, c, t = b-a, a+(b-a)/2, m
		}
	}
	var ns float64
	if k.first.mult > 0 {
		ns = float64(width) * k.first.mult
	} else {
		// Before the scale is known: the whole loop, on mono, bounds the
		// tightest bracket.
		ns = float64(mono() - m0)
	}
	return c, t, ns <= float64(tscMaxBracket)
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

// now returns the stamp of counter reading c, taken before a was loaded,
// renewing the anchor when it is due (mono is the monotonic clock, read
// only then).
func (k *tscClock) now(a *tscAnchor, c uint64, mono func() int64) stamp {
	if int64(c-a.next) < 0 {
		return stamp(a.at(c))
	}
	k.renew(a, mono)
	// Whichever anchor is current now (this goroutine's, another's, or a
	// still: a loose pairing was dropped), c is on it or on its prev.
	return stamp(k.cur.Load().at(c))
}

// renew installs the anchor after a from a tight pairing taken now (so
// after every reading that used a): the scale of the whole run, plus the
// slew that brings the stamps back to mono over the next interval (at
// most 1% of the scale).
func (k *tscClock) renew(a *tscAnchor, mono func() int64) {
	c, m, ok := k.pair(mono)
	if !ok || int64(c-a.c0) <= 0 {
		k.dropped.Add(1)
		return
	}
	t := a.at(c)
	rate := (float64(m) - k.first.t0) / float64(int64(c-k.first.c0))
	ticks := float64(tscSlewEvery) / rate
	slew := (float64(m) - t) / ticks
	slew = max(-rate/100, min(rate/100, slew))
	prev := *a
	prev.prev = nil
	k.cur.CompareAndSwap(a, &tscAnchor{c0: c, t0: t, mult: rate + slew, next: c + uint64(ticks), prev: &prev})
}

// monoNow returns the stamp of now.
func monoNow() stamp {
	if clock.cur.Load() != nil {
		// The counter first, then the anchor: the anchor loaded is the one
		// current at the reading or a later one (whose prev covers it).
		if c, ok := readTSC(); ok {
			return clock.now(clock.cur.Load(), c, monoNS)
		}
	}
	m := monoNS()
	if clock.pending.Load() {
		clock.finish(m, monoNS)
	}
	return stamp(m)
}
