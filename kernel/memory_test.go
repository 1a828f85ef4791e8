package kernel

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/session"
)

// burstRunner is a session whose cells allocate a burst (more than
// burstBytes) and report whether the releaser saw them running.
type burstRunner struct {
	session.Runner // nil: only Execute is called
	mem            *releaser
	sawRunning     bool
	keep           []byte
}

func (b *burstRunner) Execute(context.Context, session.Cell, session.Sink) session.Result {
	b.sawRunning = b.mem.running.Load() == 1
	b.keep = make([]byte, burstBytes+1<<20)
	b.keep[len(b.keep)-1] = 1
	return session.Result{}
}

// TestReleasingRunnerMarksCells: the engine's wrapper marks each cell's
// start and end (before, only the kernel process did, so the engine —
// where a cell's memory is — handed it back 5 s after a burst even while
// cells ran, and the next read of a large result faulted every page in
// again), and a burst schedules a release.
func TestReleasingRunnerMarksCells(t *testing.T) {
	var freed atomic.Int32
	mem := &releaser{delay: time.Hour, free: func() { freed.Add(1) }}
	run := &burstRunner{mem: mem}
	r := releasing{run, mem}
	before := time.Now()
	r.Execute(context.Background(), session.Cell{}, nil)
	if !run.sawRunning {
		t.Error("the releaser did not see the cell running")
	}
	if n := mem.running.Load(); n != 0 {
		t.Errorf("%d cells running after the cell ended, want 0", n)
	}
	if last := mem.last.Load(); last < before.UnixNano() {
		t.Error("the cell's end was not noted")
	}
	if !mem.pending.Load() {
		t.Error("a cell that allocated more than burstBytes scheduled no release")
	}
	if freed.Load() != 0 {
		t.Error("memory was released at once, not after a pause")
	}
}

// TestReleaseWaitsForAPause: a release never runs while a cell runs, and
// waits delay after the last cell's start or end.
func TestReleaseWaitsForAPause(t *testing.T) {
	const delay = 5 * time.Second
	mem := &releaser{delay: delay}
	now := time.Now()
	mem.last.Store(now.Add(-time.Minute).UnixNano())
	if w := mem.wait(now); w > 0 {
		t.Errorf("idle for a minute: wait %v, want none", w)
	}
	mem.started()
	if w := mem.wait(time.Now().Add(time.Hour)); w != delay {
		t.Errorf("a cell running for an hour: wait %v, want %v (no release while a cell runs)", w, delay)
	}
	mem.ended()
	end := time.Unix(0, mem.last.Load())
	if w := mem.wait(end.Add(time.Second)); w != delay-time.Second {
		t.Errorf("1 s after the cell ended: wait %v, want %v", w, delay-time.Second)
	}
	if w := mem.wait(end.Add(delay)); w > 0 {
		t.Errorf("%v after the cell ended: wait %v, want none", delay, w)
	}
}
