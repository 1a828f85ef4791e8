package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session/stdio"
)

// interruptAfter runs code as a cell and interrupts it after d; it
// returns the result and how long the cell ran after the interrupt.
func interruptAfter(t *testing.T, s *Session, count int, code string, d time.Duration) (Result, time.Duration) {
	t.Helper()
	fired := interruptWhenRunning(s, d) // at least d, once the cell runs (load can delay its start)
	res, _ := exec(t, s, count, code)
	return res, time.Since(<-fired)
}

func TestInterrupt(t *testing.T) {
	s := newSession(t)
	setup := `import "sort"
counter := 0
add := func(n int) int { counter += n; return counter }
func spin(n int) int { x := 0; for i := 0; i < n; i++ { x += i % 7 }; return x }
vals := []int{3, 1, 2}`
	if res, _ := exec(t, s, 1, setup); res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	for _, tc := range []struct{ name, code string }{
		{"for_ever", "for {}"},
		{"long_loop_in_func", "spin(1 << 62)"},
		{"loop_in_sort_callback", "sort.Slice(vals, func(i, j int) bool { for {} })"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, late := interruptAfter(t, s, 2, tc.code, 100*time.Millisecond)
			if res.Err == nil || res.Err.Name != "Interrupted" {
				t.Fatalf("got %v, want an Interrupted error", res.Err)
			}
			// The loops never end by themselves: the error is the interrupt's
			// doing. How soon is a speed (reported here, not asserted: load
			// stretches it).
			t.Logf("stopped %v after the interrupt", late)
			// Everything defined before still works.
			res, _ = exec(t, s, 3, "sort.Ints(vals)\nadd(2) + spin(10) + vals[0]")
			if res.Err != nil {
				t.Fatalf("after interrupt: %v", res.Err.Traceback)
			}
			if res.Value == nil {
				t.Fatal("after interrupt: no value")
			}
		})
	}
	res, _ := exec(t, s, 4, "counter")
	if got := res.Value.Bundle["text/plain"]; got != "6" {
		t.Errorf("counter = %v, want 6 (closure state kept across interrupts)", got)
	}
}

func TestInterruptByContext(t *testing.T) {
	s := newSession(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res := s.Execute(ctx, Cell{Code: "for {}", Count: 1}, &sinktest.Recorder{})
	if res.Err == nil || res.Err.Name != "Interrupted" {
		t.Fatalf("got %v, want Interrupted", res.Err)
	}
}

func TestRecursionDepth(t *testing.T) {
	s, err := New(Options{MaxDepth: 1000})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := exec(t, s, 1, "func down(n int) int { return down(n+1) + 1 }\ndown(0)")
	if res.Err == nil || !strings.Contains(res.Err.Value, "call depth") {
		t.Fatalf("got %v, want a call depth error", res.Err)
	}
	res, _ = exec(t, s, 2, "func fact(n int) int { if n < 2 { return 1 }; return n * fact(n-1) }\nfact(10)")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "3628800" {
		t.Fatalf("after runaway recursion: %v %v", res.Err, res.Value)
	}
}

func TestGoroutinePanic(t *testing.T) {
	s := newSession(t)
	res, rec := exec(t, s, 1, `import "time"
done := make(chan bool)
go func(msg string) { defer close(done); panic(msg) }("boom")
<-done
time.Sleep(10 * time.Millisecond)
"still here"`)
	if res.Err != nil {
		t.Fatalf("cell failed: %v", res.Err.Traceback)
	}
	if got := rec.Text("stderr"); !strings.Contains(got, "panic in goroutine: boom") {
		t.Errorf("stderr %q, want the goroutine's panic", got)
	}
	// A goroutine that outlives its cell reports on the next cell.
	exec(t, s, 2, `go func() { time.Sleep(30 * time.Millisecond); panic("late") }()`)
	got := ""
	for try := 0; try < 20 && !strings.Contains(got, "panic in goroutine: late"); try++ {
		time.Sleep(100 * time.Millisecond) // a loaded machine may start the goroutine late
		_, rec = exec(t, s, 3, `1`)
		got += rec.Text("stderr")
	}
	if !strings.Contains(got, "panic in goroutine: late") {
		t.Errorf("next cells' stderr %q, want the late panic", got)
	}
	// go with a named function.
	res, rec = exec(t, s, 4, "func bad(){ var m map[string]int; m[\"x\"] = 1 }\ngo bad()\ntime.Sleep(20*time.Millisecond)")
	if res.Err != nil || !strings.Contains(rec.Text("stderr"), "assignment to entry in nil map") {
		t.Errorf("go bad(): err %v stderr %q", res.Err, rec.Text("stderr"))
	}
}

func TestPanicTraceback(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, "func idx(a []int, i int) int {\n\treturn a[i]\n}")
	res, _ := exec(t, s, 2, "x := []int{1}\nidx(x, 5)")
	if res.Err == nil || res.Err.Name != "Panic" {
		t.Fatalf("got %v, want Panic", res.Err)
	}
	tb := strings.Join(res.Err.Traceback, "\n")
	if !strings.Contains(tb, "cell[1]:1:") || !strings.Contains(tb, "in idx") || !strings.Contains(tb, "index out of range") {
		t.Errorf("traceback does not name cell[1]:2 and the panic:\n%s", tb)
	}
	for _, internal := range []string{"ᐩ", "yaegi", "main.main"} {
		if strings.Contains(tb, internal) {
			t.Errorf("traceback shows internal %q:\n%s", internal, tb)
		}
	}
	// A panic inside native code keeps its Go frames.
	res, _ = exec(t, s, 3, "import \"regexp\"\nregexp.MustCompile(\"(\")")
	if res.Err == nil || !strings.Contains(strings.Join(res.Err.Traceback, "\n"), "regexp.MustCompile") {
		t.Errorf("native panic: traceback lacks Go frames: %v", res.Err)
	}
}

