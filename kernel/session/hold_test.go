package session

import (
	"context"
	"testing"

	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
)

// TestCellHoldsAssistant: while a cell runs, the assistant's background
// warm-up is held (a cell timing its own loop has the CPUs to itself), and
// released when the cell ends, whether it succeeded, failed or panicked.
func TestCellHoldsAssistant(t *testing.T) {
	s := newSession(t)
	for i, code := range []string{"x := 1\n_ = x", "undefinedName", `panic("boom")`} {
		var during bool
		res := s.ExecuteWith(context.Background(), Cell{Code: code, Count: i + 1}, &sinktest.Recorder{}, func(r *Run) Result {
			during = s.ins.asst.Held()
			return r.Go(r.Cell().All())
		})
		if !during {
			t.Errorf("cell %q: the assistant was not held while it ran", code)
		}
		if s.ins.asst.Held() {
			t.Errorf("cell %q (err %v): the assistant is still held after the cell", code, res.Err)
		}
	}
}
