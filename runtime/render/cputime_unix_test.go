//go:build unix

package render

import (
	"syscall"
	"time"
)

// childrenCPU is the user + system time of the process's waited-for
// children so far (the C compiler's runs).
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
