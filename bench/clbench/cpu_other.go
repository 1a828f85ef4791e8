//go:build !unix

package main

// cpuSeconds is 0 where getrusage is not available: the suite prints no
// per-CPU-second rates.
func cpuSeconds() float64 { return 0 }
