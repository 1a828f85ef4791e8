//go:build unix

package privdir

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// check checks dir (absolute) and the directories above it.
func check(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return &UnsafeError{Dir: dir, Reason: unwrap(err).Error()}
	}
	me := os.Geteuid()
	switch st, _ := fi.Sys().(*syscall.Stat_t); {
	case fi.Mode()&os.ModeSymlink != 0:
		return &UnsafeError{Dir: dir, Reason: "it is not a directory (a symbolic link)"}
	case !fi.IsDir():
		return &UnsafeError{Dir: dir, Reason: "it is not a directory"}
	case st != nil && int(st.Uid) != me:
		return &UnsafeError{Dir: dir, Reason: fmt.Sprintf("it is owned by user %d, not by you (%d)", st.Uid, me)}
	case fi.Mode().Perm()&0o022 != 0:
		return &UnsafeError{Dir: dir, Reason: fmt.Sprintf("it is writable by group or others (mode %v)", fi.Mode().Perm())}
	}
	// The directories above: resolved (a link such as macOS's /tmp →
	// /private/tmp is followed), each the user's or root's, and writable
	// by others only when sticky (nobody can rename what is not theirs).
	parent, err := filepath.EvalSymlinks(filepath.Dir(dir))
	if err != nil {
		return &UnsafeError{Dir: dir, Reason: unwrap(err).Error()}
	}
	for p := parent; ; p = filepath.Dir(p) {
		if err := checkAbove(p, me); err != nil {
			return &UnsafeError{Dir: dir, Reason: err.Error()}
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// checkAbove checks a directory above a cache.
func checkAbove(p string, me int) error {
	fi, err := os.Stat(p)
	if err != nil {
		return unwrap(err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	sticky := fi.Mode()&os.ModeSticky != 0
	switch perm := fi.Mode().Perm(); {
	case int(st.Uid) != me && st.Uid != 0:
		return fmt.Errorf("%s above it is owned by user %d, neither you (%d) nor root", p, st.Uid, me)
	case perm&0o002 != 0 && !sticky:
		return fmt.Errorf("%s above it is writable by group or others and not sticky (mode %v): anyone can replace what is in it", p, perm)
	case perm&0o020 != 0 && !sticky && int(st.Uid) != me:
		return fmt.Errorf("%s above it is writable by group or others and not sticky (mode %v), and not yours", p, perm)
	}
	return nil
}
