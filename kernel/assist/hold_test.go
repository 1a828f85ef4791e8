package assist

import (
	"testing"
	"time"
)

// checkedFromSource counts the packages the assistant's loader has
// finished checking from source.
func checkedFromSource(a *Assistant) (n int, names map[string]bool) {
	names = map[string]bool{}
	a.imp.mu.Lock()
	defer a.imp.mu.Unlock()
	for path, p := range a.imp.pkgs {
		select {
		case <-p.done:
			if p.source {
				n++
				names[path] = true
			}
		default:
		}
	}
	return n, names
}

// TestHoldPausesWarm: while a cell runs (the session holds the
// assistant), the warm-up checks nothing from source, so a cell timing
// its own loop has the CPUs; a completion asked meanwhile is still
// answered (it lets the held load it needs run), and WaitIdle (a timing
// magic waiting for the assistant to be quiet) lets the warm-up finish.
func TestHoldPausesWarm(t *testing.T) {
	a := New(&fakeScope{}, Options{Packages: testPackages, CacheDir: t.TempDir()}) // a cold cache: everything from source
	release := a.Hold()
	defer release()
	a.Warm()
	time.Sleep(300 * time.Millisecond) // without the hold, strings and its dependencies are checked in far less
	if n, names := checkedFromSource(a); n > 0 {
		t.Fatalf("held, the warm-up checked %d packages from source: %v", n, names)
	}

	got := a.Complete("strings.Repe", 12) // strings is the warm-up's first package, held before its check
	found := false
	for _, m := range got.Matches {
		found = found || m.Text == "Repeat"
	}
	if !found {
		t.Fatalf("a completion while held: %+v, want strings.Repeat", got.Matches)
	}
	if _, names := checkedFromSource(a); names[canonical("tick/runtime/tensor")] {
		t.Fatal("the completion released the hold for the whole warm-up: tick/runtime/tensor was checked")
	}

	if waited := a.WaitIdle(2*time.Minute, nil); a.background.Load() != 0 {
		t.Fatalf("WaitIdle returned after %v with the warm-up still running", waited)
	}
	if _, names := checkedFromSource(a); !names[canonical("tick/runtime/tensor")] || !names["fmt"] {
		t.Fatalf("after WaitIdle the warm-up should have checked every package it loads; checked: %v", names)
	}
	release()
	release() // a second release changes nothing
	if a.held.Load() != 0 {
		t.Fatalf("held = %d after release", a.held.Load())
	}
}
