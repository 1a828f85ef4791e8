package cell

import (
	"errors"
	"fmt"
)

// Kind is the class of a cell error, the ename Jupyter shows. A Kind is an
// error value, so errors.Is(err, cell.Timeout) tells whether err is (or
// wraps) a cell error of that kind.
type Kind string

// The kinds of cell errors.
const (
	CompileError Kind = "CompileError" // the cell's Go does not parse or compile
	Panic        Kind = "Panic"        // running code panicked
	Interrupted  Kind = "Interrupted"  // an interrupt stopped the cell
	Unsupported  Kind = "Unsupported"  // a Go construct the interpreter cannot run
	MagicError   Kind = "MagicError"   // a magic failed or was misused
	RuntimeError Kind = "RuntimeError" // the session itself failed, or runaway recursion
	Timeout      Kind = "Timeout"      // the cell ran past its time limit (tick run --timeout)
)

func (k Kind) Error() string { return string(k) }

// Error describes a failed cell in the shape Jupyter shows it.
type Error struct {
	// Name is the error's kind.
	Name Kind
	// Value is the one-line message. Positions name the cell: cell[3]:2:5.
	Value string
	// Traceback is the lines shown to the user: "Name: Value" first, then
	// details; no internal wrapper frames.
	Traceback []string
	// Err is the cause, when there is one.
	Err error
}

// Errorf returns a cell error of kind whose message is formatted as
// fmt.Errorf does; an operand of %w becomes its cause. The traceback is
// the line "Kind: message"; Trace adds to it.
func Errorf(kind Kind, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Name: kind, Value: err.Error(), Traceback: []string{string(kind) + ": " + err.Error()}, Err: errors.Unwrap(err)}
}

// Trace appends lines to the traceback and returns e.
func (e *Error) Trace(lines ...string) *Error {
	e.Traceback = append(e.Traceback, lines...)
	return e
}

func (e *Error) Error() string { return string(e.Name) + ": " + e.Value }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Name
}
