//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the process's user + system time so far (all threads: the
// device's workers included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
