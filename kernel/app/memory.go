package app

import (
	"bufio"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/tick-kernel/tick/internal/memlimit"
)

// MemoryLimitEnv overrides the process's memory ceiling ("8GiB", "512M",
// a byte count, or "off").
const MemoryLimitEnv = "TICK_MEMORY_LIMIT"

// memoryShare is the part of the machine's memory (or of the cgroup's
// limit) the kernel takes as its ceiling by default.
const memoryShare = 0.8

// memory is the ceiling set once per process (the limit is process-wide).
var memory struct {
	once   sync.Once
	limit  int64
	source string
	err    error
}

// SetMemoryLimit sets the process's memory ceiling once:
// debug.SetMemoryLimit at TICK_MEMORY_LIMIT or memoryShare of the
// machine's memory (the cgroup's limit when smaller). The garbage
// collector works harder near it, the make guard (session pass make-guard)
// refuses allocations past it with an error in the cell, and the kernel
// returns memory to the OS after bursts. It returns the limit and where
// it came from, or an error for a malformed TICK_MEMORY_LIMIT.
func SetMemoryLimit() (limit int64, source string, err error) {
	memory.once.Do(func() {
		memory.limit, memory.source, memory.err = memoryLimit(os.Getenv(MemoryLimitEnv), machineMemory())
		if memory.err == nil && memory.limit > 0 {
			debug.SetMemoryLimit(memory.limit)
		}
	})
	return memory.limit, memory.source, memory.err
}

// memoryLimit picks the ceiling from the environment value and the
// machine's memory (0 when unknown); 0 means no ceiling.
func memoryLimit(env string, machine int64) (int64, string, error) {
	switch strings.ToLower(strings.TrimSpace(env)) {
	case "":
	case "off", "none", "0":
		return 0, MemoryLimitEnv + "=" + env, nil
	default:
		n, err := memlimit.ParseSize(env)
		if err != nil {
			return 0, "", fmt.Errorf("app: %s: %w", MemoryLimitEnv, err)
		}
		return n, MemoryLimitEnv, nil
	}
	if machine <= 0 {
		return 0, "machine memory unknown", nil
	}
	return int64(float64(machine) * memoryShare), fmt.Sprintf("%.0f%% of the machine's memory", memoryShare*100), nil
}

// machineMemory returns MemTotal from /proc/meminfo, or the cgroup v2
// memory.max when smaller; 0 when neither is readable.
func machineMemory() int64 {
	var total int64
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				total = kb << 10
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}
