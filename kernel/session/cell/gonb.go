package cell

import (
	"fmt"
	"go/token"
	"strings"
)

// GoNB, another Go kernel, compiles each cell as a program; a cell whose
// first line is a bare `%%` (or `%main`, or either behind `//gonb:`) has
// the rest of the cell wrapped in `func main() { ... }` and run. tick runs
// such a cell the same way: Parse turns the marker line into the
// function's first line and closes it at the end of the cell (line
// numbers stay the cell's), and the whole-program rewrite calls main at the
// end of the cell. What the body defines stays local to it, as in GoNB.

// mainMarkers are the first lines that make a cell main's body.
var mainMarkers = []string{"%%", "%main"}

// mainMarker returns the marker line of a GoNB main cell (its first
// non-blank line, trimmed, without the //gonb: prefix), its offset and
// length in code, and whether code is one.
func mainMarker(code string) (marker string, start, end int, ok bool) {
	for start < len(code) {
		nl := strings.IndexByte(code[start:], '\n')
		end = len(code)
		if nl >= 0 {
			end = start + nl
		}
		line := strings.TrimSpace(code[start:end])
		if line == "" {
			if nl < 0 {
				break
			}
			start = end + 1
			continue
		}
		line = strings.TrimPrefix(line, "//gonb:")
		for _, m := range mainMarkers {
			if line == m || strings.HasPrefix(line, m+" ") {
				return line, start, end, true
			}
		}
		return "", 0, 0, false
	}
	return "", 0, 0, false
}

// IsMainCell reports whether code is a GoNB main cell: its first non-blank
// line is %% or %main (the rest of the cell is the body of func main).
func IsMainCell(code string) bool {
	_, _, _, ok := mainMarker(code)
	return ok
}

// asMainBody returns the Go code of a GoNB main cell: imports at its top
// stay package-level, the rest becomes the body of func main (opened on the
// line of its first statement, closed after the cell's last line, so lines
// keep their numbers). Arguments after the marker (GoNB's program
// arguments) are refused with what to write.
func asMainBody(c Cell) (string, error) {
	marker, start, end, ok := mainMarker(c.Code)
	if !ok {
		return c.Code, nil
	}
	if _, args, _ := strings.Cut(marker, " "); strings.TrimSpace(args) != "" {
		return "", fmt.Errorf("%s: %s: arguments after the marker are not supported (GoNB passes them to the program): "+
			"set them in the cell, os.Args = []string{\"main\", ...}", c.Pos(start), marker)
	}
	rest := c.Code[end:]
	body := afterImports(rest)
	return c.Code[:start] + rest[:body] + "func main() { " + rest[body:] + "\n}", nil
}

// afterImports returns the offset in code of the first token after the
// import declarations it starts with.
func afterImports(code string) int {
	toks := scanTokens(code)
	i := 0
	for i < len(toks) && toks[i].tok == token.SEMICOLON {
		i++
	}
	for i < len(toks) && toks[i].tok == token.IMPORT {
		i++
		if i < len(toks) && toks[i].tok == token.LPAREN {
			for i < len(toks) && toks[i].tok != token.RPAREN && toks[i].tok != token.EOF {
				i++
			}
		}
		for i < len(toks) && toks[i].tok != token.SEMICOLON && toks[i].tok != token.EOF {
			i++
		}
		for i < len(toks) && toks[i].tok == token.SEMICOLON {
			i++
		}
	}
	if i >= len(toks) {
		return len(code)
	}
	return min(toks[i].off, len(code))
}
