package kernel_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/kerneltest"
	"github.com/tick-kernel/tick/kernel/session"
)

// fixture wires a Service to a scripted runner and serves requests
// through the same Mux the kernel uses.
type fixture struct {
	runner  *kerneltest.Runner
	service *kernel.Service
	shell   *kernel.Mux
	control *kernel.Mux
	log     strings.Builder
	restart []bool
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{runner: &kerneltest.Runner{}}
	f.service = kernel.NewService(f.runner, kernel.ServiceOptions{
		Info:     kernel.Info{Version: "9.9.9 (test)"},
		Shutdown: func(restart bool) { f.restart = append(f.restart, restart) },
	})
	f.shell, f.control = kernel.NewMux(&f.log), kernel.NewMux(&f.log)
	f.service.Register(f.shell, f.control)
	return f
}

func (f *fixture) serve(mux *kernel.Mux, msgType string, content any) *kerneltest.Recorder {
	rec := kerneltest.NewRecorder()
	mux.Serve(rec, kerneltest.NewRequest(msgType, content))
	return rec
}

// checkBusyIdle asserts the first and last publications are busy and idle.
func checkBusyIdle(t *testing.T, rec *kerneltest.Recorder) {
	t.Helper()
	pub := rec.Published()
	if len(pub) < 2 || pub[0].MsgType != "status" || pub[0].Content["execution_state"] != "busy" ||
		pub[len(pub)-1].MsgType != "status" || pub[len(pub)-1].Content["execution_state"] != "idle" {
		t.Fatalf("want busy ... idle around the request, got %v", rec.Types())
	}
}

func TestKernelInfo(t *testing.T) {
	f := newFixture(t)
	for _, mux := range []*kernel.Mux{f.shell, f.control} {
		rec := f.serve(mux, "kernel_info_request", map[string]any{})
		checkBusyIdle(t, rec)
		r := rec.Reply1(t.Fatalf)
		if r.MsgType != "kernel_info_reply" || r.Content["protocol_version"] != "5.3" || r.Content["implementation"] != "tick" {
			t.Errorf("reply = %+v", r)
		}
		li := r.Content["language_info"].(map[string]any)
		for k, want := range map[string]string{"name": "go", "mimetype": "text/x-go", "file_extension": ".go", "pygments_lexer": "go", "codemirror_mode": "go"} {
			if li[k] != want {
				t.Errorf("language_info[%s] = %v, want %s", k, li[k], want)
			}
		}
		if v, _ := li["version"].(string); v != session.GoVersion {
			t.Errorf("language_info.version = %q, want the Go cells speak, %s", v, session.GoVersion)
		}
		if !strings.Contains(r.Content["banner"].(string), "9.9.9") {
			t.Errorf("banner %q lacks the tick version", r.Content["banner"])
		}
	}
}

func TestExecuteCountsAndOutputs(t *testing.T) {
	f := newFixture(t)
	f.runner.ExecuteFunc = func(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
		sink.Stream("stdout", "out:"+c.Code)
		return session.Result{Value: &display.Data{Bundle: display.Bundle{"text/plain": "42", "image/png": []byte{1, 2}}}}
	}
	for _, tc := range []struct {
		name      string
		content   map[string]any
		wantCount float64
		wantTypes []string
	}{
		{"first", map[string]any{"code": "a"}, 1, []string{"status", "execute_input", "stream", "execute_result", "status"}},
		{"no history keeps count", map[string]any{"code": "b", "store_history": false}, 1, []string{"status", "execute_input", "stream", "execute_result", "status"}},
		{"silent publishes nothing", map[string]any{"code": "c", "silent": true}, 1, []string{"status", "status"}},
		{"second", map[string]any{"code": "d"}, 2, []string{"status", "execute_input", "stream", "execute_result", "status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.serve(f.shell, "execute_request", tc.content)
			r := rec.Reply1(t.Fatalf)
			if r.Content["status"] != "ok" || r.Content["execution_count"] != tc.wantCount {
				t.Errorf("reply %+v, want ok with count %v", r.Content, tc.wantCount)
			}
			if got := rec.Types(); !reflect.DeepEqual(got, tc.wantTypes) {
				t.Errorf("published %v, want %v", got, tc.wantTypes)
			}
			if res := rec.Of("execute_result"); len(res) == 1 {
				data := res[0].Content["data"].(map[string]any)
				if data["image/png"] != "AQI=" || data["text/plain"] != "42" {
					t.Errorf("execute_result data = %v (png must be base64)", data)
				}
			}
		})
	}
	tail := f.service.History().Query(kernel.HistoryQuery{HistAccessType: "tail", N: 10})
	if len(tail) != 2 || tail[0].Input != "a" || tail[1].Input != "d" || tail[1].Line != 2 || tail[1].Output != "42" {
		t.Errorf("history = %+v, want cells a and d", tail)
	}
}

