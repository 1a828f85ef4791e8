//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
)

// TestMain lets the test binary be the engine its supervisors start: the
// supervisor runs os.Executable() with the argument "engine".
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "engine" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

type lines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// TestFatalErrorInTheRealEngine: a data race on a map in a real cell (the
// interpreter, the session, the magics) ends that cell with Go's fatal
// message; the kernel's runner goes on with a fresh engine.
func TestFatalErrorInTheRealEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("starts engines")
	}
	var log lines
	r, closeRunner, err := newRunner(engineFlags{}, &log)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRunner()
	exec := func(code string) (session.Result, string) {
		sink := &sinktest.Recorder{}
		res := r.Execute(context.Background(), session.Cell{Code: code, Count: 1}, sink)
		return res, sink.Text("")
	}
	if res, _ := exec("x := 41"); res.Err != nil {
		t.Fatal(res.Err)
	}
	res, _ := exec(`import "sync"
m := map[int]int{}
var wg sync.WaitGroup
for i := 0; i < 4; i++ {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for j := 0; j < 10000000; j++ {
			m[j%100]++
		}
	}()
}
wg.Wait()`)
	if res.Err == nil || res.Err.Name != "FatalError" || !strings.Contains(res.Err.Value, "concurrent map") {
		t.Fatalf("got %+v; log:\n%s", res.Err, log.buf.String())
	}
	tb := strings.Join(res.Err.Traceback, "\n")
	for _, want := range []string{"fatal error: concurrent map", "started by a go statement in a cell", "lost"} {
		if !strings.Contains(tb, want) {
			t.Errorf("the traceback does not say %q:\n%s", want, tb)
		}
	}
	res, out := exec(`fmt.Println("after", 1+1)`)
	if res.Err != nil || !strings.Contains(out, "after 2") {
		t.Fatalf("the next cell: %v %q", res.Err, out)
	}
	if res, _ := exec("x"); res.Err == nil || !strings.Contains(res.Err.Value, "undefined: x") {
		t.Fatalf("x after the engine's death: %+v", res)
	}
}

// TestCompiledCodePrintsIntoTheCell: what code the interpreter does not
// run writes to the engine process's own stdout (fd 1: compiled Go, C) and
// os.Stderr (compiled Go, here package flag's usage text); it used to go
// to the kernel's stdout and log instead of the cell.
func TestCompiledCodePrintsIntoTheCell(t *testing.T) {
	if testing.Short() {
		t.Skip("starts engines")
	}
	var log lines
	r, closeRunner, err := newRunner(engineFlags{}, &log)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRunner()
	sink := &sinktest.Recorder{}
	res := r.Execute(context.Background(), session.Cell{Code: `import ("flag"; "os")
fmt.Println("before")
fd1 := os.NewFile(1, "the engine's stdout")
fd1.WriteString("written to fd 1\n")
fs := flag.NewFlagSet("x", flag.ContinueOnError)
fs.Int("n", 1, "how many loops")
fs.PrintDefaults()
fmt.Println("after")`, Count: 1}, sink)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	// Within a stream the order is the program's. Between stdout and
	// stderr (two pipes, as in a terminal) there is none to promise: beside
	// a CPU hog the usage on stderr arrived before fd 1's line on stdout.
	out, errText := sink.Text("stdout"), sink.Text("stderr")
	i, j, l := strings.Index(out, "before"), strings.Index(out, "written to fd 1"), strings.Index(out, "after")
	if i < 0 || j < 0 || l < 0 || !(i < j && j < l) {
		t.Errorf("the cell's stdout, in order, should be before, fd 1, after; got %q (stderr %q; kernel log: %q)", out, errText, log.buf.String())
	}
	if !strings.Contains(errText, "how many loops") {
		t.Errorf("the flag usage (os.Stderr of compiled code) is not on the cell's stderr: %q (stdout %q; kernel log: %q)", errText, out, log.buf.String())
	}
}
