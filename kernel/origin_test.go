package kernel_test

import (
	"context"
	"testing"

	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/kerneltest"
	"github.com/tick-kernel/tick/kernel/session"
)

// TestFromFirstClient: a cell knows whether the client that started the
// kernel (the first session on shell) asked for it; cmd/tick's console
// watch must never interrupt another client's cell.
func TestFromFirstClient(t *testing.T) {
	f := newFixture(t)
	var got []bool
	f.runner.ExecuteFunc = func(ctx context.Context, _ session.Cell, _ session.Sink) session.Result {
		got = append(got, kernel.FromFirstClient(ctx))
		return session.Result{}
	}
	send := func(msgType, sess string, content any) {
		r := kerneltest.NewRequest(msgType, content)
		r.Msg.Header.Session = sess
		f.shell.Serve(kerneltest.NewRecorder(), r)
	}
	send("kernel_info_request", "console", map[string]any{})
	send("execute_request", "console", map[string]any{"code": "1"})
	send("execute_request", "notebook", map[string]any{"code": "2"})
	send("kernel_info_request", "notebook", map[string]any{})
	send("execute_request", "console", map[string]any{"code": "3"})
	want := []bool{true, false, true}
	if len(got) != len(want) {
		t.Fatalf("ran %d cells, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("cell %d: FromFirstClient = %v, want %v (the first session was the console's)", i+1, got[i], want[i])
		}
	}
	if kernel.FromFirstClient(context.Background()) {
		t.Error("FromFirstClient outside a cell = true")
	}
}
