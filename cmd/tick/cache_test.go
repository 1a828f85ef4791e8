//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// startTick starts this test binary (which links everything tick does,
// go-graphviz included) with env, and returns its output and error: a
// start-up panic in a package's init shows here.
func startTick(t *testing.T, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestGraphvizCacheCannotBreakStartUp: go-graphviz compiles its
// WebAssembly at start-up into a cache under TMPDIR. A garbage entry there
// — planted by another user in $TMPDIR/tick-UID (HOME and XDG_CACHE_HOME
// unset), or the user's own entry damaged — made every tick command panic
// at start-up. Now a cache another user can write is refused and a damaged
// entry is compiled again.
func TestGraphvizCacheCannotBreakStartUp(t *testing.T) {
	noHome := []string{"HOME=", "XDG_CACHE_HOME=", "TICK_CACHE_DIR="}
	// A clean start makes the entry, whose name the damage reuses.
	own := t.TempDir()
	if out, err := startTick(t, append(noHome, "TMPDIR="+own)...); err != nil {
		t.Fatalf("a clean start: %v\n%s", err, out)
	}
	cacheRoot := filepath.Join(own, "tick-"+itoa(os.Getuid()))
	entries, _ := filepath.Glob(filepath.Join(cacheRoot, "go-graphviz", "wazero-*", "*"))
	if len(entries) != 1 {
		t.Fatalf("go-graphviz cached %v", entries)
	}
	rel, _ := filepath.Rel(cacheRoot, entries[0])

	t.Run("damaged own entry", func(t *testing.T) {
		if err := os.WriteFile(entries[0], []byte("WAZEVO garbage"), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := startTick(t, append(noHome, "TMPDIR="+own)...); err != nil {
			t.Fatalf("start with a damaged entry: %v\n%s", err, out)
		}
		if out, err := startTick(t, append(noHome, "TMPDIR="+own)...); err != nil {
			t.Fatalf("the start after: %v\n%s", err, out)
		}
	})
	t.Run("planted by another user", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to make files another user owns")
		}
		shared := t.TempDir()
		os.Chmod(shared, 0o777|os.ModeSticky) // as /tmp
		planted := filepath.Join(shared, "tick-"+itoa(os.Getuid()))
		entry := filepath.Join(planted, rel)
		if err := os.MkdirAll(filepath.Dir(entry), 0o777); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(entry, []byte("WAZEVO garbage"), 0o666)
		filepath.Walk(planted, func(p string, _ os.FileInfo, _ error) error { return os.Chown(p, 65534, 65534) })
		out, err := startTick(t, append(noHome, "TMPDIR="+shared)...)
		if err != nil {
			t.Fatalf("start with a planted cache: %v\n%s", err, out)
		}
		if b, _ := os.ReadFile(entry); string(b) != "WAZEVO garbage" {
			t.Errorf("the other user's file was changed")
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
