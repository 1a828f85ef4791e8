//go:build linux

package timing

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestThreadRunDelayCountsWaitingForACPU: two threads pinned to one CPU,
// both busy: the one reading ThreadRunDelay must have waited while the
// other ran (the kernel's CFS shares a CPU between runnable threads).
func TestThreadRunDelayCountsWaitingForACPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if ThreadRunDelay() < 0 {
		t.Skip("no /proc/thread-self/schedstat here (schedstats off)")
	}
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		t.Skip(err)
	}
	var one unix.CPUSet
	one.Set(firstCPU(&old))
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		t.Skip(err)
	}
	defer unix.SchedSetaffinity(0, &old)
	var stopped atomic.Bool
	started := make(chan struct{})
	go func() { // a competitor on the same CPU
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := unix.SchedSetaffinity(0, &one); err != nil {
			close(started)
			return
		}
		close(started)
		for !stopped.Load() { // busy: the CPU's other runnable thread
		}
	}()
	<-started
	d0, c0, t0 := ThreadRunDelay(), ThreadCPU(), time.Now()
	for end := t0.Add(300 * time.Millisecond); time.Now().Before(end); {
	}
	d1, c1, wall := ThreadRunDelay(), ThreadCPU(), time.Since(t0)
	stopped.Store(true)
	if d1 <= d0 {
		t.Fatalf("sharing one CPU with a busy thread for 300 ms, the run-queue wait went from %v to %v: not counted", d0, d1)
	}
	if cpu := c1 - c0; cpu <= 0 || cpu >= wall {
		t.Errorf("the thread's CPU time over %v of sharing a CPU: %v, want some but not all of it", wall, cpu)
	}
	t.Logf("waited %v for the CPU and ran %v in %v of sharing it", d1-d0, c1-c0, wall)
}

func firstCPU(s *unix.CPUSet) int {
	for i := 0; i < 1024; i++ {
		if s.IsSet(i) {
			return i
		}
	}
	return 0
}

// TestWatchSchedSeesAThreadWaitForACPU: WatchSched, as a loop timed by
// hand uses it, reports the process's run-queue wait over the watched
// time: two busy threads of the process pinned to one CPU must show it
// (and the wall time watched).
func TestWatchSchedSeesAThreadWaitForACPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if ThreadRunDelay() < 0 {
		t.Skip("no /proc/thread-self/schedstat here (schedstats off)")
	}
	var old, one unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		t.Skip(err)
	}
	one.Set(firstCPU(&old))
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		t.Skip(err)
	}
	defer unix.SchedSetaffinity(0, &old)
	var stopped atomic.Bool
	started := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		unix.SchedSetaffinity(0, &one)
		close(started)
		for !stopped.Load() {
		}
	}()
	<-started
	since := WatchSched()
	for end := time.Now().Add(200 * time.Millisecond); time.Now().Before(end); {
	}
	sc := since()
	stopped.Store(true)
	if sc.Wall < 200*time.Millisecond || sc.CPU <= 0 {
		t.Fatalf("watched 200 ms of spinning: %+v", sc)
	}
	if sc.RunDelay <= 0 || sc.Descheduled() <= 0 {
		t.Fatalf("two busy threads sharing one CPU for %v: run-queue wait %v (descheduled %.2f), want it counted", sc.Wall, sc.RunDelay, sc.Descheduled())
	}
	t.Logf("%+v, descheduled %.2f", sc, sc.Descheduled())
}
