//go:build !unix

package main

import "time"

// cpuTime is 0 where getrusage does not exist: the CPU-time column then
// reads 0 (bench/mlp.sh runs on Linux).
func cpuTime() time.Duration { return 0 }