func TestExecuteErrorAbortsQueued(t *testing.T) {
	f := newFixture(t)
	f.runner.ExecuteFunc = func(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
		if c.Code == "bad" {
			return session.Result{Err: &session.Error{Name: "Panic", Value: "boom", Traceback: []string{"Panic: boom"}}}
		}
		return session.Result{}
	}
	queued := kerneltest.NewRequest("execute_request", map[string]any{"code": "queued"})
	queued.Received = queued.Received.Add(-time.Second) // it arrived while "bad" ran
	rec := f.serve(f.shell, "execute_request", map[string]any{"code": "bad"})
	r := rec.Reply1(t.Fatalf)
	if r.Content["status"] != "error" || r.Content["ename"] != "Panic" {
		t.Errorf("reply = %+v", r.Content)
	}
	if errs := rec.Of("error"); len(errs) != 1 || errs[0].Content["evalue"] != "boom" {
		t.Errorf("error publications = %+v", errs)
	}

	rec = kerneltest.NewRecorder()
	f.shell.Serve(rec, queued)
	if got := rec.Reply1(t.Fatalf).Content["status"]; got != "aborted" {
		t.Errorf("queued execute status = %v, want aborted", got)
	}
	rec = f.serve(f.shell, "execute_request", map[string]any{"code": "later"})
	if got := rec.Reply1(t.Fatalf).Content["status"]; got != "ok" {
		t.Errorf("execute sent after the error: status %v, want ok", got)
	}
	if cells := f.runner.Cells(); len(cells) != 2 || cells[1].Code != "later" {
		t.Errorf("runner saw %+v; the aborted cell must not run", cells)
	}
}

func TestExecuteNoStopOnError(t *testing.T) {
	f := newFixture(t)
	f.runner.ExecuteFunc = func(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
		return session.Result{Err: &session.Error{Name: "Panic", Value: "x"}}
	}
	queued := kerneltest.NewRequest("execute_request", map[string]any{"code": "q"})
	queued.Received = queued.Received.Add(-time.Second)
	f.serve(f.shell, "execute_request", map[string]any{"code": "bad", "stop_on_error": false})
	rec := kerneltest.NewRecorder()
	f.shell.Serve(rec, queued)
	if got := rec.Reply1(t.Fatalf).Content["status"]; got != "error" {
		t.Errorf("status %v, want error (it ran)", got)
	}
}

func TestExecutePageAndUserExpressions(t *testing.T) {
	f := newFixture(t)
	f.runner.ExecuteFunc = func(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
		switch c.Code {
		case "%help":
			return session.Result{Page: "help text"}
		case "x":
			return session.Result{Value: &display.Data{Bundle: display.Bundle{"text/plain": "7"}}}
		case "nope":
			return session.Result{Err: &session.Error{Name: "CompileError", Value: "undefined: nope"}}
		}
		return session.Result{}
	}
	rec := f.serve(f.shell, "execute_request", map[string]any{"code": "%help", "user_expressions": map[string]string{"a": "x", "b": "nope"}})
	r := rec.Reply1(t.Fatalf).Content
	payload := r["payload"].([]any)
	if len(payload) != 1 {
		t.Fatalf("payload = %v", payload)
	}
	p := payload[0].(map[string]any)
	if p["source"] != "page" || p["data"].(map[string]any)["text/plain"] != "help text" || p["start"] != 0.0 {
		t.Errorf("page payload = %v", p)
	}
	ue := r["user_expressions"].(map[string]any)
	a, b := ue["a"].(map[string]any), ue["b"].(map[string]any)
	if a["status"] != "ok" || a["data"].(map[string]any)["text/plain"] != "7" {
		t.Errorf("user_expressions.a = %v", a)
	}
	if b["status"] != "error" || b["ename"] != "CompileError" {
		t.Errorf("user_expressions.b = %v", b)
	}
	if n := len(rec.Types()); n != 3 { // busy, execute_input, idle: expressions are silent
		t.Errorf("published %v", rec.Types())
	}
}

