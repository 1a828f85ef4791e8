package session

import (
	"strings"
	"testing"
)

// TestDepthIsPerGoroutine: the call-depth limit is the goroutine's own.
// Before, the counter was process-wide and a goroutine entered it before
// its guard: 6,000 goroutines each one call deep killed the process with
// "panic: session.depthSignal". The session's limit is 1,000 here, so
// 6,000 goroutines are six times over it.
func TestDepthIsPerGoroutine(t *testing.T) {
	s, err := New(Options{MaxDepth: 1000})
	if err != nil {
		t.Fatal(err)
	}
	res, rec := exec(t, s, 1, `import "sync"
var wg sync.WaitGroup
release := make(chan struct{})
ready := make(chan struct{}, 6000)
wait := func() { ready <- struct{}{}; <-release }
for i := 0; i < 6000; i++ {
	wg.Add(1)
	go func() { defer wg.Done(); wait() }()
}
for i := 0; i < 6000; i++ { <-ready }
close(release)
wg.Wait()
kept := 42`)
	if res.Err != nil {
		t.Fatalf("6,000 goroutines: %v\n%s", res.Err.Traceback, rec.Text("stderr"))
	}
	if got := rec.Text("stderr"); got != "" {
		t.Errorf("stderr %q", got)
	}
	// Runaway recursion on the cell's goroutine is still stopped.
	res, _ = exec(t, s, 2, "func down(n int) int { return down(n+1) + 1 }\ndown(0)")
	if res.Err == nil || !strings.Contains(res.Err.Value, "call depth") {
		t.Fatalf("got %v, want a call depth error", res.Err)
	}
	res, _ = exec(t, s, 4, "kept + 1")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "43" {
		t.Fatalf("state after the guards: %v %v", res.Err, res.Value)
	}
}
