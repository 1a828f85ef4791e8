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
// piecewise-linear, non-decreasing function of the counter reading. The
// first anchor comes from a calibration over tscCalibrate (without
// waiting: until it ends, stamps come from the monotonic clock). An anchor
// is a line valid up to a counter value (next, at most tscSlewEvery and at
// most the run so far after its start) and is never extrapolated past it:
// the first reading past it makes the next anchor from a fresh pairing of
// the counter with the monotonic clock, and its stamp lies on the bridge
// from where the old line ended to that pairing. So an idle gap of any
// length costs nothing in accuracy. (An earlier version extrapolated the
// last line, with its slew, until the next stamp came: a slew of 2×10⁻⁴,
// from a 10 µs pairing error, put the first stamp after a one-second idle
// gap 200 µs off, and the slew needed several intervals to bring the
// stamps back; CI saw 1.2 ms under load.)
//
// A new line starts at the pairing's reading of the monotonic clock, or at
// the old line's end if that is later (stamps never go back), with the
// scale of the whole run, slowed so that it meets the monotonic clock at
// its end when it started ahead of it. Because a stamp is a function of
// the counter alone, the invariant counter is shared by every core, and a
// goroutine loads the anchor before it reads the counter (so its reading is
// never before the anchor's own pairing, bar a few ns of reordering the
// bridge covers), stamps taken one after the other on any goroutines never
// go back.
//
// Every pairing is a reading of the monotonic clock bracketed by two of the
// counter's and is used only when the bracket is tight (under
// tscMaxBracket): a goroutine descheduled between the two readings, which
// on a loaded machine happens for milliseconds, would otherwise pair a
// counter value with a clock reading taken much later. A loose pairing is
// retried at once; after tscRetries loose ones in a row the stamps come
// from the monotonic clock (never below the last line's end) for good.
//
// The stated error bound, tscErrorBound: a stamp is within it of the
// monotonic clock read at the same moment, always (TestClockHammer and
// TestMonoNowIsTheMonotonicClock check it beside CPU hogs,
// TestTSCClockIdleGaps after idle gaps with pairings at the widest
// accepted). A pairing is within half its bracket of the truth, the scale
// of the whole run is off by at most two half-brackets over the run, and
// an interval is never longer than the run, so a line ends within 1.5
// brackets of the monotonic clock and starts within that (the old line's
// end) or half a bracket; between the two the error is between the ends'.
// What is not covered: the monotonic clock's own rate changing within an
// interval (NTP frequency steps; the project's VMs run no NTP), and a
// counter that differs between cores (Linux then stops using it as its
// clock source; this one reads it only where its CPU says it is
// invariant). Elsewhere a stamp is time.Since(clockBase), exact.

// stamp is a reading of the monotonic clock in ns since clockBase.
type stamp int64

var clockBase = time.Now()

// time is the stamp as a time.Time (for profile events).
func (s stamp) time() time.Time { return clockBase.Add(time.Duration(s)) }

// tscAnchor maps counter readings to stamps: from tick c0 up to next the
// stamp is t0 plus mult ns a tick; a reading before c0 (taken while the
// anchor was being made, or just before the goroutine loaded it) lies on
// the bridge from (bc, bt), where the anchor before it ended, to (c0, t0),
// or on prev's line before bc. Anchors are immutable; the current one is
// replaced whole. The last anchor of a clock that gave up the counter has
// mult 0: stamps are the monotonic clock's, never below t0.
type tscAnchor struct {
	c0    uint64
	t0    float64
	mult  float64
	next  uint64 // the first tick past the line: renew
	bc    uint64
	bt    float64
	bmult float64
	prev  *tscAnchor // the anchor before (its own prev is nil)
}

// at is the stamp of reading c, which is before a.next.
func (a *tscAnchor) at(c uint64) float64 {
	if d := int64(c - a.c0); d >= 0 {
		return a.t0 + float64(d)*a.mult
	}
	if int64(c-a.bc) < 0 && a.prev != nil && a.prev.mult > 0 {
		return a.prev.at(c)
	}
	return a.bt + float64(int64(c-a.bc))*a.bmult
}

// end is the value the line reaches at next (the largest stamp it gave).
func (a *tscAnchor) end() float64 { return a.t0 + float64(int64(a.next-a.c0))*a.mult }

// tscClock is the process's counter clock: first (the calibration's first
// pairing, then the scale it found) and cur (renewed past its end). Nil
// cur: stamps come from the monotonic clock (before calibration ends, or
// with no usable counter). dropped counts loose pairings; gaveUp says the
// clock went back to the monotonic clock after tscRetries in a row.
type tscClock struct {
	first   tscAnchor
	pending atomic.Bool // begun, not yet finished
	cur     atomic.Pointer[tscAnchor]
	read    func() (uint64, bool)
	dropped atomic.Int64
	gaveUp  atomic.Bool
}

