//go:build !race

package rt

// CheckpointByCall says whether loop checkpoints call ᐩrt.Interrupted()
// (rewrite.Options.CheckpointCall) instead of reading *ᐩrt.Stop.
const CheckpointByCall = false

// stopFlag is the interrupt flag. Loop checkpoints read it through the
// pointer ᐩrt.Stop on every iteration: about 9 ns, against about 100 ns
// for a call of a native function (DESIGN.md). The write in Interrupt and
// these reads are unsynchronised on purpose: a stale read only delays the
// stop by one iteration. Builds with the race detector use the
// synchronised flag of stopflag_race.go instead.
type stopFlag struct{ b bool }

func (f *stopFlag) set()       { f.b = true }
func (f *stopFlag) load() bool { return f.b }
func (f *stopFlag) ptr() *bool { return &f.b }

// clear resets the flag. It writes only when the flag is set, so that
// goroutines a cell left running (which read the flag at every
// checkpoint) race with a write only around an actual interrupt.
func (f *stopFlag) clear() {
	if f.b {
		f.b = false
	}
}
