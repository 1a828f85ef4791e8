package tensor

// Fusion can be switched off to see what it buys: with it off, every
// elementwise operation is a kernel of its own that writes its result to
// memory, and a reduction reads its input from a buffer instead of
// computing it on the fly: the schedule an eager framework without a
// compiler would run. A JIT captures the schedule, so a step captured with
// fusion off replays unfused whatever the setting is later.

import "sync/atomic"

// noFusion is process-wide, like the default device: scheduling happens
// deep inside Realize.
var noFusion atomic.Bool

// SetFusion turns kernel fusion on (the default) or off and returns the
// previous setting.
func SetFusion(on bool) (was bool) { return !noFusion.Swap(!on) }

// Fusion reports whether elementwise operations are fused into the kernels
// that consume them.
func Fusion() bool { return !noFusion.Load() }

// ownKernel reports whether elementwise node n is computed by a kernel of
// its own rather than inlined into its consumer's.
func ownKernel(n *lazy) bool { return n.keep || noFusion.Load() }
