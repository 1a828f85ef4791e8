package app

import (
	"os"
	"runtime/debug"
	"sync"

	"github.com/tick-kernel/tick/internal/memlimit"
)

// MemoryLimitEnv overrides the process's memory ceiling ("8GiB", "512M",
// a byte count, or "off").
const MemoryLimitEnv = memlimit.Env

// CeilingEnv is set in the engine's environment to what SetMemoryLimit
// chose, so that `%env TICK_MEMORY_CEILING` (and os.Getenv in a cell)
// shows the ceiling and where it came from.
const CeilingEnv = "TICK_MEMORY_CEILING"

// memory is the ceiling set once per process (the limit is process-wide).
var memory struct {
	once    sync.Once
	ceiling memlimit.Ceiling
	err     error
}

// SetMemoryLimit sets the process's memory ceiling once: Go's soft limit
// (debug.SetMemoryLimit) at TICK_MEMORY_LIMIT, or at memlimit.GoShare of
// the smallest limit that applies (cgroups v2 and v1 up the hierarchy,
// RLIMIT_AS/RLIMIT_DATA, the machine's memory; package memlimit). The
// garbage collector works harder near it, the make guard refuses
// allocations past it with an error in the cell, and the kernel returns
// memory to the OS after bursts; the supervisor ends an engine that goes
// past the ceiling itself. It returns Go's limit and a description of the
// ceiling, or an error for a malformed TICK_MEMORY_LIMIT.
func SetMemoryLimit() (limit int64, source string, err error) {
	memory.once.Do(func() {
		memory.ceiling, memory.err = memlimit.Discover()
		if memory.err != nil {
			return
		}
		if g := memory.ceiling.GoLimit(); g > 0 {
			debug.SetMemoryLimit(g)
		}
		_ = os.Setenv(CeilingEnv, memory.ceiling.String())
	})
	return memory.ceiling.GoLimit(), memory.ceiling.String(), memory.err
}
