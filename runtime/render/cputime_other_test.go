//go:build !unix

package render

import "time"

// childrenCPU is 0 where getrusage is missing (the cpu metrics read 0).
func childrenCPU() time.Duration { return 0 }
