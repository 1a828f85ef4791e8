package cell

import (
	"go/scanner"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsComplete says whether code is ready to run: status is "complete",
// "incomplete" or "invalid", and indent the suggested indent of the next
// line when incomplete. Unbalanced brackets or an open raw string are
// incomplete (with an indent of four spaces per open brace); an error no
// further line can fix is invalid.
func IsComplete(code string) (status, indent string) {
	if status, indent, ok := cellMagicComplete(code); ok {
		return status, indent
	}
	if strings.TrimSpace(code) == "" || HasMagic(code) && !strings.Contains(code, "{") {
		return "complete", ""
	}
	var errs scanner.ErrorList
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(code))
	var sc scanner.Scanner
	sc.Init(file, []byte(code), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	var stack []token.Token
	last := token.ILLEGAL
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			stack = append(stack, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			want := map[token.Token]token.Token{token.RPAREN: token.LPAREN, token.RBRACK: token.LBRACK, token.RBRACE: token.LBRACE}[tok]
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return "invalid", ""
			}
			stack = stack[:len(stack)-1]
		}
		if !(tok == token.SEMICOLON && lit == "\n") {
			last = tok
		}
	}
	for _, e := range errs {
		if strings.Contains(e.Msg, "raw string literal not terminated") {
			// No indent: it would become part of the string.
			return "incomplete", ""
		}
		if strings.Contains(e.Msg, "comment not terminated") {
			return "incomplete", indentFor(stack)
		}
	}
	if len(errs) > 0 {
		return "invalid", ""
	}
	if len(stack) > 0 {
		return "incomplete", indentFor(stack)
	}
	if last == token.ELSE || last.IsOperator() && last != token.RPAREN && last != token.RBRACK && last != token.RBRACE &&
		last != token.INC && last != token.DEC && last != token.SEMICOLON {
		return "incomplete", ""
	}
	if _, err := Parse(token.NewFileSet(), Cell{Code: code}); err != nil {
		return "invalid", ""
	}
	return "complete", ""
}

// cellMagicComplete answers for a cell magic (%%name on the first
// non-blank line) the way IPython does: the cell is complete once a blank
// line ends it after the magic line (so a terminal such as jupyter console
// takes the body line by line), else incomplete, indented as the body's
// open brackets need.
func cellMagicComplete(code string) (status, indent string, ok bool) {
	lines := strings.Split(code, "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if first == len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[first]), "%%") {
		return "", "", false
	}
	body := lines[first+1:]
	if len(body) >= 2 && strings.TrimSpace(body[len(body)-1]) == "" {
		return "complete", "", true
	}
	if st, in := IsComplete(strings.Join(body, "\n")); st == "incomplete" {
		indent = in
	}
	return "incomplete", indent, true
}

func indentFor(stack []token.Token) string {
	n := 0
	for _, t := range stack {
		if t == token.LBRACE {
			n++
		}
	}
	return strings.Repeat("    ", max(n, 1))
}

// IsIdentRune reports whether r can be part of a Go identifier.
func IsIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// IdentBefore returns the start of the identifier that ends at byte offset
// end of code (end itself when none does).
func IdentBefore(code string, end int) int {
	start := end
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:start])
		if !IsIdentRune(r) {
			break
		}
		start -= size
	}
	return start
}

// IdentAfter returns the end of the identifier that starts at byte offset
// start of code (start itself when none does).
func IdentAfter(code string, start int) int {
	end := start
	for end < len(code) {
		r, size := utf8.DecodeRuneInString(code[end:])
		if !IsIdentRune(r) {
			break
		}
		end += size
	}
	return end
}
