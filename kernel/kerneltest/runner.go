package kerneltest

import (
	"context"
	"sync"

	"github.com/tick-kernel/tick/kernel/session"
)

// Runner is a scripted session.Runner. Each method calls the matching Func
// field when set, else answers with a neutral value; every call is
// recorded.
type Runner struct {
	ExecuteFunc    func(ctx context.Context, cell session.Cell, sink session.Sink) session.Result
	CompleteFunc   func(code string, cursor int) session.Completion
	InspectFunc    func(code string, cursor, detail int) session.Inspection
	IsCompleteFunc func(code string) session.Completeness

	mu         sync.Mutex
	cells      []session.Cell
	interrupts int
}

// Execute records cell and calls ExecuteFunc.
func (r *Runner) Execute(ctx context.Context, cell session.Cell, sink session.Sink) session.Result {
	r.mu.Lock()
	r.cells = append(r.cells, cell)
	f := r.ExecuteFunc
	r.mu.Unlock()
	if f == nil {
		return session.Result{}
	}
	return f(ctx, cell, sink)
}

// Complete calls CompleteFunc.
func (r *Runner) Complete(code string, cursor int) session.Completion {
	if r.CompleteFunc == nil {
		return session.Completion{Start: cursor, End: cursor}
	}
	return r.CompleteFunc(code, cursor)
}

// Inspect calls InspectFunc.
func (r *Runner) Inspect(code string, cursor, detail int) session.Inspection {
	if r.InspectFunc == nil {
		return session.Inspection{}
	}
	return r.InspectFunc(code, cursor, detail)
}

// IsComplete calls IsCompleteFunc.
func (r *Runner) IsComplete(code string) session.Completeness {
	if r.IsCompleteFunc == nil {
		return session.Completeness{Status: "complete"}
	}
	return r.IsCompleteFunc(code)
}

// Interrupt counts interrupts.
func (r *Runner) Interrupt() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.interrupts++
}

// Cells returns the cells executed so far.
func (r *Runner) Cells() []session.Cell {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]session.Cell(nil), r.cells...)
}

// Interrupts returns how many times Interrupt was called.
func (r *Runner) Interrupts() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.interrupts
}

var _ session.Runner = (*Runner)(nil)
