//go:build race

package tensor

// raceEnabled: the race detector makes sync.Pool drop items on purpose, so
// allocation bounds do not hold under -race.
const raceEnabled = true
