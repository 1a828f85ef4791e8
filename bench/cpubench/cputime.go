package main

// Throughput per CPU-second: on a machine shared with other work, wall-clock
// rates fall with the share of the cores this process gets, the machine's
// limits too but at other moments. The process's CPU time (user + system,
// all threads) counts only the time its threads ran, so FLOPs per CPU-second
// times the number of cores is the rate the cores gave while they ran this
// work: comparable to the FMA peak measured the same way, whatever the load
// (cache and frequency effects of the other work remain).

import (
	"runtime"
	"syscall"
	"time"
)

// cpuTime is the process's user + system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// perCPUSecond runs f until it has used at least 200 ms of CPU time (at
// least 3 runs) and returns work per CPU-second times GOMAXPROCS, with
// work the amount one run does; 0 where the CPU time cannot be read.
func perCPUSecond(work float64, f func()) float64 {
	f()
	c0, n := cpuTime(), 0
	for n < 3 || cpuTime()-c0 < 200*time.Millisecond {
		f()
		n++
	}
	d := cpuTime() - c0
	if d <= 0 {
		return 0
	}
	return work * float64(n) / d.Seconds() * float64(runtime.GOMAXPROCS(0))
}
