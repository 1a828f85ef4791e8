package magic_test

import "testing"

// TestTimeitWaitsForTheAssistant: a %timeit right after a cell that
// imported packages measures what its statement allocates, not the code
// assistant type-checking those packages beside it (the first %timeit in a
// new kernel read 750 allocations per call of timing.Spin, which makes
// none, before the timing magics waited for the assistant). A completion
// request makes the assistant refresh its model after every cell, so the
// import cell starts background work in any process, and the kernel's
// start does in a new one.
func TestTimeitWaitsForTheAssistant(t *testing.T) {
	s := newSession(t)
	s.Complete("strings.", len("strings."))
	mustRun(t, s, 1, "import (\n\t\"encoding/xml\"\n\t\"net/url\"\n\t\"text/template\"\n\t\"time\"\n\n\t\"tick/timing\"\n)")
	k := mustRun(t, s, 2, "%timeit -n 20 -r 7 timing.Spin(200 * time.Microsecond)")
	r := decodeResult(t, final(t, k))
	if r.Memory.AllocsPerOp > 2 {
		t.Errorf("%%timeit of timing.Spin counted %.0f allocations per call (%.0f B): another goroutine's", r.Memory.AllocsPerOp, r.Memory.BytesPerOp)
	}
}
