package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/internal/memlimit"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// The tests start this test binary as the engine: with
// TICK_SUPERVISOR_TEST_ENGINE set it serves a scripted runner whose cells
// are commands that really do what ends a Go process (concurrent map
// writes, a stack overflow, os.Exit, allocating past a ceiling).
const engineEnv = "TICK_SUPERVISOR_TEST_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(engineEnv) == "1" {
		err := Serve(newScript(), os.NewFile(3, "in"), os.NewFile(4, "out"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// script is the test engine's runner.
type script struct {
	mu    sync.Mutex
	vars  map[string]string
	stop  chan struct{}
	spins bool
}

func newScript() *script { return &script{vars: map[string]string{}, stop: make(chan struct{}, 1)} }

func text(s string) *display.Data { return &display.Data{Bundle: display.Bundle{"text/plain": s}} }

//go:noinline
func recurse(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	//lint:ignore SA5007 it recurses until the stack overflows: the fatal error the test provokes
	return recurse(n+1) + int(pad[3])
}

func (s *script) Execute(_ context.Context, c session.Cell, sink session.Sink) session.Result {
	cmd, arg, _ := strings.Cut(c.Code, " ")
	switch cmd {
	case "print":
		n, _ := strconv.Atoi(arg)
		for i := range n {
			sink.Stream("stdout", fmt.Sprintf("line %d\n", i))
		}
		sink.Publish(display.Data{Bundle: display.Bundle{"image/png": []byte{0x89, 'P', 'N', 'G'},
			"application/vnd.test+json": map[string]any{"n": n}, "text/plain": "a picture"}, Metadata: map[string]any{"w": 2}})
		sink.Stream("stderr", "done\n")
		return session.Result{Value: text(fmt.Sprint(n))}
	case "set":
		k, v, _ := strings.Cut(arg, "=")
		s.mu.Lock()
		s.vars[k] = v
		s.mu.Unlock()
		return session.Result{}
	case "get":
		s.mu.Lock()
		v, ok := s.vars[arg]
		s.mu.Unlock()
		if !ok {
			return session.Result{Err: cell.Errorf(cell.CompileError, "undefined: %s", arg)}
		}
		return session.Result{Value: text(v)}
	case "goexit":
		runtime.Goexit()
	case "pid":
		return session.Result{Value: text(strconv.Itoa(os.Getpid()))}
	case "input":
		if c.Stdin == nil {
			return session.Result{Err: cell.Errorf(cell.RuntimeError, "no stdin")}
		}
		line, err := c.Stdin(arg, false)
		if err != nil {
			return session.Result{Err: cell.Errorf(cell.RuntimeError, "%v", err)}
		}
		return session.Result{Value: text(line)}
	case "mapwrite", "later-mapwrite":
		race := func() {
			m := map[int]int{}
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					for j := 0; j < 1e7; j++ {
						m[j%100]++
					}
				})
			}
			wg.Wait()
			// Go's detection of concurrent map use is best effort (the
			// race detector's instrumentation can hide it): end the same
			// way if it did not.
			var mu sync.Mutex
			mu.Unlock()
		}
		if cmd == "later-mapwrite" {
			time.AfterFunc(100*time.Millisecond, race)
			return session.Result{}
		}
		race()
	case "overflow":
		debug.SetMaxStack(1 << 20)
		recurse(0)
	case "exit":
		n, _ := strconv.Atoi(arg)
		os.Exit(n)
	case "alloc":
		n, _ := memlimit.ParseSize(arg)
		b := make([]byte, n)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		time.Sleep(5 * time.Second)
		return session.Result{Value: text(fmt.Sprint(len(b)))}
	case "wait":
		<-s.stop
		return session.Result{Err: cell.Errorf(cell.Interrupted, "interrupted")}
	case "spin":
		for { // ignores interrupts
			s.mu.Lock()
			s.spins = true
			s.mu.Unlock()
		}
	}
	return session.Result{Err: cell.Errorf(cell.CompileError, "unknown command %q", cmd)}
}

func (s *script) Complete(code string, cursor int) session.Completion {
	return session.Completion{Matches: []string{code + "!"}, Start: 0, End: cursor, Details: []session.Detail{{Kind: "function", Signature: "func()"}}}
}

