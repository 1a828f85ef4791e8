package session

import (
	"strings"
	"testing"
	"time"
)

// TestInterruptBlocking interrupts each blocking operation a cell can
// wait in: each ends as Interrupted soon after the interrupt, and the
// variables and closures of earlier cells still work.
func TestInterruptBlocking(t *testing.T) {
	s := newSession(t)
	setup := `import ("fmt"; "sync"; "time")
counter := 0
add := func(n int) int { counter += n; return counter }
ch := make(chan int)
var mu sync.Mutex
var rw sync.RWMutex
func get(c chan int) int { return <-c }
_ = fmt.Sprint`
	if res, _ := exec(t, s, 1, setup); res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	for _, tc := range []struct{ name, code string }{
		{"sleep", "time.Sleep(time.Minute)"},
		{"sleep_then_statement", "time.Sleep(40 * time.Second)\ncounter = -100"},
		{"receive", "<-ch"},
		{"receive_define", "v := <-ch\nfmt.Println(v)"},
		{"receive_comma_ok", "v, ok := <-ch\nfmt.Println(v, ok)"},
		{"receive_in_func", "get(ch)"},
		{"send", "ch <- 1"},
		{"select_empty", "select {}"},
		{"select_cases", "select {\ncase v := <-ch:\n\tfmt.Println(v)\ncase ch <- 2:\n}"},
		{"select_default_in_loop", "for {\n\tselect {\n\tcase <-ch:\n\tdefault:\n\t}\n}"},
		{"waitgroup", "var wg sync.WaitGroup\nwg.Add(1)\nwg.Wait()"},
		{"mutex", "mu.Lock()\nmu.Lock()"},
		{"rwmutex", "rw.RLock()\nrw.Lock()"},
		{"receive_in_expression", "fmt.Println(<-ch)"},
		{"receive_in_call_define", "y := add(<-ch)\nfmt.Println(y)"},
		{"range_channel", "for v := range ch {\n\tfmt.Println(v)\n}"},
		{"range_channel_in_func", "func drain(c <-chan int) int {\n\tn := 0\n\tfor range c {\n\t\tn++\n\t}\n\treturn n\n}\ndrain(ch)"},
		{"goroutine_then_wait", "done := make(chan bool)\ngo func() { time.Sleep(time.Hour); done <- true }()\n<-done"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fired := interruptWhenRunning(s, 100*time.Millisecond)
			res, rec := exec(t, s, 2, tc.code)
			late := time.Since(<-fired)
			if res.Err == nil || res.Err.Name != "Interrupted" {
				t.Fatalf("got %v, want an Interrupted error", res.Err)
			}
			// Each wait never ends by itself (the sleeps outlast the test's
			// interrupt by seconds and are checked by what ran after them):
			// the error is the interrupt's doing; how soon is only reported.
			t.Logf("ended %v after the interrupt", late)
			if strings.Contains(rec.Text("stderr"), "panic") {
				t.Errorf("the interrupted cell printed %q on stderr", rec.Text("stderr"))
			}
			res, _ = exec(t, s, 3, "add(1)")
			if res.Err != nil || res.Value == nil {
				t.Fatalf("after the interrupt: %v", res.Err)
			}
		})
	}
	res, _ := exec(t, s, 4, "counter")
	if got := res.Value.Bundle["text/plain"]; got != "18" {
		t.Errorf("counter = %v, want 18 (closure state kept, the statement after the sleep not run)", got)
	}
	// the mutexes still work after the interrupted waits
	res, rec := exec(t, s, 5, "mu.Unlock()\nrw.RUnlock()\nmu.Lock()\nrw.Lock()\nfmt.Println(\"locked\")")
	if res.Err != nil || rec.Text("stdout") != "locked\n" {
		t.Errorf("locks after interrupts: %v %q", res.Err, rec.Text("stdout"))
	}
}

