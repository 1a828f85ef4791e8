package native

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tick-kernel/tick/internal/privdir"
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

// secureCacheDir creates and checks dir with tick's one check of cache
// directories (internal/privdir: a real directory, owned by the user, not
// writable by group or others, nor replaceable through a directory above
// it). On failure it returns a fresh private directory (mode 0700) and the
// reason; no shared fallback such as $TMPDIR/tick-<uid> is used when
// another user owns it.
func secureCacheDir(dir string) (string, error) {
	err := privdir.Ensure(dir)
	if err == nil {
		return dir, nil
	}
	var unsafe *privdir.UnsafeError
	problem := &UnsafeCacheError{Dir: dir, Reason: err.Error()}
	if errors.As(err, &unsafe) {
		problem.Reason = unsafe.Reason
	}
	private, perr := privdir.Private("tick-kernels-")
	if perr != nil {
		return "", fmt.Errorf("%w (and no private directory: %v)", problem, perr)
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
