//go:build !amd64

package tensor

// readTSC reports that this architecture's stamps come from the monotonic
// clock.
func readTSC() (uint64, bool) { return 0, false }
