//go:build unix

package main

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// enginePipes returns fd 3 and fd 4, closed on exec so that the commands
// cells start (`!cmd`, compilers) do not hold the supervisor's pipes.
func enginePipes() (in, out *os.File, err error) {
	for _, fd := range []int{3, 4} {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
			return nil, nil, errors.New("fd 3 and 4 are not the supervisor's pipes")
		}
		syscall.CloseOnExec(fd)
	}
	return os.NewFile(3, "supervisor-requests"), os.NewFile(4, "supervisor-events"), nil
}

// preferAsOOMVictim raises the engine's oom_score_adj (never lowers it),
// so that when memory runs out the system's OOM killer ends the engine,
// which holds the memory, and not the supervisor, which can say so.
func preferAsOOMVictim() {
	const path, want = "/proc/self/oom_score_adj", 500
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if cur, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && cur < want {
		_ = os.WriteFile(path, []byte(strconv.Itoa(want)), 0)
	}
}
