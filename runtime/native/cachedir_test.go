package native

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheDirRefusesOtherUsersAndSharedDirs: without HOME and
// XDG_CACHE_HOME the cache fell back to $TMPDIR/tick-<uid> even when
// another user owned it with mode 0777, and a library planted there was
// loaded. A directory that is not the user's own, or that group or others
// can write, is refused for a private one.
func TestCacheDirRefusesOtherUsersAndSharedDirs(t *testing.T) {
	root := t.TempDir()
	for _, tc := range []struct {
		name  string
		setup func(dir string) error
		want  string // "" when the directory is accepted
	}{
		{"fresh", func(string) error { return nil }, ""},
		{"world writable", func(dir string) error {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return err
			}
			return os.Chmod(dir, 0o777)
		}, "writable by group or others"},
		{"parent world writable", func(dir string) error {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return err
			}
			return os.Chmod(filepath.Dir(dir), 0o777)
		}, "writable by group or others"},
		{"symbolic link", func(dir string) error {
			target := dir + ".target"
			if err := os.MkdirAll(target, 0o700); err != nil {
				return err
			}
			return os.Symlink(target, dir)
		}, "not a directory"},
		{"another user's", func(dir string) error {
			if os.Getuid() != 0 {
				t.Skip("needs root to create a directory another user owns")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			return os.Chown(dir, 65534, 65534)
		}, "owned by user 65534"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(root, strings.ReplaceAll(tc.name, " ", "-"), "kernels")
			if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := tc.setup(dir); err != nil {
				t.Fatal(err)
			}
			got, err := secureCacheDir(dir)
			if tc.want == "" {
				if err != nil || got != dir {
					t.Fatalf("secureCacheDir = %q, %v; want %q accepted", got, err, dir)
				}
				if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
					t.Errorf("created with mode %v, want 0700", fi.Mode().Perm())
				}
				return
			}
			var unsafe *UnsafeCacheError
			if !errors.As(err, &unsafe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want an UnsafeCacheError saying %q", err, tc.want)
			}
			if got == dir || strings.HasPrefix(got, dir) || got == "" {
				t.Fatalf("fell back to %q", got)
			}
			defer os.RemoveAll(got)
			if fi, err := os.Lstat(got); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("private directory %s: %v %v", got, fi.Mode(), err)
			}
		})
	}
}

// TestPlantedTmpdirCacheIsNotUsed drives the default location as the
// issue found it: no HOME, no XDG_CACHE_HOME, $TMPDIR/tick-<uid> owned by
// another user with mode 0777.
func TestPlantedTmpdirCacheIsNotUsed(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to plant a directory another user owns")
	}
	tmp := t.TempDir()
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv(EnvCacheDir, "")
	t.Setenv("TMPDIR", tmp)
	planted := filepath.Join(tmp, fmt.Sprintf("tick-%d", os.Getuid()))
	if err := os.MkdirAll(filepath.Join(planted, "kernels"), 0o777); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{planted, filepath.Join(planted, "kernels")} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	c, err := NewCompiler(Options{})
	if errors.Is(err, ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(c.CacheDir(), planted) || c.CacheProblem() == nil {
		t.Fatalf("cache %s (problem %v): the planted directory was used", c.CacheDir(), c.CacheProblem())
	}
	defer os.RemoveAll(c.CacheDir())
}