// goOnSink creates a file when the first text reaches it: a cell that waits
// for that file goes on only if its output was streamed while it ran.
type goOnSink struct {
	*sinktest.Recorder
	path string
}

func (g goOnSink) Stream(name, text string) {
	g.Recorder.Stream(name, text)
	if strings.Contains(text, "first") {
		_ = os.WriteFile(g.path, nil, 0o644)
	}
}

// The cell prints, then waits (a minute at most) for the sink to have the
// line: an order of events, not a time, so load cannot break it.
func TestStreamingArrivesBeforeCellEnds(t *testing.T) {
	s := newSession(t)
	sink := goOnSink{&sinktest.Recorder{}, filepath.Join(t.TempDir(), "go-on")}
	code := fmt.Sprintf(`import ("fmt"; "os"; "time")
fmt.Println("first")
_, err := os.Stat(%[1]q)
for i := 0; i < 6000 && err != nil; i++ {
	time.Sleep(10 * time.Millisecond)
	_, err = os.Stat(%[1]q)
}
fmt.Println("second", err == nil)`, sink.path)
	res := s.Execute(context.Background(), Cell{Code: code, Count: 1}, sink)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	streams := sink.Of(sinktest.Stream)
	if len(streams) != 2 || streams[0].Text != "first\n" || streams[1].Text != "second true\n" {
		t.Fatalf("streams %q, want first and \"second true\" in two messages (false: the first line reached the sink only when the cell ended)", sink.Text(""))
	}
}

func TestStdin(t *testing.T) {
	s := newSession(t)
	var prompts []string
	r := &sinktest.Recorder{}
	res := s.Execute(context.Background(), Cell{Code: "import \"fmt\"\nvar name string\nfmt.Print(\"name? \")\nfmt.Scanln(&name)\nname", Count: 1,
		Stdin: func(prompt string, password bool) (string, error) {
			prompts = append(prompts, prompt)
			return "gopher", nil
		}}, r)
	if res.Err != nil || res.Value.Bundle["text/plain"] != `"gopher"` {
		t.Fatalf("got %v %v", res.Err, res.Value)
	}
	if len(prompts) != 1 || prompts[0] != "name? " {
		t.Errorf("prompts %q, want [\"name? \"]", prompts)
	}
	// The prompt goes out once: as the input request's prompt, not also
	// in the stream (front ends showed "name? name? ").
	for _, st := range r.Of(sinktest.Stream) {
		if strings.Contains(st.Text, "name?") {
			t.Errorf("the prompt is in the stream too: %q", r.Text(""))
		}
	}
	res = s.Execute(context.Background(), Cell{Code: "import (\"bufio\"; \"os\")\n_, err := bufio.NewReader(os.Stdin).ReadString('\\n')\nerr", Count: 2}, r)
	if res.Err != nil || !strings.Contains(res.Value.Bundle["text/plain"].(string), "does not allow input") {
		t.Errorf("nil Stdin: got %v %v, want an error saying input is not allowed", res.Err, res.Value)
	}
	if !errors.Is(stdio.ErrNoInput, stdio.ErrNoInput) {
		t.Fatal("unreachable")
	}
}
