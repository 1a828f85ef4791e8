package usercache

import (
	"os"
	"testing"
)

func TestInitAndRestore(t *testing.T) {
	// init ran before the test: TMPDIR is the user cache.
	if got := os.Getenv("TMPDIR"); got != Dir() {
		t.Fatalf("TMPDIR during start-up = %q, want %q", got, Dir())
	}
	Restore()
	got, set := os.LookupEnv("TMPDIR")
	if set != saved.set || got != saved.value {
		t.Errorf("after Restore TMPDIR = %q (set %v), want %q (set %v)", got, set, saved.value, saved.set)
	}
}
