//go:build linux

package timing

import (
	"time"

	"golang.org/x/sys/unix"
)

// haveThreadCPU says whether threadCPU reads the calling thread's CPU
// time here.
const haveThreadCPU = true

// threadCPU is the calling OS thread's CPU time (user and system) so far
// (CLOCK_THREAD_CPUTIME_ID: what the scheduler accounted to the thread,
// in nanoseconds; time spent waiting for a CPU is not in it).
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
