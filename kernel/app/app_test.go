package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
)

// The production session has the magics, and the runtime's DEBUG lines
// reach the running cell (not the process's stdout).
func TestNew(t *testing.T) {
	r, err := app.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range r.Magics() {
		names[m.Name] = true
	}
	for _, want := range []string{"timeit", "time", "compare", "lsmagic", "help", "env"} {
		if !names[want] {
			t.Errorf("magic %%%s is not registered (have %v)", want, names)
		}
	}
	out := &sinktest.Recorder{}
	res := r.Execute(context.Background(), session.Cell{Code: `import "tick/runtime/tensor"
tensor.SetDebug(2)
y := tensor.Ones(8).Mul(3).Realize()
y.Float32s()[0]`, Count: 1}, out)
	r.Execute(context.Background(), session.Cell{Code: "tensor.SetDebug(0)", Count: 2}, &sinktest.Recorder{})
	if res.Err != nil {
		t.Fatal(strings.Join(res.Err.Traceback, "\n"))
	}
	if res.Value == nil || res.Value.Bundle["text/plain"] != "3" {
		t.Errorf("value %v, want 3", res.Value)
	}
	if out.Text("stdout") == "" {
		t.Error("DEBUG=2 printed nothing in the cell: the runtime's debug writer is not the session's")
	}
}