func TestExecuteStdin(t *testing.T) {
	f := newFixture(t)
	var got string
	var gotErr error
	f.runner.ExecuteFunc = func(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
		got, gotErr = c.Stdin("name? ", false)
		return session.Result{}
	}
	rec := kerneltest.NewRecorder()
	rec.Answer = func(prompt string, password bool) (string, error) { return "gopher", nil }
	f.shell.Serve(rec, kerneltest.NewRequest("execute_request", map[string]any{"code": "read", "allow_stdin": true}))
	if got != "gopher" || gotErr != nil || !reflect.DeepEqual(rec.Prompts(), []string{"name? "}) {
		t.Errorf("stdin allowed: got %q, %v, prompts %q", got, gotErr, rec.Prompts())
	}
	rec = kerneltest.NewRecorder()
	f.shell.Serve(rec, kerneltest.NewRequest("execute_request", map[string]any{"code": "read", "allow_stdin": false}))
	if gotErr == nil || !strings.Contains(gotErr.Error(), "allow_stdin") || len(rec.Prompts()) != 0 {
		t.Errorf("stdin not allowed: err %v, prompts %q", gotErr, rec.Prompts())
	}
}

func TestDisplayAdapter(t *testing.T) {
	f := newFixture(t)
	f.runner.ExecuteFunc = func(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
		sink.Publish(display.Data{Bundle: display.Bundle{"text/html": "<b>0</b>"}, ID: "d1"})
		sink.Update(display.Data{Bundle: display.Bundle{"text/html": "<b>1</b>"}, ID: "d1"})
		sink.Clear(true)
		return session.Result{}
	}
	rec := f.serve(f.shell, "execute_request", map[string]any{"code": "show"})
	want := []string{"status", "execute_input", "display_data", "update_display_data", "clear_output", "status"}
	if got := rec.Types(); !reflect.DeepEqual(got, want) {
		t.Fatalf("published %v, want %v", got, want)
	}
	for _, typ := range []string{"display_data", "update_display_data"} {
		m := rec.Of(typ)[0].Content
		if m["transient"].(map[string]any)["display_id"] != "d1" || m["metadata"] == nil {
			t.Errorf("%s = %v", typ, m)
		}
	}
	if rec.Of("clear_output")[0].Content["wait"] != true {
		t.Errorf("clear_output = %v", rec.Of("clear_output")[0].Content)
	}
}

func TestCompleteInspectIsComplete(t *testing.T) {
	f := newFixture(t)
	f.runner.CompleteFunc = func(code string, cursor int) session.Completion {
		// "é := 1\nstrings.ToU": the cursor arrives in runes, we see bytes.
		return session.Completion{Matches: []string{"strings.ToUpper"}, Start: cursor - len("strings.ToU"), End: cursor}
	}
	f.runner.InspectFunc = func(code string, cursor, detail int) session.Inspection {
		return session.Inspection{Found: true, Text: fmt.Sprintf("func ToUpper(s string) string @%d", cursor)}
	}
	f.runner.IsCompleteFunc = func(code string) session.Completeness {
		return session.Completeness{Status: "incomplete", Indent: "\t"}
	}
	code := "é := 1\nstrings.ToU"
	runes := len([]rune(code))
	r := f.serve(f.shell, "complete_request", map[string]any{"code": code, "cursor_pos": runes}).Reply1(t.Fatalf).Content
	if r["cursor_end"] != float64(runes) || r["cursor_start"] != float64(runes-len("strings.ToU")) || r["metadata"] == nil {
		t.Errorf("complete_reply = %v (cursors in code points)", r)
	}
	r = f.serve(f.shell, "inspect_request", map[string]any{"code": code, "cursor_pos": runes}).Reply1(t.Fatalf).Content
	if r["found"] != true || r["data"].(map[string]any)["text/plain"] != fmt.Sprintf("func ToUpper(s string) string @%d", len(code)) {
		t.Errorf("inspect_reply = %v", r)
	}
	r = f.serve(f.shell, "is_complete_request", map[string]any{"code": "func f() {"}).Reply1(t.Fatalf).Content
	if r["status"] != "incomplete" || r["indent"] != "\t" {
		t.Errorf("is_complete_reply = %v", r)
	}
	f.runner.InspectFunc = nil
	r = f.serve(f.shell, "inspect_request", map[string]any{"code": "zz", "cursor_pos": 2}).Reply1(t.Fatalf).Content
	if r["found"] != false || len(r["data"].(map[string]any)) != 0 {
		t.Errorf("inspect_reply not found = %v", r)
	}
}

