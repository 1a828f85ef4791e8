package tensor

import (
	"slices"
	"testing"
)

// TestEagerLoopRunsInBoundedMemory: eager CPU ops on 16M elements reached
// 10.2 GB after 152 calls, because C buffers were freed only when Go's
// garbage collector ran, and the Go heap (a few small structs per op)
// never asked it to. The paced collections keep the C memory in use near
// the live buffers, and the device pool reuses the memory they return.
func TestEagerLoopRunsInBoundedMemory(t *testing.T) {
	if !slices.Contains(AvailableBackends(), "CPU") {
		t.Skip("no CPU backend (cgo and a C compiler)")
	}
	prev := DefaultDevice()
	if err := SetDefaultDevice("CPU"); err != nil {
		t.Fatal(err)
	}
	defer SetDefaultDevice(prev)
	const n = 16 << 20 // 64 MB of float32 per buffer
	x := Arange(n).Realize()
	var peak int64
	for range 40 { // 2.5 GB of results without pacing
		_ = x.Add(1).Realize()
		if err := Device("CPU").Synchronize(); err != nil {
			t.Fatal(err)
		}
		peak = max(peak, counters.memInUse.Load())
	}
	// x and the result are 128 MB; a paced collection returns the
	// results already dropped to the pool, which the next ops reuse: 192
	// MB measured (320 MB before the pool, 2.5 GB before pacing).
	if limit := int64(288 << 20); peak > limit {
		t.Errorf("C memory in use peaked at %d MB over 40 eager ops (limit %d MB): buffers are not freed", peak>>20, limit>>20)
	}
	t.Logf("peak memory in use %d MB", peak>>20)
}
