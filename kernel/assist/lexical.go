package assist

import (
	"go/scanner"
	"go/token"
	"sort"
	"strings"
)

// tok is one scanned token of the text before the cursor.
type tok struct {
	off int
	tok token.Token
	lit string
}

// scanBefore scans text (the cell up to the cursor) with comments, and
// reports where an unterminated string or comment at its end starts
// (-1 when none).
func scanBefore(text string) (toks []tok, open int) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(text))
	open = -1
	var sc scanner.Scanner
	sc.Init(f, []byte(text), func(pos token.Position, msg string) {
		if strings.Contains(msg, "not terminated") && open < 0 {
			open = pos.Offset
		}
	}, scanner.ScanComments)
	for {
		pos, t, lit := sc.Scan()
		if t == token.EOF {
			return toks, open
		}
		if t == token.SEMICOLON && lit == "\n" {
			continue
		}
		toks = append(toks, tok{f.Offset(pos), t, lit})
	}
}

// InCommentOrString reports whether cursor (a byte offset into code) is
// inside a comment or a string or rune literal, where Go names are not
// completed.
func InCommentOrString(code string, cursor int) bool { return inCommentOrString(code, cursor) }

func inCommentOrString(code string, cursor int) bool {
	toks, open := scanBefore(code[:cursor])
	if open >= 0 {
		return true
	}
	if len(toks) == 0 {
		return false
	}
	last := toks[len(toks)-1]
	return last.tok == token.COMMENT && last.off+len(last.lit) >= cursor && !strings.HasPrefix(last.lit, "/*") ||
		last.tok == token.COMMENT && strings.HasPrefix(last.lit, "/*") && !strings.HasSuffix(last.lit, "*/")
}

// importPathAt reports whether cursor is inside the quotes of an import
// path, with the offset after the opening quote and the path typed so far.
func importPathAt(code string, cursor int) (start int, prefix string, ok bool) {
	toks, open := scanBefore(code[:cursor])
	if open < 0 || code[open] != '"' && code[open] != '`' {
		return 0, "", false
	}
	// Tokens before the string, back to the start of its import spec.
	var before []tok
	for _, t := range toks {
		if t.off < open {
			before = append(before, t)
		}
	}
	n := len(before)
	if n > 0 && (before[n-1].tok == token.IDENT || before[n-1].tok == token.PERIOD) {
		n-- // a named import
	}
	if n == 0 {
		return 0, "", false
	}
	switch before[n-1].tok {
	case token.IMPORT:
	case token.LPAREN, token.STRING, token.SEMICOLON:
		if !inImportBlock(before[:n]) {
			return 0, "", false
		}
	default:
		return 0, "", false
	}
	return open + 1, code[open+1 : cursor], true
}

// inImportBlock reports whether toks end inside `import ( ... `.
func inImportBlock(toks []tok) bool {
	for i := len(toks) - 1; i >= 0; i-- {
		switch toks[i].tok {
		case token.RPAREN:
			return false
		case token.LPAREN:
			return i > 0 && toks[i-1].tok == token.IMPORT
		case token.STRING, token.IDENT, token.PERIOD, token.SEMICOLON, token.COMMENT:
		default:
			return false
		}
	}
	return false
}

// importPaths lists the import paths cells can use that start with
// prefix, and the directories on the way (encoding/ for encoding/json).
func (a *Assistant) importPaths(prefix string) []Match {
	var out []Match
	dirs := map[string]bool{}
	for _, p := range a.pkgs.paths {
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		out = append(out, Match{Text: p, Kind: "path", Signature: "package " + a.pkgs.name(p)})
		if i := strings.IndexByte(p[len(prefix):], '/'); i >= 0 {
			dirs[p[:len(prefix)+i+1]] = true
		}
	}
	for d := range dirs {
		out = append(out, Match{Text: d, Kind: "path", Signature: "directory"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// keywords lists the Go keywords that fit after before (the cell's text
// before the identifier being completed): statement keywords where a
// statement starts, declaration keywords at the top level, expression
// keywords elsewhere.
func keywords(before string, inFunc, inLoop bool) []Match {
	toks, _ := scanBefore(before)
	stmtStart := len(toks) == 0
	if !stmtStart {
		switch toks[len(toks)-1].tok {
		case token.SEMICOLON, token.LBRACE, token.RBRACE, token.COLON, token.COMMENT:
			stmtStart = true
		}
		// a new line after a complete token also starts a statement
		if last := toks[len(toks)-1]; !stmtStart && strings.Contains(before[last.off:], "\n") {
			switch last.tok {
			case token.IDENT, token.INT, token.FLOAT, token.STRING, token.CHAR, token.RPAREN, token.RBRACK, token.RBRACE,
				token.BREAK, token.CONTINUE, token.RETURN, token.INC, token.DEC, token.IMAG:
				stmtStart = true
			}
		}
	}
	var kws []string
	if stmtStart {
		kws = []string{"const", "defer", "for", "func", "go", "goto", "if", "select", "switch", "type", "var"}
		if inFunc {
			kws = append(kws, "return")
		} else {
			kws = append(kws, "import")
		}
		if inLoop {
			kws = append(kws, "break", "continue")
		}
		if depth(toks) > 0 {
			kws = append(kws, "case", "default", "fallthrough", "break")
		}
	} else {
		kws = []string{"chan", "func", "interface", "map", "struct"}
		if n := len(toks); n > 0 && (toks[n-1].tok == token.DEFINE || toks[n-1].tok == token.ASSIGN) {
			kws = append(kws, "range")
		}
	}
	out := make([]Match, len(kws))
	for i, k := range kws {
		out[i] = Match{Text: k, Kind: "keyword"}
	}
	return out
}

// depth is the number of braces open at the end of toks.
func depth(toks []tok) int {
	d := 0
	for _, t := range toks {
		switch t.tok {
		case token.LBRACE:
			d++
		case token.RBRACE:
			d--
		}
	}
	return d
}
