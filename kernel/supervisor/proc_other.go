//go:build !linux

package supervisor

// memoryUse is not read outside Linux: the supervisor does not watch the
// engine's memory there (the engine's own Go limit still applies).
func memoryUse(int) (int64, bool) { return 0, false }

// endShellJobs: only Linux gives `!` commands cgroups to end them by.
func endShellJobs(int) {}
