package native

import (
	"fmt"
	"os"
	"path/filepath"
)

// UnsafeCacheError says why a cache directory was refused: a cached object
// found there is dlopened into the process, so a directory another user
// can write is a way to run their code inside tick.
type UnsafeCacheError struct {
	Dir    string
	Reason string
}

func (e *UnsafeCacheError) Error() string {
	return fmt.Sprintf("native: refusing the kernel cache %s: %s; compiled kernels go to a private temporary directory instead "+
		"(set %s to a directory only you can write)", e.Dir, e.Reason, EnvCacheDir)
}

// secureCacheDir creates dir (mode 0700 for what it creates) and checks it
// and its parent: each must be a real directory (not a symbolic link),
// owned by the current user, and not writable by group or others. On
// failure it returns a fresh private directory (os.MkdirTemp, mode 0700)
// and the reason; no shared fallback such as $TMPDIR/tick-<uid> is used
// when another user owns it.
func secureCacheDir(dir string) (string, error) {
	problem := func() error {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return &UnsafeCacheError{Dir: dir, Reason: err.Error()}
		}
		for _, d := range []string{dir, filepath.Dir(dir)} {
			fi, err := os.Lstat(d)
			if err != nil {
				return &UnsafeCacheError{Dir: dir, Reason: err.Error()}
			}
			if !fi.IsDir() {
				return &UnsafeCacheError{Dir: dir, Reason: d + " is not a directory (a symbolic link?)"}
			}
			if err := ownedByMe(fi); err != nil {
				return &UnsafeCacheError{Dir: dir, Reason: d + " is " + err.Error()}
			}
			if fi.Mode().Perm()&0o022 != 0 {
				return &UnsafeCacheError{Dir: dir, Reason: fmt.Sprintf("%s is writable by group or others (mode %v)", d, fi.Mode().Perm())}
			}
		}
		return nil
	}()
	if problem == nil {
		return dir, nil
	}
	private, err := os.MkdirTemp("", "tick-kernels-")
	if err != nil {
		return "", fmt.Errorf("%w (and no private directory: %v)", problem, err)
	}
	return private, problem
}

// TrustedCacheDir is the directory sub of tick's cache root (the parent of
// the C kernel cache: $TICK_CACHE_DIR, else the user's cache directory),
// created and checked by the rules of the kernel cache: for other
// backends' caches of code they load (OpenCL program binaries). On
// failure it returns a private temporary directory and the reason.
func TrustedCacheDir(sub string) (string, error) {
	return secureCacheDir(filepath.Join(filepath.Dir(defaultCacheDir()), sub))
}
