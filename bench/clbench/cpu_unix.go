//go:build unix

package main

import "syscall"

// cpuSeconds is this process's user + system CPU time in seconds, every
// thread's (pocl's worker threads and the CPU device's included), or 0
// when the kernel does not say.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
