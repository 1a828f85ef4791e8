package tensor

// Regions name the part of a program a kernel belongs to — a training
// step's forward pass, backward pass and optimizer update — so a profile
// can say where a step's device time goes. A kernel is attributed to the
// region open when it was scheduled; a JIT's captured launches keep theirs,
// so replays (which schedule nothing) are attributed too.

import "sync/atomic"

// region is the name of the region kernels are scheduled in now (nil:
// none): process-wide, like the JIT's recorder, because kernels are
// scheduled from deep inside Realize; atomic, because every launch reads
// it.
var region atomic.Pointer[string]

// Region opens a region called name and returns the function that closes
// it (restoring the region that was open before): kernels scheduled in
// between are attributed to name in profiles (Event.Detail of a kernel
// event, and %prof's regions line). Backward opens "forward" while it
// realizes the loss; an optimizer's Step opens "backward" while it
// realizes the gradients and "optimizer" while it updates the parameters.
//
//	defer tensor.Region("forward")()
func Region(name string) (end func()) {
	var p *string
	if name != "" {
		p = &name
	}
	prev := region.Swap(p)
	return func() { region.Store(prev) }
}

// CurrentRegion is the name of the open region ("" when none is).
func CurrentRegion() string {
	if p := region.Load(); p != nil {
		return *p
	}
	return ""
}
