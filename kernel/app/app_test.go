package app_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
)

// stdout records the stdout of a cell.
type stdout struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *stdout) Stream(name, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "stdout" {
		s.b.WriteString(text)
	}
}
func (*stdout) Publish(display.Data) {}
func (*stdout) Update(display.Data)  {}
func (*stdout) Clear(bool)           {}

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
	out := &stdout{}
	res := r.Execute(context.Background(), session.Cell{Code: `import "tick/runtime/tensor"
tensor.SetDebug(2)
y := tensor.Ones(8).Mul(3).Realize()
y.Float32s()[0]`, Count: 1}, out)
	r.Execute(context.Background(), session.Cell{Code: "tensor.SetDebug(0)", Count: 2}, &stdout{})
	if res.Err != nil {
		t.Fatal(strings.Join(res.Err.Traceback, "\n"))
	}
	if res.Value == nil || res.Value.Bundle["text/plain"] != "3" {
		t.Errorf("value %v, want 3", res.Value)
	}
	if out.b.Len() == 0 {
		t.Error("DEBUG=2 printed nothing in the cell: the runtime's debug writer is not the session's")
	}
}
