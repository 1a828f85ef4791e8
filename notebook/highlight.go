package notebook

import (
	"go/scanner"
	"go/token"
	"html"
	"strings"
)

// Code cells are highlighted with go/scanner: each token of the cell is a
// span with a Pygments-style class (k keyword, kd declaration keyword, kt
// predeclared type, nb builtin function, kc constant, s string, m number,
// c1/cm comment, o operator), styled by highlightCSS; the text between
// tokens is copied as it is. Magic lines (%timeit …, and the %%magic line of
// a cell magic) are not Go: they are marked as magics and the Go around them
// is highlighted on its own. (Go's own scanner instead of a general
// highlighting library: it knows Go exactly, and it cost the build nothing.)

// highlightCSS is the stylesheet of highlighted code (GitHub's light
// colours).
func highlightCSS() string {
	return `.chroma .k, .chroma .kd { color: #cf222e; }
.chroma .kt, .chroma .nb { color: #0550ae; }
.chroma .kc, .chroma .m { color: #0550ae; }
.chroma .s { color: #0a3069; }
.chroma .c1, .chroma .cm { color: #6e7781; font-style: italic; }
.chroma .o { color: #24292f; }
`
}

// highlightGo returns src as HTML with Go syntax highlighted and magic
// lines marked.
func highlightGo(src string) string {
	var b strings.Builder
	lines := strings.SplitAfter(src, "\n")
	var goPart strings.Builder
	flush := func() {
		if goPart.Len() == 0 {
			return
		}
		b.WriteString(highlightChunk(goPart.String()))
		goPart.Reset()
	}
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "%") {
			flush()
			body, nl := strings.CutSuffix(l, "\n")
			b.WriteString(`<span class="magic">` + html.EscapeString(body) + `</span>`)
			if nl {
				b.WriteString("\n")
			}
			continue
		}
		goPart.WriteString(l)
	}
	flush()
	return b.String()
}

var (
	declKeywords = map[token.Token]bool{token.FUNC: true, token.VAR: true, token.CONST: true, token.TYPE: true,
		token.PACKAGE: true, token.IMPORT: true, token.STRUCT: true, token.INTERFACE: true, token.MAP: true, token.CHAN: true}
	predeclaredTypes = map[string]bool{"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true,
		"complex128": true, "error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true,
		"int32": true, "int64": true, "rune": true, "string": true, "uint": true, "uint8": true, "uint16": true,
		"uint32": true, "uint64": true, "uintptr": true}
	builtinFuncs = map[string]bool{"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
		"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true,
		"print": true, "println": true, "real": true, "recover": true}
	constants = map[string]bool{"true": true, "false": true, "nil": true, "iota": true}
)

// class is the span class of a token ("" for none).
func class(tok token.Token, lit string) string {
	switch {
	case tok == token.COMMENT && strings.HasPrefix(lit, "//"):
		return "c1"
	case tok == token.COMMENT:
		return "cm"
	case tok == token.STRING || tok == token.CHAR:
		return "s"
	case tok == token.INT || tok == token.FLOAT || tok == token.IMAG:
		return "m"
	case declKeywords[tok]:
		return "kd"
	case tok.IsKeyword():
		return "k"
	case tok == token.IDENT && predeclaredTypes[lit]:
		return "kt"
	case tok == token.IDENT && builtinFuncs[lit]:
		return "nb"
	case tok == token.IDENT && constants[lit]:
		return "kc"
	case tok.IsOperator() && tok != token.LPAREN && tok != token.RPAREN && tok != token.LBRACE && tok != token.RBRACE &&
		tok != token.LBRACK && tok != token.RBRACK && tok != token.COMMA && tok != token.PERIOD && tok != token.SEMICOLON &&
		tok != token.COLON:
		return "o"
	}
	return ""
}

// tokenEnd is the offset just past the token at off: scanned literals of
// comments and raw strings have their carriage returns removed, so their
// extent is read from src itself.
func tokenEnd(src string, off int, tok token.Token, lit string) int {
	rest := src[off:]
	switch {
	case tok == token.COMMENT && strings.HasPrefix(rest, "/*"):
		if i := strings.Index(rest[2:], "*/"); i >= 0 {
			return off + 2 + i + 2
		}
		return len(src)
	case tok == token.COMMENT:
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			return off + i
		}
		return len(src)
	case tok == token.STRING && strings.HasPrefix(rest, "`"):
		if i := strings.IndexByte(rest[1:], '`'); i >= 0 {
			return off + 1 + i + 1
		}
		return len(src)
	case lit != "":
		return off + len(lit)
	}
	return off + len(tok.String())
}

// highlightChunk highlights Go source; what does not scan (an unfinished
// string, a stray character) stays plain text.
func highlightChunk(src string) string {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) {}, scanner.ScanComments)
	var b strings.Builder
	done := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if tok == token.SEMICOLON && lit == "\n" || off < done {
			continue // a semicolon the scanner inserted at a line's end
		}
		end := min(tokenEnd(src, off, tok, lit), len(src))
		b.WriteString(html.EscapeString(src[done:off]))
		text := html.EscapeString(src[off:end])
		if c := class(tok, lit); c != "" {
			b.WriteString(`<span class="` + c + `">` + text + `</span>`)
		} else {
			b.WriteString(text)
		}
		done = end
	}
	b.WriteString(html.EscapeString(src[done:]))
	return b.String()
}