// TestSecondInterruptAbandons: a wait the first interrupt cannot end (a
// receive inside an expression after a call, which pass recv-expr cannot
// move first) ends at the second, saying what the cell
// is blocked in; the session goes on.
func TestSecondInterruptAbandons(t *testing.T) {
	if checkpointByCall {
		t.Skip("race detector build: the abandoned goroutine's writes inside the interpreter have no happens-before edge with the next cell, which the detector reports")
	}
	s := newSession(t)
	if res, _ := exec(t, s, 1, "import \"fmt\"\nx := 7\nch := make(chan int)"); res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	go func() {
		<-interruptWhenRunning(s, 100*time.Millisecond)
		<-interruptWhenRunning(s, 300*time.Millisecond)
	}()
	res, _ := exec(t, s, 2, "fmt.Println(len(\"\"), <-ch)")
	if res.Err == nil || res.Err.Name != "Interrupted" || !strings.Contains(res.Err.Value, "blocked in a channel receive") ||
		!strings.Contains(res.Err.Value, "restart the kernel") {
		t.Fatalf("got %v, want an Interrupted error saying what it is blocked in", res.Err)
	}
	res, _ = exec(t, s, 3, "x * 6")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "42" {
		t.Fatalf("after abandoning: %v", res.Err)
	}
}

// TestTopLevelDefer: a cell's defer runs at the end of that cell, once,
// last first, with its arguments evaluated at the defer; its recover
// catches that cell's panic only.
func TestTopLevelDefer(t *testing.T) {
	s := newSession(t)
	runTable(t, s, []cellCase{
		{name: "runs_at_end_of_own_cell", code: "import (\"fmt\"; \"context\")\ni := 1\ndefer fmt.Println(\"deferred\", i)\ndefer fmt.Println(\"second\")\ni = 2\nfmt.Println(\"body\")",
			out: "body\nsecond\ndeferred 1\n"},
		{name: "not_again_later", code: "fmt.Println(\"next\")", out: "next\n"},
		{name: "defer_cancel", code: "ctx, cancel := context.WithCancel(context.Background())\ndefer cancel()\nfmt.Println(ctx.Err())", out: "<nil>\n"},
		{name: "cancelled_after", code: "fmt.Println(ctx.Err())", out: "context canceled\n"},
		{name: "recover_own_panic", code: "defer func() {\n\tif r := recover(); r != nil {\n\t\tfmt.Println(\"recovered:\", r)\n\t}\n}()\npanic(\"boom\")",
			out: "recovered: boom\n"},
		{name: "later_panic_not_swallowed", code: "panic(\"later\")", err: "later"},
		{name: "defer_in_top_level_if", code: "if i > 0 {\n\tdefer fmt.Println(\"if-defer\")\n}\nfmt.Println(\"after if\")", out: "after if\nif-defer\n"},
	})
}

// TestDeferThenInterrupt: a top-level defer with recover, then an
// interrupted loop in a later cell: the kernel goes on answering.
func TestDeferThenInterrupt(t *testing.T) {
	s := newSession(t)
	code := "import \"fmt\"\nx := 5\ndefer func() {\n\tif r := recover(); r != nil {\n\t\tfmt.Println(\"recovered\", r)\n\t}\n}()"
	if res, _ := exec(t, s, 1, code); res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	res, _ := interruptAfter(t, s, 2, "for {}", 100*time.Millisecond)
	if res.Err == nil || res.Err.Name != "Interrupted" {
		t.Fatalf("got %v, want Interrupted", res.Err)
	}
	res, _ = exec(t, s, 3, "x + 1")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "6" {
		t.Fatalf("after the interrupt: %v", res.Err)
	}
}

// interruptWhenRunning interrupts s once a cell runs, at least after d
// (an interrupt before the cell begins applies to no cell: on a loaded
// machine the timer could fire before it did), and sends the time of the
// interrupt on the channel it returns.
func interruptWhenRunning(s *Session, d time.Duration) <-chan time.Time {
	fired := make(chan time.Time, 1)
	time.AfterFunc(d, func() {
		for give := time.Now().Add(10 * time.Second); time.Now().Before(give); time.Sleep(5 * time.Millisecond) {
			s.mu.Lock()
			running := s.cell != nil
			s.mu.Unlock()
			if running {
				break
			}
		}
		s.Interrupt()
		fired <- time.Now()
	})
	return fired
}
