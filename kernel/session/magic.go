package session

import (
	"context"
	"strings"

	"tick/display"
)

// magicCell reports whether code is a magic cell: its first non-blank line
// starts with '%'. It returns the first magic's name.
func magicCell(code string) (string, bool) {
	for _, line := range strings.Split(code, "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "%") {
			return "", false
		}
		name := strings.TrimLeft(t, "%")
		if i := strings.IndexAny(name, " \t"); i >= 0 {
			name = name[:i]
		}
		return name, true
	}
	return "", false
}

func (s *Session) runMagics(ctx context.Context, name string, cell *Cell, sink Sink) Result {
	return Result{Err: &Error{Name: "MagicError", Value: "magics are not available yet"}}
}

func (s *Session) registerBuiltinMagics() {}

// Magic is a command cells invoke with %name (line magic) or %%name (cell
// magic) instead of Go code.
type Magic struct {
	// Name is what follows % or %%.
	Name string
	// Summary is one line for %lsmagic; Help is the full text for %help.
	Summary, Help string
	// Line and Cell say whether the magic can be used as %name and %%name.
	Line, Cell bool
	// Run executes one call. Its error becomes the cell's MagicError.
	Run func(ctx context.Context, call *MagicCall) error
}

// MagicCall is one invocation of a magic.
type MagicCall struct {
	// Name is the magic's name; Args the rest of its line; Body the lines
	// after a cell magic's first line.
	Name, Args, Body string
	// IsCell is true for %%name.
	IsCell bool
	// Count is the execution count of the cell.
	Count int
	// Session is the session, for compiling and evaluating Go.
	Session *Session
	// Sink receives the magic's output.
	Sink Sink
	// Value, when set by the magic, becomes the cell's value.
	Value *display.Data
	// Page, when set, becomes the cell's Result.Page (pager text).
	Page string
}
