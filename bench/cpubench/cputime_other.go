//go:build !unix

package main

import "time"

// cpuTime is 0 where getrusage is missing: the per-CPU-second figures
// are then left out (perCPUSecond returns 0).
func cpuTime() time.Duration { return 0 }
