//go:build unix

package main

import (
	"errors"
	"syscall"
)

// processExists reports whether pid names a process (signal 0 checks
// without sending anything; EPERM means it exists, as another user's).
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