func TestComms(t *testing.T) {
	f := newFixture(t)
	r := f.serve(f.shell, "comm_info_request", map[string]any{}).Reply1(t.Fatalf)
	if r.Content["status"] != "ok" || len(r.Content["comms"].(map[string]any)) != 0 {
		t.Errorf("comm_info_reply = %v", r)
	}
	rec := f.serve(f.shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "nothing", "data": map[string]any{}})
	if closes := rec.Of("comm_close"); len(closes) != 1 || closes[0].Content["comm_id"] != "c1" {
		t.Errorf("comm_open of an unknown target published %v, want one comm_close", rec.Types())
	}
	for _, typ := range []string{"comm_msg", "comm_close"} {
		rec := f.serve(f.shell, typ, map[string]any{"comm_id": "c1", "data": map[string]any{}})
		if len(rec.Replies()) != 0 || len(rec.Types()) != 2 {
			t.Errorf("%s: replies %v, published %v", typ, rec.Replies(), rec.Types())
		}
	}
}

func TestControl(t *testing.T) {
	f := newFixture(t)
	r := f.serve(f.control, "interrupt_request", map[string]any{}).Reply1(t.Fatalf)
	if r.MsgType != "interrupt_reply" || r.Content["status"] != "ok" || f.runner.Interrupts() != 1 {
		t.Errorf("interrupt: %+v, %d interrupts", r, f.runner.Interrupts())
	}
	r = f.serve(f.control, "shutdown_request", map[string]any{"restart": true}).Reply1(t.Fatalf)
	if r.MsgType != "shutdown_reply" || r.Content["restart"] != true || !reflect.DeepEqual(f.restart, []bool{true}) {
		t.Errorf("shutdown: %+v, callbacks %v", r, f.restart)
	}
}

func TestMuxPanicAndUnknown(t *testing.T) {
	var log strings.Builder
	m := kernel.NewMux(&log)
	calls := 0
	m.HandleFunc("boom_request", func(w kernel.Responder, r *kernel.Request) {
		calls++
		if calls == 1 {
			panic(errors.New("handler bug"))
		}
		_ = w.Reply("boom_reply", map[string]any{"status": "ok"})
	})
	rec := kerneltest.NewRecorder()
	m.Serve(rec, kerneltest.NewRequest("boom_request", map[string]any{}))
	checkBusyIdle(t, rec)
	r := rec.Reply1(t.Fatalf)
	if r.MsgType != "boom_reply" || r.Content["status"] != "error" || !strings.Contains(r.Content["evalue"].(string), "handler bug") {
		t.Errorf("panic reply = %+v", r)
	}
	if !strings.Contains(log.String(), "goroutine") {
		t.Errorf("stack not logged: %q", log.String())
	}
	rec = kerneltest.NewRecorder()
	m.Serve(rec, kerneltest.NewRequest("boom_request", map[string]any{}))
	if rec.Reply1(t.Fatalf).Content["status"] != "ok" {
		t.Error("mux did not serve after a panic")
	}
	rec = kerneltest.NewRecorder()
	m.Serve(rec, kerneltest.NewRequest("mystery_request", map[string]any{}))
	checkBusyIdle(t, rec)
	if len(rec.Replies()) != 0 || !strings.Contains(log.String(), "mystery_request") {
		t.Errorf("unknown type: replies %v, log %q", rec.Replies(), log.String())
	}
}
