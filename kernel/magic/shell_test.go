package magic_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

func TestShell(t *testing.T) {
	s := newSession(t)
	// stdout and stderr are two pipes: each keeps its order, not the two together.
	k := &sinktest.Recorder{}
	res := s.Execute(context.Background(), session.Cell{Code: "!echo hi; echo oops >&2\n!printf 'ünï'", Count: 1}, k)
	if res.Err != nil || k.Text("stdout") != "hi\nünï" || k.Text("stderr") != "oops\n" {
		t.Errorf("stdout %q, stderr %q, err %v", k.Text("stdout"), k.Text("stderr"), res.Err)
	}
	// A failing command shows its status; the cell goes on.
	k2 := mustRun(t, s, 2, "!exit 3\nx := 5\n!nosuchcommand-tick")
	if got := k2.Text(""); !strings.Contains(got, "!exit 3: exit status 3\n") || !strings.Contains(got, "exit status 127 (the shell found no such command") {
		t.Errorf("streams = %q", got)
	}
	if v, err := s.Eval("x"); err != nil || v.Int() != 5 {
		t.Errorf("x = %v, %v", v, err)
	}
	if res, _ := run(t, s, 3, "%system"); res.Err == nil || !strings.Contains(res.Err.Error(), "no command") {
		t.Errorf("%%system alone: %v", res.Err)
	}
}

func TestShellInterrupt(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, "kept := 7")
	go func() {
		time.Sleep(300 * time.Millisecond)
		s.Interrupt()
	}()
	// "was killed" is the interrupt's doing: the command would end by
	// itself only after its sleep, and exit 0.
	res, _ := run(t, s, 2, "!echo started; sleep 30; echo never")
	if res.Err == nil || res.Err.Name != cell.Interrupted || !strings.Contains(res.Err.Error(), "was killed") {
		t.Fatalf("interrupted shell: %v", res.Err)
	}
	if v, err := s.Eval("kept"); err != nil || v.Int() != 7 {
		t.Errorf("kept = %v, %v", v, err)
	}
	mustRun(t, s, 3, "!true")
}

func TestCdPwd(t *testing.T) {
	orig, _ := os.Getwd()
	t.Chdir(orig) // restored after the test
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	s := newSession(t)
	k := mustRun(t, s, 1, "%cd "+dir)
	if got := k.Text(""); got != dir+"\n" {
		t.Errorf("%%cd printed %q", got)
	}
	res, _ := run(t, s, 2, "%pwd")
	if res.Err != nil || res.Value == nil || res.Value.Bundle["text/plain"] != dir {
		t.Errorf("%%pwd = %+v, %v", res.Value, res.Err)
	}
	if k := mustRun(t, s, 3, "!pwd"); strings.TrimSpace(k.Text("")) != dir {
		t.Errorf("!pwd after %%cd: %q", k.Text(""))
	}
	mustRun(t, s, 4, "%cd -")
	if wd, _ := os.Getwd(); wd != orig {
		t.Errorf("after %%cd -: %s, want %s", wd, orig)
	}
	res, _ = run(t, s, 5, "%cd "+filepath.Join(dir, "nope"))
	if res.Err == nil || !strings.Contains(res.Err.Error(), "the kernel is still in "+orig) {
		t.Errorf("%%cd to a missing directory: %v", res.Err)
	}
}

func TestWho(t *testing.T) {
	s := newSession(t)
	k := mustRun(t, s, 1, "%who")
	if !strings.Contains(k.Text(""), "No variables yet") {
		t.Errorf("%%who on a new session: %q", k.Text(""))
	}
	mustRun(t, s, 2, "x := 1\nname := \"gopher\"\nxs := []float64{1, 2}\nconst big = 1 << 40")
	if got := mustRun(t, s, 3, "%who").Text(""); got != "big\tname\tx\txs\n" {
		t.Errorf("%%who = %q", got)
	}
	if got := mustRun(t, s, 4, "%who float64").Text(""); got != "xs\n" {
		t.Errorf("%%who float64 = %q", got)
	}
	var rows []string // the table's lines, spaces collapsed
	for _, l := range strings.Split(mustRun(t, s, 5, "%whos").Text(""), "\n") {
		rows = append(rows, strings.Join(strings.Fields(l), " "))
	}
	got := strings.Join(rows, "\n")
	for _, want := range []string{"Variable Type Data/Info\n", "\nbig const (untyped int) 1099511627776\n", "\nname string gopher\n", "\nx int 1\n", "\nxs []float64 [1 2]\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("%%whos lacks %q:\n%s", want, got)
		}
	}
}
