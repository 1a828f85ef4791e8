//go:build race

package rt

import "sync/atomic"

// CheckpointByCall: with the race detector, loop checkpoints call
// ᐩrt.Interrupted(), which reads the flag atomically.
const CheckpointByCall = true

// stopFlag is the interrupt flag of race-detector builds: synchronised,
// and never read through a pointer by interpreted code (slower loops, no
// reported race; see stopflag.go for the flag of other builds).
type stopFlag struct{ b atomic.Bool }

func (f *stopFlag) set()       { f.b.Store(true) }
func (f *stopFlag) load() bool { return f.b.Load() }
func (f *stopFlag) ptr() *bool { return nil }
func (f *stopFlag) clear()     { f.b.CompareAndSwap(true, false) }
