package cell

import "strings"

// SegmentKind says what a segment of a cell is.
type SegmentKind int

// The kinds of segments.
const (
	Go        SegmentKind = iota // Go code
	LineMagic                    // a %name line
	CellMagic                    // a %%name first line and the rest of the cell as its body
)

// Segment is one part of a cell that runs on its own, in cell order: Go
// code, a line magic, or a cell magic.
type Segment struct {
	Kind SegmentKind
	// Span is the Go code, or the magic's line (a cell magic's first line).
	Span Span
	// Name is the magic's name (what follows % or %% up to a space; a help
	// request ends in "?"), Args the rest of its line, trimmed.
	Name, Args string
	// Body is a cell magic's body: the lines after its first line.
	Body Span
}

// IsMagicLine reports whether a line is a magic line: it starts with %,
// or it is a shell line.
func IsMagicLine(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "%") || IsShellLine(line)
}

// ShellMagic is the line magic a shell line (!cmd) is: %system cmd.
const ShellMagic = "system"

// IsShellLine reports whether a line is a shell command, "!cmd": a "!" in
// the first column followed by a command (Go code never starts a line so:
// gofmt indents continued expressions, and "!x" alone is not a statement).
func IsShellLine(line string) bool {
	rest, ok := strings.CutPrefix(line, "!")
	return ok && strings.TrimSpace(rest) != "" && !strings.HasPrefix(rest, "=")
}

// HasMagic reports whether code holds a magic line.
func HasMagic(code string) bool {
	for _, line := range strings.Split(code, "\n") {
		if IsMagicLine(line) {
			return true
		}
	}
	return false
}

// Segments cuts a cell into its segments. A cell without magic lines is
// one Go segment, the whole cell, and so is a cell in GoNB's convention,
// whose first line is a bare %% (IsMainCell). A cell whose first non-blank
// line is a cell magic (%%name) is that one segment. Otherwise each magic
// line is a line magic (a shell line ending in \ goes on on the next) and
// the Go code between them (blank code left out) a Go segment.
func Segments(c *Cell) []Segment {
	if !HasMagic(c.Code) {
		return []Segment{{Kind: Go, Span: c.All()}}
	}
	lines := strings.Split(c.Code, "\n")
	offs := make([]int, len(lines)+1) // offs[i]: offset of lines[i]; offs[len]: past the end
	for i, l := range lines {
		offs[i+1] = offs[i] + len(l) + 1
	}
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if IsMainCell(c.Code) {
		return []Segment{{Kind: Go, Span: c.All()}}
	}
	if t := strings.TrimSpace(lines[first]); strings.HasPrefix(t, "%%") {
		seg := magicSegment(c, CellMagic, t[2:], offs[first], offs[first]+len(lines[first]))
		seg.Body = Span{Cell: c, Start: min(offs[first+1], len(c.Code)), End: len(c.Code)}
		return []Segment{seg}
	}
	var segs []Segment
	goStart := -1
	flushGo := func(end int) {
		if goStart < 0 {
			return
		}
		sp := Span{Cell: c, Start: offs[goStart], End: min(offs[end]-1, len(c.Code))}
		goStart = -1
		if strings.TrimSpace(sp.Text()) != "" {
			segs = append(segs, Segment{Kind: Go, Span: sp})
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !IsMagicLine(line) {
			if goStart < 0 {
				goStart = i
			}
			continue
		}
		flushGo(i)
		start, head, end := offs[i], strings.TrimSpace(line)[1:], offs[i]+len(line)
		if IsShellLine(line) {
			// A shell line ending in \ goes on on the next line (the
			// shell's convention, and GoNB's): one command, its lines kept.
			for strings.HasSuffix(strings.TrimRight(lines[i], " \t\r"), "\\") && i+1 < len(lines) {
				i++
				end = offs[i] + len(lines[i])
			}
			head = ShellMagic + " " + strings.TrimSpace(c.Code[start+1:end])
		}
		segs = append(segs, magicSegment(c, LineMagic, head, start, end))
	}
	flushGo(len(lines))
	return segs
}

// magicSegment is the magic whose head (the text after % or %%) is on the
// line c.Code[start:end] (several lines for a continued shell command).
func magicSegment(c *Cell, kind SegmentKind, head string, start, end int) Segment {
	name, args, _ := strings.Cut(head, " ")
	return Segment{Kind: kind, Span: Span{Cell: c, Start: start, End: end}, Name: name, Args: strings.TrimSpace(args)}
}

// Locate returns where text, a piece of a magic's arguments (a suffix of
// its line, such as %timeit's statement) or of its body, is in the cell,
// so that code a magic compiles from it reports errors at the user's own
// line and column. Text it cannot find is placed at the start of the
// magic's line.
func (s Segment) Locate(text string) Pos {
	if text != "" {
		line := strings.TrimRight(s.Span.Text(), " \t\r")
		if i := strings.LastIndex(line, text); i >= 0 {
			return s.Span.Cell.Pos(s.Span.Start + i)
		}
		if s.Kind == CellMagic {
			if i := strings.Index(s.Body.Text(), text); i >= 0 {
				return s.Span.Cell.Pos(s.Body.Start + i)
			}
		}
	}
	return s.Span.Pos()
}
