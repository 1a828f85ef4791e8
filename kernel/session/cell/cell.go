// Package cell is what the session knows about a cell's text before any Go
// runs: its number and offsets (Cell, Span, Pos), its segments (Go code and
// magic lines), its Go code split into declarations and statements and
// ordered for running (Parse, Parsed.Pieces), whether it is complete
// (IsComplete), the nearest names to a misspelling (Nearest), and the typed
// error a failed cell reports (Error). It is pure: no interpreter, no
// session state.
package cell

import (
	"fmt"
	"regexp"
	"strings"
)

// SrcName is the file name every cell is compiled under. yaegi keys a
// file's imports by its base name, so one name for all cells makes an import
// in one cell visible in the next.
const SrcName = "_.go"

// Cell is the code of one execution and its number N: positions in it read
// cell[N]:line:col.
type Cell struct {
	N    int
	Code string
}

// All is the span of the whole cell.
func (c *Cell) All() Span { return Span{Cell: c, Start: 0, End: len(c.Code)} }

// Pos is the position of byte offset off in the cell.
func (c *Cell) Pos(off int) Pos {
	code := c.Code[:min(max(off, 0), len(c.Code))]
	line := 1 + strings.Count(code, "\n")
	col := len(code) - strings.LastIndexByte(code, '\n')
	return Pos{Cell: c.N, Line: line, Col: col}
}

// Span is the piece Code[Start:End] of a cell.
type Span struct {
	Cell       *Cell
	Start, End int
}

// Text is the span's text ("" for the zero Span).
func (s Span) Text() string {
	if s.Cell == nil {
		return ""
	}
	return s.Cell.Code[s.Start:s.End]
}

// Pos is the position of the span's start.
func (s Span) Pos() Pos { return s.Cell.Pos(s.Start) }

// Padded returns the span as a cell of its own whose code is the span's
// text after one empty line per line of the cell before it, so that
// positions in it are the cell's own (a Go segment starts at the start of a
// line, so columns are too).
func (s Span) Padded() Cell {
	return Cell{N: s.Cell.N, Code: strings.Repeat("\n", s.Pos().Line-1) + s.Text()}
}

// Pos is a position in a cell, printed cell[N]:line:col.
type Pos struct{ Cell, Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("cell[%d]:%d:%d", p.Cell, p.Line, p.Col) }

// Directive is the //line directive (a line of its own) that places the
// code on the next line at p.
func (p Pos) Directive() string { return fmt.Sprintf("//line %s:%d:%d\n", SrcName, p.Line, p.Col) }

// Inline is the /*line*/ directive that places the token right after it at p.
func (p Pos) Inline() string { return fmt.Sprintf("/*line %s:%d:%d*/", SrcName, p.Line, p.Col) }

// posPrefix matches a position at the start of a message: "_.go:3:5" or
// "3:5" (yaegi trims the file name of the default source).
var posPrefix = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+)(?::|$)`)

// posAnywhere matches positions inside messages ("previous declaration at _.go:2:6").
var posAnywhere = regexp.MustCompile(`_\.go:(\d+:\d+)`)

// Message returns msg, a message of the interpreter or the parser about
// code compiled as cell n, with its positions naming the cell: "_.go:3:5"
// and a leading "3:5" become "cell[n]:3:5".
func Message(n int, msg string) string {
	msg = userNames(msg)
	if m := posPrefix.FindStringSubmatchIndex(msg); m != nil {
		msg = fmt.Sprintf("cell[%d]:%s:%s", n, msg[m[2]:m[3]], msg[m[4]:m[5]]) + msg[m[5]:]
	}
	return posAnywhere.ReplaceAllStringFunc(msg, func(p string) string {
		return fmt.Sprintf("cell[%d]:%s", n, p[len("_.go:"):])
	})
}
