//go:build linux

package magic_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/magic/job"
)

// withArg counts the running processes whose command line holds arg.
func withArg(arg string) int {
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte("\x00"+arg+"\x00")) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z")) {
				continue
			}
		}
		n++
	}
	return n
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestShellJobIsKilledUntilEmpty: the process group of a `!` command was
// killed once, so a command that kept making processes left hundreds
// behind; and a command whose shell exited at once (its work in the
// background) ended the cell "ok" with its processes still running. Now
// the cell runs until the job is empty, an interrupt kills it until it is,
// and the error says how many processes that took.
func TestShellJobIsKilledUntilEmpty(t *testing.T) {
	if testing.Short() {
		t.Skip("starts hundreds of processes")
	}
	s := newSession(t)
	mark := func() string { return strconv.Itoa(40000 + os.Getpid()%10000 + int(time.Now().UnixNano()%1000)) }
	ended := regexp.MustCompile(`tick ended its (\d+) process`)
	for _, tc := range []struct {
		name, code string
		procs      int // processes of the mark to wait for before the interrupt
		minEnded   int
		note       string // on stderr before the interrupt
		cgroupOnly bool
	}{
		// A tree of 127 shells, each sleeping: 254 processes, in the group.
		{name: "a tree of processes", code: `!f(){ if [ $1 -gt 0 ]; then f $(($1-1)) & f $(($1-1)) & fi; sleep MARK; }; f 6`, procs: 127, minEnded: 200},
		// The shell exits at once; its background sleep keeps the cell.
		{name: "left in the background", code: `!(sleep MARK &); echo started`, procs: 1, minEnded: 1,
			note: "the shell exited; 1 process it started is still running, and the cell waits for them"},
		// A process in a session of its own leaves the process group; the
		// cgroup still holds it.
		{name: "left the process group", code: `!setsid sleep MARK & sleep MARK`, procs: 2, minEnded: 2, cgroupOnly: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cgroupOnly && os.Getenv(job.CgroupEnv) == "off" {
				t.Skip("cgroups are off")
			}
			m := mark()
			code := strings.ReplaceAll(tc.code, "MARK", m)
			t.Cleanup(func() {
				if n := withArg(m); n > 0 {
					t.Errorf("%d processes left running", n)
				}
			})
			done := make(chan struct{})
			var out string
			var err error
			go func() {
				defer close(done)
				res, k := run(t, s, 2, code)
				out = k.Text("")
				if res.Err != nil {
					err = res.Err
				}
			}()
			waitFor(t, fmt.Sprintf("%d sleeps", tc.procs), func() bool { return withArg(m) >= tc.procs })
			time.Sleep(200 * time.Millisecond)
			s.Interrupt()
			<-done
			if err == nil {
				t.Fatalf("the interrupted command succeeded: %s", out)
			}
			got := ended.FindStringSubmatch(err.Error())
			if got == nil {
				t.Fatalf("the error does not say how many processes it ended: %v", err)
			}
			if n, _ := strconv.Atoi(got[1]); n < tc.minEnded {
				t.Errorf("ended %d processes, want at least %d: %v", n, tc.minEnded, err)
			}
			if tc.note != "" && !strings.Contains(out, tc.note) {
				t.Errorf("no note that the cell waits: %q", out)
			}
			if n := withArg(m); n != 0 {
				t.Fatalf("%d processes left after the interrupt: %v", n, err)
			}
		})
	}
	mustRun(t, s, 3, "!true")
}