func (s *script) Inspect(code string, cursor, detail int) session.Inspection {
	return session.Inspection{Found: true, Text: fmt.Sprintf("%s@%d/%d", code, cursor, detail)}
}

func (s *script) IsComplete(code string) session.Completeness {
	return session.Completeness{Status: "incomplete", Indent: "  "}
}

func (s *script) Interrupt() {
	select {
	case s.stop <- struct{}{}:
	default:
	}
}

// all is what rec recorded, in order: "stdout:text" for each stream
// write, "publish", "update" and "clear true" for the other calls.
func all(rec *sinktest.Recorder) string {
	var b strings.Builder
	for _, e := range rec.Events() {
		switch e.Kind {
		case sinktest.Stream:
			b.WriteString(e.Name + ":" + e.Text)
		case sinktest.Publish:
			b.WriteString("publish")
		case sinktest.Update:
			b.WriteString("update")
		case sinktest.Clear:
			fmt.Fprint(&b, "clear ", e.Wait)
		}
	}
	return b.String()
}

func testEngine() *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), engineEnv+"=1")
	return cmd
}

// quietRaceReports sends the race detector's reports of the engines a
// test starts to files: the "mapwrite" script races on purpose, and under
// -race the detector's reports and the runtime's "fatal error:" are two
// writers on one stderr whose lines interleave ("fatal error:   <a race
// report's frame>"), so the crash report a cell quotes would be garbled
// by the test's own instrumentation. Without -race GORACE is not read.
func quietRaceReports(t *testing.T) {
	t.Setenv("GORACE", "log_path="+filepath.Join(t.TempDir(), "race"))
}

