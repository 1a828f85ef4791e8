package kernel_test

import (
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/kerneltest"
	"github.com/tick-kernel/tick/kernel/session"
)

// realService serves requests with a real session (yaegi).
func realService(t *testing.T) (*kernel.Mux, *strings.Builder) {
	t.Helper()
	s, err := session.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := &strings.Builder{}
	svc := kernel.NewService(s, kernel.ServiceOptions{Info: kernel.Info{Version: "test"}})
	shell, control := kernel.NewMux(log), kernel.NewMux(log)
	svc.Register(shell, control)
	return shell, log
}

func run(shell *kernel.Mux, code string) *kerneltest.Recorder {
	rec := kerneltest.NewRecorder()
	shell.Serve(rec, kerneltest.NewRequest("execute_request", map[string]any{"code": code}))
	return rec
}

// stillServes checks kernel_info and that `x + 1` is 43 (state intact).
func stillServes(t *testing.T, shell *kernel.Mux) {
	t.Helper()
	rec := kerneltest.NewRecorder()
	shell.Serve(rec, kerneltest.NewRequest("kernel_info_request", map[string]any{}))
	if r := rec.Replies(); len(r) != 1 || r[0].Content["status"] != "ok" {
		t.Fatalf("kernel_info after the cell: %v", r)
	}
	rec = run(shell, "x + 1")
	if r := rec.Replies(); len(r) != 1 || r[0].Content["status"] != "ok" {
		t.Fatalf("x + 1 after the cell: %v", r)
	}
	for _, p := range rec.Published() {
		if p.MsgType == "execute_result" {
			if got := p.Content["data"].(map[string]any)["text/plain"]; got != "43" {
				t.Fatalf("x + 1 = %v, want 43", got)
			}
			return
		}
	}
	t.Fatal("x + 1 published no result")
}

func TestGoexitInCellRepliesAndKeepsServing(t *testing.T) {
	shell, _ := realService(t)
	run(shell, "x := 42")
	rec := run(shell, "import \"runtime\"\nruntime.Goexit()")
	r := rec.Replies()
	if len(r) != 1 || r[0].Content["status"] != "error" || !strings.Contains(r[0].Content["evalue"].(string), "runtime.Goexit") {
		t.Fatalf("reply to a cell calling Goexit: %v", r)
	}
	types := rec.Types()
	if types[len(types)-1] != "status" {
		t.Fatalf("no idle after the Goexit cell: %v", types)
	}
	stillServes(t, shell)
}
