//go:build unix

package privdir

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// nobody is a user id that is not the test's.
const nobody = 65534

// TestEnsure: a cache directory is used only when no other user can put
// files in it, directly or by replacing a directory above it.
func TestEnsure(t *testing.T) {
	root := t.TempDir() // 0700, the test's
	asRoot := func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to make a directory another user owns")
		}
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string // "" when accepted
	}{
		{name: "fresh: created 0700", setup: func(*testing.T, string) {}},
		{name: "existing 0755 of yours", setup: func(t *testing.T, dir string) { mkdir(t, dir, 0o755) }},
		{name: "world writable", setup: func(t *testing.T, dir string) { mkdir(t, dir, 0o777) }, want: "writable by group or others (mode -rwxrwxrwx)"},
		{name: "group writable", setup: func(t *testing.T, dir string) { mkdir(t, dir, 0o770) }, want: "writable by group or others"},
		{name: "a symbolic link", setup: func(t *testing.T, dir string) {
			mkdir(t, dir+".real", 0o700)
			if err := os.Symlink(dir+".real", dir); err != nil {
				t.Fatal(err)
			}
		}, want: "not a directory (a symbolic link)"},
		{name: "a file", setup: func(t *testing.T, dir string) {
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, want: "not a directory"},
		{name: "the parent world writable, not sticky", setup: func(t *testing.T, dir string) {
			mkdir(t, dir, 0o700)
			chmod(t, filepath.Dir(dir), 0o777)
		}, want: "above it is writable by group or others and not sticky"},
		{name: "the parent world writable and sticky, as /tmp", setup: func(t *testing.T, dir string) {
			chmod(t, filepath.Dir(dir), 0o777|os.ModeSticky)
		}},
		{name: "another user's, mode 0777 (TICK_CACHE_DIR planted by them)", setup: func(t *testing.T, dir string) {
			asRoot(t)
			mkdir(t, dir, 0o777)
			chown(t, dir, nobody)
		}, want: "owned by user 65534"},
		{name: "another user's directory above it", setup: func(t *testing.T, dir string) {
			asRoot(t)
			chown(t, filepath.Dir(dir), nobody)
		}, want: "above it is owned by user 65534"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := filepath.Join(root, strings.NewReplacer(" ", "-", ":", "", ",", "", "(", "", ")", "").Replace(tc.name))
			mkdir(t, parent, 0o700)
			dir := filepath.Join(parent, "cache")
			tc.setup(t, dir)
			err := Ensure(dir)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if fi, _ := os.Lstat(dir); !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 {
					t.Fatalf("mode %v", fi.Mode())
				}
				return
			}
			var unsafe *UnsafeError
			if !errors.As(err, &unsafe) || unsafe.Dir != dir || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), CacheEnv) {
				t.Fatalf("err = %v, want an UnsafeError naming %s and saying %q", err, dir, tc.want)
			}
		})
	}
	fresh := filepath.Join(root, "a", "b", "c")
	if err := Ensure(fresh); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(root, "a"), filepath.Join(root, "a", "b"), fresh} {
		if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o700 {
			t.Errorf("%s created with mode %v, want 0700", d, fi.Mode().Perm())
		}
	}
}

// TestReplace: a damaged entry — a directory or a link where a file
// should be — is replaced, as a file is.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	for _, damage := range []func(string){
		func(p string) { os.WriteFile(p, []byte("old"), 0o600) },
		func(p string) { os.MkdirAll(filepath.Join(p, "inside"), 0o700) },
		func(p string) { os.Symlink("/nonexistent", p) },
	} {
		final, tmp := filepath.Join(dir, "entry.so"), filepath.Join(dir, "entry.so.tmp")
		damage(final)
		if err := os.WriteFile(tmp, []byte("new"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := Replace(tmp, final); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(final); err != nil || string(b) != "new" {
			t.Fatalf("after Replace: %q %v", b, err)
		}
		os.Remove(final)
	}
}

// TestPrivateUnderTheKernelsTemp: fallbacks go under the kernel's
// temporary directory, which the supervisor removes.
func TestPrivateUnderTheKernelsTemp(t *testing.T) {
	k := t.TempDir()
	t.Setenv(TempEnv, k)
	p, err := Private("tick-x-")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(p) != k {
		t.Fatalf("Private = %s, want it under %s", p, k)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	// Made on first use (the supervisor only names it), private.
	missing := filepath.Join(k, "missing")
	t.Setenv(TempEnv, missing)
	if p, err := Private("tick-x-"); err != nil || filepath.Dir(p) != missing {
		t.Fatalf("with a kernel temp not made yet: %s %v", p, err)
	}
	if fi, err := os.Stat(missing); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the kernel's directory: %v, %v", fi, err)
	}
	// One others can write is not used.
	open := filepath.Join(k, "open")
	mkdir(t, open, 0o777)
	t.Setenv(TempEnv, open)
	if p, err := Private("tick-x-"); err != nil || strings.HasPrefix(p, k) {
		t.Fatalf("with a kernel temp others can write: %s %v", p, err)
	} else {
		os.Remove(p)
		// named after the process, for SweepKernelTemps
		if !strings.HasPrefix(filepath.Base(p), "tick-x-"+strconv.Itoa(os.Getpid())+"-") {
			t.Errorf("Private outside a kernel's directory made %s", p)
		}
	}
}

func mkdir(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	chmod(t, dir, mode)
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func chown(t *testing.T, p string, uid int) {
	t.Helper()
	if err := os.Chown(p, uid, uid); err != nil {
		t.Fatal(err)
	}
}
