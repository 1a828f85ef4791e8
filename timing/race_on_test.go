//go:build race

package timing

// raceEnabled: the race detector instruments Spin's loop and its clock
// readings, so Spin overshoots more (TestSpinRecoveredUnderLoad).
const raceEnabled = true
