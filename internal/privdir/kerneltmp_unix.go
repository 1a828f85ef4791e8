//go:build unix

package privdir

import (
	"errors"
	"os"
	"syscall"
)

// ownedByMe reports whether path (not followed) belongs to this user.
func ownedByMe(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// processRunning reports whether pid names a process (of any user).
func processRunning(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}
