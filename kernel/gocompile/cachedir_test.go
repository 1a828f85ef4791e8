//go:build unix

package gocompile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheDirOthersCanWriteIsRefused: only the leaf directories were
// checked, so a TICK_CACHE_DIR another user owns with mode 0777 was
// accepted, and that user could swap plugins under a live kernel. The
// cache is refused, naming the directory, when anyone else can write it
// or a directory above it.
func TestCacheDirOthersCanWriteIsRefused(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(shared, 0o777)
	err := privateDir(filepath.Join(shared, "hostkey", "plugins"))
	if err == nil || !strings.Contains(err.Error(), "refusing the directory "+shared) || !strings.Contains(err.Error(), "writable by group or others") {
		t.Fatalf("err = %v, want a refusal naming %s", err, shared)
	}
	if os.Geteuid() == 0 {
		theirs := filepath.Join(t.TempDir(), "theirs")
		os.Mkdir(theirs, 0o777)
		os.Chmod(theirs, 0o777)
		os.Chown(theirs, 65534, 65534)
		err := privateDir(filepath.Join(theirs, "hostkey", "plugins"))
		if err == nil || !strings.Contains(err.Error(), "owned by user 65534") {
			t.Fatalf("another user's TICK_CACHE_DIR: err = %v", err)
		}
	}
	mine := filepath.Join(t.TempDir(), "mine", "hostkey", "plugins")
	if err := privateDir(mine); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(mine); fi.Mode().Perm() != 0o700 {
		t.Errorf("created with mode %v", fi.Mode().Perm())
	}
}
