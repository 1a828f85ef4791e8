package timing

import (
	"context"
	"math"
	"os"
	"testing"
	"time"
)

// busy returns a target whose statement busy-waits d per call.
func busy(d time.Duration) Target {
	return Target{Call: func(n int) error {
		for range n {
			t0 := time.Now()
			for time.Since(t0) < d {
			}
		}
		return nil
	}}
}

// TestAccuracy measures statements that busy-wait a known time on the real
// clock and checks the reported median is within 2%. It takes several
// seconds of CPU, so it runs only with TICK_ACCURACY=1:
//
//	TICK_ACCURACY=1 go test ./timing -run Accuracy -v
func TestAccuracy(t *testing.T) {
	if os.Getenv("TICK_ACCURACY") == "" {
		t.Skip("set TICK_ACCURACY=1 to measure accuracy on the real clock")
	}
	for _, d := range []time.Duration{10 * time.Microsecond, 100 * time.Microsecond, time.Millisecond} {
		empty := Target{Call: func(n int) error {
			for range n {
			}
			return nil
		}}
		r, err := Measure(context.Background(), busy(d), Options{Budget: time.Second, Floor: &empty})
		if err != nil {
			t.Fatal(err)
		}
		errPct := 100 * (r.Stats.Median - float64(d)) / float64(d)
		t.Logf("busy %v: median %s (%+.2f%%), 95%% CI [%s, %s], %d × %d loops, floor %s, timer %s",
			d, FormatDuration(r.Stats.Median, 4), errPct, FormatDuration(r.Stats.CILo, 4), FormatDuration(r.Stats.CIHi, 4),
			r.Repeats, r.Loops, FormatDuration(r.Floor, 3), FormatDuration(float64(r.Resolution), 3))
		if math.Abs(errPct) > 2 {
			t.Errorf("busy %v: reported %s, off by %.2f%% (limit 2%%)\n%s", d, FormatDuration(r.Stats.Median, 4), errPct, r.Text(4))
		}
	}
	// The empty statement: what is left after the floor is subtracted.
	empty := Target{Call: func(n int) error {
		for range n {
		}
		return nil
	}}
	r, err := Measure(context.Background(), empty, Options{Budget: 500 * time.Millisecond, Floor: &empty})
	if err != nil {
		t.Fatal(err)
	}
	raw := Summarize(r.Measured(), 0.95)
	t.Logf("empty statement: raw %s per loop, floor %s per loop, reported %s per loop (%d loops)",
		FormatDuration(raw.Median, 3), FormatDuration(r.Floor, 3), FormatDuration(r.Stats.Median, 3), r.Loops)
	// An asynchronous device timed without sync: 1 µs to enqueue, 50 µs of work.
	async := asyncTarget(time.Microsecond, 50*time.Microsecond)
	for _, m := range []SyncMode{SyncNone, SyncSample} {
		r, err := Measure(context.Background(), async, Options{Budget: 500 * time.Millisecond, Sync: m})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("async 1 µs enqueue + 50 µs device, --sync=%s: %s per loop, warning %v", m, FormatDuration(r.Stats.Median, 3), r.Has(WarnEnqueueOnly))
		if (m == SyncNone) != r.Has(WarnEnqueueOnly) {
			t.Errorf("--sync=%s: enqueue-only warning %v", m, r.Has(WarnEnqueueOnly))
		}
	}
}

// asyncTarget models an asynchronous device on the real clock: a call
// busy-waits enqueue and queues work; the device is busy until all queued
// work would have finished; Sync busy-waits until then.
func asyncTarget(enqueue, work time.Duration) Target {
	var free time.Time
	spin := func(until time.Time) {
		for time.Now().Before(until) {
		}
	}
	return Target{
		Call: func(n int) error {
			for range n {
				spin(time.Now().Add(enqueue))
				free = later(free, time.Now()).Add(work)
			}
			return nil
		},
		Sync:  func() error { spin(free); return nil },
		Probe: func() Probe { return Probe{Async: true} },
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
