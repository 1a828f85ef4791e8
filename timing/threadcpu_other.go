//go:build !linux

package timing

import "time"

// haveThreadCPU says whether threadCPU reads the calling thread's CPU
// time: only on Linux (CLOCK_THREAD_CPUTIME_ID); elsewhere results have
// no CPU figure and Spin waits on the wall clock.
const haveThreadCPU = false

// threadCPU returns 0: not measured on this system.
func threadCPU() time.Duration { return 0 }
