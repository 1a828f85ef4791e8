//go:build !unix

package privdir

import "os"

// check checks that dir is a directory; ownership and modes are not
// checked on this system (the user's profile directories are private).
func check(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return &UnsafeError{Dir: dir, Reason: unwrap(err).Error()}
	}
	if !fi.IsDir() {
		return &UnsafeError{Dir: dir, Reason: "it is not a directory"}
	}
	return nil
}