const (
	tscCalibrate  = 500 * time.Microsecond // the first scale's baseline
	tscSlewEvery  = 50 * time.Millisecond  // the longest line
	tscMaxBracket = 2 * time.Microsecond   // the widest pairing used
	tscRetries    = 16                     // loose pairings in a row before giving up the counter
	// tscErrorBound: how far a stamp may be from the monotonic clock read
	// at the same moment: two brackets (see above: 1.5, and the first
	// line starts up to one bracket ahead so that no stamp the monotonic
	// clock gave during the calibration is after it), with room for the
	// kernel's own rounding of the monotonic clock.
	tscErrorBound = 2*tscMaxBracket + tscMaxBracket/4
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
		if c0, t0, _, ok := k.pair(mono); ok {
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
	c1, t1, hw, ok := k.pair(mono)
	c0, t0 := k.first.c0, int64(k.first.t0)
	if !ok {
		k.dropped.Add(1)
		k.pending.Store(true)
		return
	}
	mult := float64(t1-t0) / float64(c1-c0)
	if !(c1 > c0 && mult > 0.01 && mult < 100) { // 10 MHz to 100 GHz
		return
	}
	k.first.mult = mult
	// Until now stamps were the monotonic clock's: the line starts at the
	// latest the truth can be at c1, so none of those is after it.
	start := float64(t1) + hw
	k.cur.Store(&tscAnchor{c0: c1, t0: start, mult: mult, next: c1 + (c1 - c0),
		bc: c0, bt: float64(t0), bmult: (start - float64(t0)) / float64(c1-c0)})
}

// pair reads mono between two counter readings, the tightest of a few,
// and reports its half width in ns and whether the bracket was within
// tscMaxBracket (measured on the counter at the calibration's scale once
// there is one, else on mono read around the bracket).
func (k *tscClock) pair(mono func() int64) (c uint64, t int64, hw float64, ok bool) {
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
	return c, t, ns / 2, ns <= float64(tscMaxBracket)
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

// now returns the stamp of counter reading c, taken after a was loaded,
// renewing the anchor when c is past it (mono is the monotonic clock, read
// only then).
func (k *tscClock) now(a *tscAnchor, c uint64, mono func() int64) stamp {
	if int64(c-a.next) < 0 && a.mult > 0 {
		return stamp(a.at(c))
	}
	return k.renew(a, c, mono)
}

// renew returns the stamp of reading c, past a's line or on a clock that
// gave up the counter: it installs the anchor after a from a tight pairing
// taken now, unless another goroutine did first (then c is on that one, or
// past it too: the loop goes on from it).
func (k *tscClock) renew(a *tscAnchor, c uint64, mono func() int64) stamp {
	for loose := 0; ; {
		if int64(c-a.next) < 0 {
			if a.mult > 0 {
				return stamp(a.at(c))
			}
			return stamp(max(float64(mono()), a.t0))
		}
		if b := k.cur.Load(); b != a {
			a = b
			continue
		}
		c1, m1, _, ok := k.pair(mono)
		var b *tscAnchor
		switch {
		case ok:
			b = k.line(a, c1, m1)
		case loose+1 < tscRetries:
			loose++
			k.dropped.Add(1)
			continue
		default:
			// No tight pairing to be had (the monotonic clock has become
			// slow to read, or the machine keeps preempting this thread
			// between two reads): the monotonic clock from now on, never
			// below the last line's end.
			k.dropped.Add(1)
			k.gaveUp.Store(true)
			b = &tscAnchor{c0: c, t0: a.end(), next: c + 1<<62}
		}
		k.cur.CompareAndSwap(a, b)
		a = k.cur.Load()
	}
}

// line is the anchor after a from the pairing (c1, m1): it starts at m1,
// or at the largest stamp a gave if that is later, and has the scale of the whole run, slowed so it meets the monotonic clock
// at its end; it lasts tscSlewEvery, or the run so far if shorter (so the
// scale's error over it stays within a bracket). Readings between a's end
// and c1 lie on the bridge between the two.
func (k *tscClock) line(a *tscAnchor, c1 uint64, m1 int64) *tscAnchor {
	m, e := float64(m1), a.end()
	t := max(m, e)
	rate := (m - k.first.t0) / float64(int64(c1-k.first.c0))
	ticks := min(float64(tscSlewEvery)/rate, float64(c1-k.first.c0))
	mult := max(rate+(m-t)/ticks, rate/2)
	bc := a.next
	prev := *a
	prev.prev = nil
	return &tscAnchor{c0: c1, t0: t, mult: mult, next: c1 + uint64(ticks),
		bc: bc, bt: e, bmult: (t - e) / float64(max(int64(c1-bc), 1)), prev: &prev}
}

// monoNow returns the stamp of now.
func monoNow() stamp {
	// The anchor first, then the counter: the reading is not before the
	// anchor's pairing, so it is on the anchor's line, its bridge, or past
	// its end (a renewal).
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
