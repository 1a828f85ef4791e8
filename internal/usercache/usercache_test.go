package usercache

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/internal/privdir"
)

func TestInitAndRestore(t *testing.T) {
	// init ran before the test: TMPDIR is the user cache (or, refused, a
	// private directory).
	want := Dir()
	if state.private != "" {
		want = state.private
	}
	if got := os.Getenv("TMPDIR"); got != want {
		t.Fatalf("TMPDIR during start-up = %q, want %q", got, want)
	}
	Restore()
	got, set := os.LookupEnv("TMPDIR")
	if set != state.set || got != state.saved {
		t.Errorf("after Restore TMPDIR = %q (set %v), want %q (set %v)", got, set, state.saved, state.set)
	}
}

// TestOnlySealedEntriesAreRead: an entry is read at start-up only if a
// start that succeeded left it there, byte for byte; anything else —
// garbage, a damaged entry, a directory in place of an entry, a link —
// is removed first, and go-graphviz compiles it again.
func TestOnlySealedEntriesAreRead(t *testing.T) {
	root := t.TempDir()
	dir, sums := filepath.Join(root, sub), filepath.Join(root, sub+".sums")
	v := filepath.Join(dir, "wazero-v1-amd64-linux")
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(v, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(v, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("good", "compiled module")
	write("damaged", "compiled module 2")
	seal(dir, sums)
	write("damaged", "compiled modulX 2")      // same size, other bytes
	write("planted", "garbage")                // never sealed
	write("young.tmp", "a concurrent start's") // being written: kept
	write("old.tmp", "a crashed start's")      // left behind: removed
	os.Chtimes(filepath.Join(v, "old.tmp"), time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	os.MkdirAll(filepath.Join(v, "dir-entry", "x"), 0o700) // a directory where an entry goes
	os.Symlink("/etc/passwd", filepath.Join(v, "link"))

	if n := verify(dir, sums); n != 5 {
		t.Errorf("removed %d entries, want 5", n)
	}
	var left []string
	entries, _ := os.ReadDir(v)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, ",") != "good,young.tmp" {
		t.Fatalf("left %v, want good and young.tmp", left)
	}
}

// TestPlantedCacheIsRefused: with HOME and XDG_CACHE_HOME unset the cache
// is $TMPDIR/tick-UID; when another user made it (mode 0777, with their
// file in it), a start does not use it: TMPDIR goes to a private
// directory, and Problem names the directory. (Before, every tick command
// of the victim panicked at start-up on the planted entry.)
func TestPlantedCacheIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a directory another user owns")
	}
	if os.Getenv("USERCACHE_CHILD") == "1" {
		t.Logf("TMPDIR=%s problem=%v", os.Getenv("TMPDIR"), Problem())
		return
	}
	tmp := t.TempDir()
	os.Chmod(tmp, 0o755)
	planted := filepath.Join(tmp, "tick-0")
	if err := os.MkdirAll(filepath.Join(planted, sub, "wazero-v1.10.1-amd64-linux"), 0o777); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(planted, sub, "wazero-v1.10.1-amd64-linux", "entry"), []byte("garbage"), 0o666)
	filepath.Walk(planted, func(p string, _ os.FileInfo, _ error) error { return os.Chown(p, 65534, 65534) })
	os.Chmod(planted, 0o777)
	cmd := exec.Command(os.Args[0], "-test.run=^TestPlantedCacheIsRefused$", "-test.v")
	cmd.Env = append(os.Environ(), "USERCACHE_CHILD=1", "HOME=", "XDG_CACHE_HOME=", privdir.CacheEnv+"=", "TMPDIR="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "problem=refusing the directory "+planted) || !strings.Contains(string(out), "owned by user 65534") ||
		strings.Contains(string(out), "TMPDIR="+planted) {
		t.Fatalf("the planted cache was not refused:\n%s", out)
	}
}
