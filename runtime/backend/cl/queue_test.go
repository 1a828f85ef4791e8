package cl

import "testing"

// TestStampsWaitForUnfinishedCommands: Stamps called while commands are
// still running (another goroutine enqueued them after the runtime's
// Synchronize) waits for them and returns a real stamp for each, in order,
// instead of failing with CL_PROFILING_INFO_NOT_AVAILABLE.
func TestStampsWaitForUnfinishedCommands(t *testing.T) {
	d := testDevice(t)
	k := gemmKernel(1, 256, 256, 256, false) // long enough to be still running
	p, err := d.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	mems := allocBufs(t, d, k, nil)
	defer freeBufs(d, mems)
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Stamps(nil); err != nil { // the copies'
		t.Fatal(err)
	}
	const n = 4
	for range n {
		if err := d.Launch(p, mems, p.Dims()); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := d.Stamps(nil) // no Synchronize: the launches may not have run yet
	if err != nil {
		t.Fatalf("Stamps while the launches run: %v", err)
	}
	if len(ts) != n {
		t.Fatalf("%d stamps for %d launches", len(ts), n)
	}
	for i, s := range ts {
		if s.Started <= 0 || s.Ended < s.Started || s.Started < s.Queued {
			t.Errorf("launch %d: stamps %+v are not a finished command's", i, s)
		}
		if i > 0 && s.Started < ts[i-1].Ended {
			t.Errorf("launch %d started at %d before launch %d ended at %d (an in-order queue)", i, s.Started, i-1, ts[i-1].Ended)
		}
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
}