func newTestRunner(t *testing.T, cfg Config) *Runner {
	t.Helper()
	if cfg.Command == nil {
		cfg.Command = testEngine
	}
	if cfg.Log == nil {
		cfg.Log = testLog{t}
	}
	r := New(cfg)
	t.Cleanup(r.Close)
	return r
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("log: %s", strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func exec1(r *Runner, code string, sink session.Sink) session.Result {
	if sink == nil {
		sink = &sinktest.Recorder{}
	}
	return r.Execute(context.Background(), session.Cell{Code: code, Count: 1}, sink)
}

func value(t *testing.T, res session.Result) string {
	t.Helper()
	if res.Err != nil {
		t.Fatalf("cell failed: %v", res.Err)
	}
	if res.Value == nil {
		t.Fatal("no value")
	}
	return res.Value.Bundle["text/plain"].(string)
}

// TestOutputArrivesInOrderWithItsTypes: streams, displays and the value
// cross the pipe in the order the cell produced them, with the Go types
// the front ends look at (text as string, PNG as bytes, JSON encoded).
func TestOutputArrivesInOrderWithItsTypes(t *testing.T) {
	r := newTestRunner(t, Config{})
	rec := &sinktest.Recorder{}
	res := exec1(r, "print 300", rec)
	if got := value(t, res); got != "300" {
		t.Fatalf("value %q", got)
	}
	var want strings.Builder
	for i := range 300 {
		fmt.Fprintf(&want, "stdout:line %d\n", i)
	}
	want.WriteString("publishstderr:done\n")
	if all(rec) != want.String() {
		t.Fatalf("output out of order or incomplete:\n%.300s", all(rec))
	}
	d := rec.Published()[0]
	if _, ok := d.Bundle["image/png"].([]byte); !ok {
		t.Errorf("image/png is %T, want []byte", d.Bundle["image/png"])
	}
	if raw, ok := d.Bundle["application/vnd.test+json"].(json.RawMessage); !ok || string(raw) != `{"n":300}` {
		t.Errorf("JSON value is %T %s", d.Bundle["application/vnd.test+json"], raw)
	}
	if d.Bundle["text/plain"] != "a picture" || d.Metadata["w"] != float64(2) {
		t.Errorf("bundle %v metadata %v", d.Bundle, d.Metadata)
	}
}

// TestFatalErrorEndsTheCellNotTheKernel: concurrent map writes end the
// engine; the cell's error quotes the fatal message and the goroutine,
// says the variables were lost; the next cell runs in a fresh engine.
func TestFatalErrorEndsTheCellNotTheKernel(t *testing.T) {
	quietRaceReports(t)
	r := newTestRunner(t, Config{})
	exec1(r, "set x=42", nil)
	pid := value(t, exec1(r, "pid", nil))
	res := exec1(r, "mapwrite", nil)
	if res.Err == nil || res.Err.Name != Fatal {
		t.Fatalf("got %+v, want a FatalError", res.Err)
	}
	tb := strings.Join(res.Err.Traceback, "\n")
	for _, want := range []string{"fatal error: ", "variables", "lost", "goroutine ", "[running]", "sync.Mutex", "supervisor.(*script).Execute"} {
		if !strings.Contains(tb, want) {
			t.Errorf("the error does not say %q:\n%s", want, tb)
		}
	}
	if !strings.Contains(res.Err.Value, "concurrent map") && !strings.Contains(res.Err.Value, "unlock of unlocked mutex") {
		t.Errorf("evalue %q", res.Err.Value)
	}
	if got := value(t, exec1(r, "pid", nil)); got == pid {
		t.Errorf("the next cell ran in the same process %s", got)
	}
	if res := exec1(r, "get x", nil); res.Err == nil {
		t.Errorf("x survived the engine: %v", res.Value)
	}
	exec1(r, "set x=1", nil)
	if got := value(t, exec1(r, "get x", nil)); got != "1" {
		t.Errorf("the fresh engine keeps no state: %q", got)
	}
}

// TestEachWayAnEngineEnds: every way the engine process can end gives the
// running cell an error that says what happened, and the next cell runs.
func TestEachWayAnEngineEnds(t *testing.T) {
	for _, tc := range []struct {
		code string
		kind cell.Kind
		want []string
		cfg  Config
	}{
		{code: "overflow", kind: Fatal, want: []string{"stack overflow", "recursion", "goroutine"}},
		{code: "exit 3", kind: EngineDied, want: []string{"exited with status 3", "lost"}},
		{code: "alloc 600MiB", kind: MemoryLimit, want: []string{"killed for using", "of the 200 MiB limit (test ceiling)", memlimit.Env},
			cfg: Config{Memory: memlimit.Ceiling{Limit: memlimit.Limit{Bytes: 200 << 20, Source: "test ceiling"}, Explicit: true}}},
	} {
		t.Run(tc.code, func(t *testing.T) {
			r := newTestRunner(t, tc.cfg)
			res := exec1(r, tc.code, nil)
			if res.Err == nil || res.Err.Name != tc.kind {
				t.Fatalf("got %+v, want %s", res.Err, tc.kind)
			}
			tb := strings.Join(res.Err.Traceback, "\n")
			for _, w := range tc.want {
				if !strings.Contains(tb, w) {
					t.Errorf("missing %q in:\n%s", w, tb)
				}
			}
			value(t, exec1(r, "pid", nil))
		})
	}
}

// TestGoexitInTheEngine: code that ends the goroutine running the cell
// ends the cell, and the engine goes on.
func TestGoexitInTheEngine(t *testing.T) {
	r := newTestRunner(t, Config{})
	exec1(r, "set x=3", nil)
	if res := exec1(r, "goexit", nil); res.Err == nil || !strings.Contains(res.Err.Value, "runtime.Goexit") {
		t.Fatalf("got %+v", res.Err)
	}
	if got := value(t, exec1(r, "get x", nil)); got != "3" {
		t.Fatalf("x = %q", got)
	}
}

// TestInterrupts: an interrupt reaches the cell through the pipe and the
// engine lives on; an engine that ignores three interrupts is ended, and
// the cell says so.
func TestInterrupts(t *testing.T) {
	r := newTestRunner(t, Config{})
	exec1(r, "set x=7", nil)
	time.AfterFunc(200*time.Millisecond, r.Interrupt)
	if res := exec1(r, "wait", nil); res.Err == nil || res.Err.Name != cell.Interrupted {
		t.Fatalf("got %+v", res.Err)
	}
	if got := value(t, exec1(r, "get x", nil)); got != "7" {
		t.Fatalf("the interrupt lost x: %q", got)
	}
	go func() {
		for range killAfterInterrupts {
			time.Sleep(200 * time.Millisecond)
			r.Interrupt()
		}
	}()
	res := exec1(r, "spin", nil)
	if res.Err == nil || res.Err.Name != cell.Interrupted || !strings.Contains(res.Err.Value, "did not stop after 3 interrupts") {
		t.Fatalf("got %+v", res.Err)
	}
	value(t, exec1(r, "pid", nil))
}

// TestCancelledContextInterrupts: Execute's context ends the cell as an
// interrupt does.
func TestCancelledContextInterrupts(t *testing.T) {
	r := newTestRunner(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res := r.Execute(ctx, session.Cell{Code: "wait"}, &sinktest.Recorder{})
	if res.Err == nil || res.Err.Name != cell.Interrupted {
		t.Fatalf("got %+v", res.Err)
	}
}

// TestStdin: input requests go to the cell's Stdin and back.
func TestStdin(t *testing.T) {
	r := newTestRunner(t, Config{})
	var prompts []string
	c := session.Cell{Code: "input name? ", Stdin: func(prompt string, password bool) (string, error) {
		prompts = append(prompts, prompt)
		return "gopher", nil
	}}
	if got := value(t, r.Execute(context.Background(), c, &sinktest.Recorder{})); got != "gopher" || len(prompts) != 1 || prompts[0] != "name? " {
		t.Fatalf("value %q prompts %q", got, prompts)
	}
	c.Stdin = func(string, bool) (string, error) { return "", errors.New("input interrupted") }
	if res := r.Execute(context.Background(), c, &sinktest.Recorder{}); res.Err == nil || !strings.Contains(res.Err.Value, "input interrupted") {
		t.Fatalf("got %+v", res.Err)
	}
	c.Stdin = nil
	if res := r.Execute(context.Background(), c, &sinktest.Recorder{}); res.Err == nil || !strings.Contains(res.Err.Value, "no stdin") {
		t.Fatalf("got %+v", res.Err)
	}
}

// TestDeathBetweenCells: an engine that ends while no cell runs (a
// goroutine a cell left behind) is reported at the start of the next cell,
// which runs in a fresh engine.
func TestDeathBetweenCells(t *testing.T) {
	quietRaceReports(t)
	r := newTestRunner(t, Config{})
	exec1(r, "pid", nil) // the engine runs
	old := r.Pid()
	exec1(r, "later-mapwrite", nil)
	// Wait for the death and the replacement engine, not a fixed second:
	// under -race on a loaded machine the four writers took longer than
	// that to collide, and the engine died during the next cell instead.
	for deadline := time.Now().Add(2 * time.Minute); r.Pid() == 0 || r.Pid() == old; {
		if time.Now().After(deadline) {
			t.Fatalf("the engine (pid %d) did not end and get replaced within 2 minutes", old)
		}
		time.Sleep(10 * time.Millisecond)
	}
	rec := &sinktest.Recorder{}
	value(t, exec1(r, "pid", rec))
	if out := all(rec); !strings.Contains(out, "between cells, the engine ended") || !strings.Contains(out, "FatalError") {
		t.Fatalf("the next cell did not tell: %q", out)
	}
}

// TestAssistCallsPassThrough: completion, inspection and is_complete are
// the engine's answers.
func TestAssistCallsPassThrough(t *testing.T) {
	r := newTestRunner(t, Config{})
	if c := r.Complete("fmt.Pr", 6); len(c.Matches) != 1 || c.Matches[0] != "fmt.Pr!" || c.End != 6 || c.Details[0].Kind != "function" {
		t.Errorf("complete %+v", c)
	}
	if in := r.Inspect("x", 1, 1); !in.Found || in.Text != "x@1/1" {
		t.Errorf("inspect %+v", in)
	}
	if c := r.IsComplete("for {"); c.Status != "incomplete" || c.Indent != "  " {
		t.Errorf("is_complete %+v", c)
	}
}

// TestEngineThatCannotStart: the cell says why; a later cell tries again.
func TestEngineThatCannotStart(t *testing.T) {
	r := newTestRunner(t, Config{Command: func() *exec.Cmd { return exec.Command("/bin/sh", "-c", "echo broken install >&2; exit 1") }})
	res := exec1(r, "pid", nil)
	if res.Err == nil || !strings.Contains(res.Err.Value, "could not start") || !strings.Contains(res.Err.Value, "broken install") {
		t.Fatalf("got %+v", res.Err)
	}
}
