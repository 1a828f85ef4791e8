//go:build unix

package gocompile

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f (held until f is closed).
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// tryLockFile takes the lock only if no one holds it.
func tryLockFile(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
