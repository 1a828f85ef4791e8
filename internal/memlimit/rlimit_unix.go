//go:build unix

package memlimit

import "golang.org/x/sys/unix"

// rlimit returns the soft RLIMIT_AS or RLIMIT_DATA.
func rlimit(name string) (uint64, bool) {
	res := unix.RLIMIT_AS
	if name == "DATA" {
		res = unix.RLIMIT_DATA
	}
	var l unix.Rlimit
	if err := unix.Getrlimit(res, &l); err != nil || l.Cur == unix.RLIM_INFINITY {
		return 0, false
	}
	return l.Cur, true
}
