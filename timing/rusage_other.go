//go:build !unix

package timing

import "time"

// haveRusage says whether rusage measures the process's CPU time here:
// getrusage is Unix only, so %time says CPU times are not measured.
const haveRusage = false

// rusage returns zero: the CPU time is not measured on this system.
func rusage() (user, sys time.Duration) { return 0, 0 }
