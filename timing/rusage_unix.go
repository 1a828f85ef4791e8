//go:build unix

package timing

import (
	"syscall"
	"time"
)

// haveRusage says whether rusage measures the process's CPU time here.
const haveRusage = true

// rusage returns the process's user and system CPU time so far.
func rusage() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
