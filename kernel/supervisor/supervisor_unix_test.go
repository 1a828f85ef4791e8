//go:build unix

package supervisor

import (
	"errors"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests that send signals to the engine by its process id (syscall.Kill
// exists on Unix only; GOOS=windows go vet ./... checks the rest).

// TestKilledFromOutside: a SIGKILL nobody in tick sent is reported as such.
func TestKilledFromOutside(t *testing.T) {
	r := newTestRunner(t, Config{})
	pid, _ := strconv.Atoi(value(t, exec1(r, "pid", nil)))
	time.AfterFunc(300*time.Millisecond, func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	res := exec1(r, "wait", nil)
	if res.Err == nil || res.Err.Name != EngineDied || !strings.Contains(strings.Join(res.Err.Traceback, "\n"), "signal 9") {
		t.Fatalf("got %+v", res.Err)
	}
	value(t, exec1(r, "pid", nil))
}

// TestCloseEndsTheEngine: after Close no engine process is left.
func TestCloseEndsTheEngine(t *testing.T) {
	r := New(Config{Command: testEngine, Log: testLog{t}})
	pid, _ := strconv.Atoi(value(t, exec1(r, "pid", nil)))
	r.Close()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("engine %d still exists after Close (%v)", pid, err)
	}
	if res := exec1(r, "pid", nil); res.Err == nil {
		t.Fatal("a closed runner ran a cell")
	}
}
