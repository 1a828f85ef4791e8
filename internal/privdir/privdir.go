// Package privdir is the one way tick makes the directories it keeps
// files in — caches (native kernels, compiled Go plugins and modules, the
// assistant's types) and temporary
// directories — so that no other user of the machine can plant a file tick
// would load, run or trust.
//
// A directory is used only when it is a real directory (not a symbolic
// link), owned by the user, and not writable by group or others; every
// directory above it must belong to the user or to root and be writable by
// nobody else unless it is sticky (as /tmp is), so that nobody can swap it
// for another. Directories it creates are mode 0700. A directory that fails
// is refused with an *UnsafeError naming it and why; callers fall back to a
// private temporary directory (Private), which the supervisor removes when
// the kernel ends.
package privdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// CacheEnv overrides the root of tick's caches.
const CacheEnv = "TICK_CACHE_DIR"

// TempEnv names the kernel's private temporary directory: the supervisor
// names it (KernelTemp), its engines make it when they need a fallback
// directory (Private), and it is removed when the kernel ends.
const TempEnv = "TICK_KERNEL_TMP"

// UnsafeError says why a directory was refused.
type UnsafeError struct {
	Dir    string // the directory tick wanted to use
	Reason string // "/tmp/tick-0 is owned by user 1001, not by you (0)"
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("refusing the directory %s: %s (another user could put files there that tick would load); "+
		"set %s to a directory only you can write", e.Dir, e.Reason, CacheEnv)
}

// Root is the root of tick's caches: $TICK_CACHE_DIR, else the user's
// cache directory + /tick, else os.TempDir()/tick-UID. It is not checked.
func Root() string {
	if d := os.Getenv(CacheEnv); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "tick")
	}
	return filepath.Join(os.TempDir(), "tick-"+strconv.Itoa(os.Getuid()))
}

// Ensure creates dir (mode 0700 for every directory it creates) and checks
// it and the directories above it; it returns an *UnsafeError when one of
// them lets another user change what is in dir.
func Ensure(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return &UnsafeError{Dir: dir, Reason: err.Error()}
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return refused(&UnsafeError{Dir: dir, Reason: unwrap(err).Error()})
	}
	if err := check(abs); err != nil {
		return refused(err)
	}
	return nil
}

// reporter receives refusals: process-wide on purpose, as the caches are
// (the engine points it at the running cell's stderr, so the user reads
// why a cache was not used).
var reporter struct {
	sync.Mutex
	fn      func(error)
	seen    map[string]bool
	pending []error // refusals before SetReporter
}

// SetReporter makes fn receive every refusal, once per message, including
// those found before it was set.
func SetReporter(fn func(error)) {
	reporter.Lock()
	reporter.fn = fn
	pending := reporter.pending
	reporter.pending = nil
	reporter.Unlock()
	for _, err := range pending {
		fn(err)
	}
}

// Report passes err to the reporter, once per message (Ensure reports its
// refusals).
func Report(err error) {
	if err == nil {
		return
	}
	reporter.Lock()
	if reporter.seen == nil {
		reporter.seen = map[string]bool{}
	}
	if reporter.seen[err.Error()] {
		reporter.Unlock()
		return
	}
	reporter.seen[err.Error()] = true
	fn := reporter.fn
	if fn == nil {
		reporter.pending = append(reporter.pending, err)
	}
	reporter.Unlock()
	if fn != nil {
		fn(err)
	}
}

func refused(err error) error {
	Report(err)
	return err
}

// Private makes a new private directory (mode 0700) for what could not go
// to a cache: under the kernel's temporary directory when there is one
// ($TICK_KERNEL_TMP: made on first use, checked as a cache is), else
// under os.TempDir(), named pattern + PID + "-" + a random part, so that a
// kernel can remove it once this process is gone (SweepKernelTemps) when
// the process was killed before it could.
func Private(pattern string) (string, error) {
	if d := os.Getenv(TempEnv); d != "" {
		if err := Ensure(d); err == nil {
			return os.MkdirTemp(d, pattern)
		}
	}
	return os.MkdirTemp("", pattern+strconv.Itoa(os.Getpid())+"-*")
}

// Replace renames tmp to final, replacing what is at final: a file, or a
// damaged entry (a directory, a link) that a plain rename cannot replace.
func Replace(tmp, final string) error {
	err := os.Rename(tmp, final)
	if err == nil {
		return nil
	}
	fi, lerr := os.Lstat(final)
	if lerr != nil || fi.Mode().IsRegular() {
		return err
	}
	if rerr := os.RemoveAll(final); rerr != nil {
		return fmt.Errorf("%w (and removing the damaged entry: %v)", err, rerr)
	}
	return os.Rename(tmp, final)
}

func unwrap(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
