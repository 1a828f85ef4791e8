package timing

import "time"

// Spin busy-waits for d on the calling goroutine: a host workload of known
// cost, for checking what %timeit reports against a time you know. It is
// compiled Go, so a cell's `timing.Spin(10*time.Microsecond)` costs 10 µs
// plus one call, with none of the interpreter's cost per iteration that
// makes a busy-wait loop written in a cell overshoot (its time.Since runs
// interpreted). Spin(0) returns at once: timing it shows what one call
// from a cell into compiled code costs. For device work of known cost see
// the tensor runtime's Dev.Spin.
func Spin(d time.Duration) {
	if d <= 0 {
		return
	}
	t0 := time.Now()
	for time.Since(t0) < d {
	}
}
