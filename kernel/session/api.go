package session

// This file is the contract between the session and whatever runs it (the
// Jupyter kernel in package kernel, `tick run`, tests). It holds no Jupyter
// types: outputs are reported through Sink, results are plain data.

import (
	"context"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/stdio"
)

// Sink receives what a running cell produces, in order: display.Publisher
// (Publish, Update, Clear) and Stream(name, text string), which writes text
// to "stdout" or "stderr" (the session coalesces writes and flushes at
// least every 50 ms and when the cell ends). Calls come from the goroutine
// running the cell and from goroutines the cell started, so
// implementations must be safe for concurrent use. Package stdio, which
// routes the cell's streams, declares it.
type Sink = stdio.Sink

// Discard is a Sink that drops all output (a silent execution, an import
// outside any cell).
var Discard = stdio.Discard

// CellSink is the Sink of a running cell as ExecuteWith hands it to the
// code that runs the cell (Run.Sink), and to the magics: each call keeps
// its place among the text the cell printed, and Shown says how many
// outputs the cell has shown.
type CellSink interface {
	Sink
	// Shown returns the number of outputs (stream text included) the
	// cell has sent since it began or was last cleared, or -1 when the
	// sink does not count them. Magics use it to clear a progress line
	// only when nothing else would be cleared with it.
	Shown() int
}

// Cell is one execution request.
type Cell struct {
	Code string
	// Count is the execution count shown as cell[Count] in positions.
	Count int
	// Stdin, when non-nil, answers reads of standard input by user code
	// (prompt is what the code printed last on the line; password hides the
	// echo). When nil, reading stdin is an error that says input is not
	// allowed for this execution.
	Stdin func(prompt string, password bool) (string, error)
}

// Result is the outcome of one cell.
type Result struct {
	// Value is the cell's value (Jupyter: execute_result), nil when the last
	// statement is not an expression or the cell failed. Its Bundle has at
	// least "text/plain".
	Value *display.Data
	// Err is set when the cell failed (compile error, panic, interrupt).
	Err *Error
	// Page is text for a pager (Jupyter: execute_reply payload "page"), set
	// by help requests such as `%help` or `%timeit?`.
	Page string
}

// Error describes a failed cell in the shape Jupyter expects: its Name
// is one of the kinds of package cell (cell.Panic, cell.Interrupted, ...),
// which errors.Is matches.
type Error = cell.Error

// Completion is the answer to a completion request. Matches replace
// code[Start:End] (byte offsets).
type Completion struct {
	Matches    []string
	Start, End int
	// Details, when not nil, describe the matches, one for each.
	Details []Detail
}

// Detail says what a completion is (Kind: function, method, variable,
// field, constant, type, module, keyword, path, magic) and its type or
// signature, for front ends that show them (Jupyter's
// _jupyter_types_experimental).
type Detail struct {
	Kind, Signature string
}

// Inspection is the answer to an inspect request: Text is plain text (the
// declaration, its doc comment, the type and value of a variable, the
// method set of a type), Markdown the same as Markdown when set.
type Inspection struct {
	Found    bool
	Text     string
	Markdown string
}

// Completeness answers is_complete: Status is "complete", "incomplete" or
// "invalid"; Indent is the suggested indent when incomplete.
type Completeness struct {
	Status string
	Indent string
}

// Runner is what a front end needs from a session. *Session implements it.
type Runner interface {
	Execute(ctx context.Context, cell Cell, sink Sink) Result
	Complete(code string, cursor int) Completion
	Inspect(code string, cursor int, detail int) Inspection
	IsComplete(code string) Completeness
	// Interrupt stops the running cell (if any) at its next checkpoint; the
	// cell ends with an "Interrupted" error and all state is kept.
	Interrupt()
}
