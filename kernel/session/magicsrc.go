package session

import (
	"fmt"
	"strings"
)

// magicSource says where a running magic's text is in its cell, so that
// the Go code the magic compiles (CompileLoop) reports compile errors and
// panics at the cell's own lines and columns rather than at lines of the
// loop the session wraps it in.
type magicSource struct {
	code string
	// head and headEnd delimit the magic's line (a cell magic's first
	// line) in code; body is the offset of a cell magic's body, or -1.
	head, headEnd, body int
}

// lineMagicSource is the source of the line magic on lines[i] of code.
func lineMagicSource(code string, lines []string, i int) *magicSource {
	off := lineOffset(lines, i)
	return &magicSource{code: code, head: off, headEnd: off + len(lines[i]), body: -1}
}

// cellMagicSource is the source of the cell magic whose %% line is
// lines[first] of code; its body is the lines after it.
func cellMagicSource(code string, lines []string, first int) *magicSource {
	src := lineMagicSource(code, lines, first)
	if first+1 < len(lines) {
		src.body = lineOffset(lines, first+1)
	}
	return src
}

// lineOffset is the offset in the joined text of lines[i].
func lineOffset(lines []string, i int) int {
	off := 0
	for _, l := range lines[:i] {
		off += len(l) + 1
	}
	return off
}

// locate returns the offset in the cell of text, a piece of the magic's
// arguments (a suffix of its line, such as %timeit's statement or
// %%timeit's setup) or of its body.
func (m *magicSource) locate(text string) (int, bool) {
	if m == nil || text == "" {
		return 0, false
	}
	line := strings.TrimRight(m.code[m.head:m.headEnd], " \t\r")
	if i := strings.LastIndex(line, text); i >= 0 {
		return m.head + i, true
	}
	if m.body >= 0 {
		if i := strings.Index(m.code[m.body:], text); i >= 0 {
			return m.body + i, true
		}
	}
	return 0, false
}

// directive returns the //line directive that positions text (code a
// magic compiles) where it is in the cell: at its own line and column when
// it is found there, else at the start of the magic's line; with no magic
// running, at line 1, column 1 (the text's own coordinates).
func (m *magicSource) directive(text string) string {
	return "//line " + m.position(text) + "\n"
}

// inlineDirective is directive as a /*line*/ comment: the token right
// after it gets the position.
func (m *magicSource) inlineDirective(text string) string {
	return "/*line " + m.position(text) + "*/"
}

// position is the directive's "file:line:col" for text.
func (m *magicSource) position(text string) string {
	code, off := "", 0
	if o, ok := m.locate(text); ok {
		code, off = m.code, o
	} else if m != nil {
		code, off = m.code, m.head
	}
	line := 1 + strings.Count(code[:off], "\n")
	col := off - strings.LastIndexByte(code[:off], '\n')
	return fmt.Sprintf("%s:%d:%d", srcName, line, col)
}

func (s *Session) setMagicSource(src *magicSource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.magicSrc = src
}

func (s *Session) magicSource() *magicSource {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.magicSrc
}
