package cell

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strings"
	"unicode"
)

// unit is one top-level declaration or statement of a cell, as byte offsets
// into the cell's Go code.
type unit struct {
	decl       bool
	start, end int
}

// token3 is one scanned token.
type token3 struct {
	off int
	tok token.Token
}

// splitUnits cuts Go code into top-level units at semicolons (explicit or
// inserted at line ends) outside brackets, and classifies each as a
// declaration (import, type, const, var, func or method) or a statement.
func splitUnits(code string) []unit {
	toks := scanTokens(code)
	var units []unit
	depth, start := 0, -1
	header := false // in the header of for/if/switch, where ';' does not end the unit
	for i, t := range toks {
		switch t.tok {
		case token.FOR, token.IF, token.SWITCH:
			if depth == 0 {
				header = true
			}
		case token.LBRACE:
			if depth == 0 {
				header = false
			}
			depth++
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				depth--
			}
		}
		if start < 0 && t.tok != token.SEMICOLON && t.tok != token.EOF {
			start = i
		}
		if start >= 0 && (t.tok == token.EOF || t.tok == token.SEMICOLON && depth == 0 && !header) {
			end := t.off
			if end > len(code) {
				end = len(code)
			}
			units = append(units, unit{decl: isDecl(toks[start:]), start: toks[start].off, end: end})
			start, header = -1, false
		}
		if t.tok == token.EOF {
			break
		}
	}
	return units
}

func scanTokens(code string) []token3 {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(code))
	var s scanner.Scanner
	s.Init(file, []byte(code), func(token.Position, string) {}, scanner.ScanComments)
	var toks []token3
	cstart, cend := -1, -1 // the last comment
	for {
		pos, tok, lit := s.Scan()
		off := file.Offset(pos)
		if tok == token.COMMENT {
			cstart, cend = off, off+len(lit)
			continue
		}
		if tok == token.SEMICOLON && lit == "\n" {
			off = min(off, len(code))
			if off >= cstart && off < cend {
				// the newline inside a /* … */ comment that ends the
				// line: the statement ends before the comment.
				off = cstart
			}
		}
		toks = append(toks, token3{off, tok})
		if tok == token.EOF {
			return toks
		}
	}
}

// isDecl reports whether the tokens starting a unit begin a package-level
// declaration.
func isDecl(toks []token3) bool {
	switch toks[0].tok {
	case token.IMPORT, token.TYPE, token.CONST, token.VAR:
		return true
	case token.FUNC:
	default:
		return false
	}
	if len(toks) < 2 {
		return false
	}
	switch toks[1].tok {
	case token.IDENT:
		return true // func name(...)
	case token.LPAREN:
		// func (recv) Name(...) is a method; func (params) {...} a literal.
		depth := 0
		for i := 1; i < len(toks); i++ {
			switch toks[i].tok {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				depth--
				if depth == 0 {
					return i+1 < len(toks) && toks[i+1].tok == token.IDENT
				}
			case token.EOF:
				return false
			}
		}
	}
	return false
}

// Parsed is a cell's Go code parsed into the pieces the session compiles:
// declarations (one file), statements (one block) and the trailing
// expression whose value is the cell's value. Positions are the cell's own
// lines and columns, under file name SrcName.
type Parsed struct {
	Cell  Cell
	Fset  *token.FileSet
	Decls *ast.File  // nil when the cell declares nothing
	Stmts []ast.Stmt // top-level statements, in cell order
	Value ast.Expr   // the trailing expression, or nil
}

// Nodes returns the cell's parts in this order: the declarations file,
// the statements, the value expression (those present).
func (p *Parsed) Nodes() []ast.Node {
	var nodes []ast.Node
	if p.Decls != nil {
		nodes = append(nodes, p.Decls)
	}
	for _, st := range p.Stmts {
		nodes = append(nodes, st)
	}
	if p.Value != nil {
		nodes = append(nodes, p.Value)
	}
	return nodes
}

// Pos is the cell position of pos.
func (p *Parsed) Pos(pos token.Pos) Pos {
	q := p.Fset.Position(pos)
	return Pos{Cell: p.Cell.N, Line: q.Line, Col: q.Column}
}

// Parse splits and parses the cell's code into fset. Positions in the
// result (and in parse errors) are the cell's own lines and columns, under
// file name SrcName. A parse error is a scanner.ErrorList whose errors at
// the end of the cell say what is missing.
func Parse(fset *token.FileSet, c Cell) (*Parsed, error) {
	code, err := asMainBody(c)
	if err != nil {
		return nil, err
	}
	at := &Cell{N: c.N, Code: code} // positions: code has c's lines
	var decls, stmts strings.Builder
	decls.WriteString("package main\n")
	stmts.WriteString("package main\nfunc main() {\n")
	nstmt := 0
	units, file, err := dropPackageClause(c, code, splitUnits(code))
	if err != nil {
		return nil, err
	}
	for _, u := range units {
		b := &stmts
		if u.decl {
			b = &decls
		} else {
			nstmt++
		}
		b.WriteString(at.Pos(u.start).Directive())
		b.WriteString(code[u.start:u.end])
		b.WriteString("\n")
	}
	stmts.WriteString("}\n")
	pc := &Parsed{Cell: c, Fset: fset}
	f, err := parser.ParseFile(fset, SrcName, decls.String(), parser.SkipObjectResolution)
	if err != nil {
		return nil, atEndOfCell(err, code)
	}
	var vars []ast.Stmt
	var kept []ast.Decl
	for _, d := range f.Decls {
		// Package-level var declarations run as statements of the top-level
		// block: yaegi rejects a var file declaration that uses a variable
		// an earlier statement defined ("variable definition loop").
		//
		// A pasted file (a cell that starts with its package clause) keeps
		// its vars as declarations: it uses nothing a statement defined, and
		// the interpreter then sets them as it sets a file's, in Go's order
		// and before the functions that use them run; except `var a, b T =
		// f()`, which the interpreter leaves unset as a file declaration
		// (yaegi corpus ret5).
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			if !file {
				vars = append(vars, varStmts(g)...)
				continue
			}
			if typed := typedWithValues(g); typed != nil {
				vars = append(vars, varStmts(typed)...)
				if len(g.Specs) == 0 {
					continue
				}
			}
		}
		kept = append(kept, d)
	}
	if len(kept) > 0 {
		f.Decls = kept
		pc.Decls = f
	}
	if nstmt > 0 {
		g, err := parser.ParseFile(fset, SrcName, stmts.String(), parser.SkipObjectResolution)
		if err != nil {
			return nil, atEndOfCell(err, code)
		}
		pc.Stmts = g.Decls[0].(*ast.FuncDecl).Body.List
	}
	if len(vars) > 0 {
		pc.Stmts = append(pc.Stmts, vars...)
		// The two parses are different files of fset: order by cell position.
		at := func(st ast.Stmt) int { p := fset.Position(st.Pos()); return p.Line<<16 + p.Column }
		sort.SliceStable(pc.Stmts, func(i, j int) bool { return at(pc.Stmts[i]) < at(pc.Stmts[j]) })
		isVar := make(map[ast.Stmt]bool, len(vars))
		for _, st := range vars {
			isVar[st] = true
		}
		pc.Stmts = orderVars(pc.Stmts, isVar, pc.Decls)
	}
	defer renameMainAndInit(pc)
	if len(pc.Stmts) == 0 {
		return pc, nil
	}
	if n := len(pc.Stmts); n > 0 {
		lastDecl, lastStmt := token.Position{}, fset.Position(pc.Stmts[n-1].Pos())
		if pc.Decls != nil {
			lastDecl = fset.Position(pc.Decls.Decls[len(pc.Decls.Decls)-1].Pos())
		}
		declAfter := lastDecl.Line > lastStmt.Line || lastDecl.Line == lastStmt.Line && lastDecl.Column > lastStmt.Column
		if es, ok := pc.Stmts[n-1].(*ast.ExprStmt); ok && !declAfter {
			pc.Value = es.X
			pc.Stmts = pc.Stmts[:n-1]
		}
	}
	return pc, nil
}

// typedWithValues moves the specs of g that set several variables of a
// type from one call (`var a, b int = f()`) into a declaration of their
// own, which it returns (nil when there are none).
func typedWithValues(g *ast.GenDecl) *ast.GenDecl {
	var typed, rest []ast.Spec
	for _, sp := range g.Specs {
		if vs := sp.(*ast.ValueSpec); vs.Type != nil && len(vs.Names) > 1 && len(vs.Values) == 1 {
			typed = append(typed, sp)
		} else {
			rest = append(rest, sp)
		}
	}
	if len(typed) == 0 {
		return nil
	}
	g.Specs = rest
	return &ast.GenDecl{TokPos: g.TokPos, Tok: token.VAR, Specs: typed}
}

// varStmts turns a package-level var declaration into top-level
// statements: `var x, y = a, b` becomes `x, y := a, b`, and `var x T = v`
// becomes `var x T; x = v` (yaegi runs var declarations with initialisers
// in a block before the values they use are set), so that v is checked
// against T as Go's assignment does (`var s string = 5` is an error, a
// value of a cell type goes into an interface); `var x T` stays a
// declaration.
func varStmts(g *ast.GenDecl) []ast.Stmt {
	var out []ast.Stmt
	for _, sp := range g.Specs {
		vs := sp.(*ast.ValueSpec)
		if len(vs.Values) == 0 {
			out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: vs.Pos(), Tok: token.VAR, Specs: []ast.Spec{vs}}})
			continue
		}
		lhs := make([]ast.Expr, len(vs.Names))
		blank := true
		for i, n := range vs.Names {
			if vs.Type != nil && n.Name == "_" {
				// `var _ I = v` (the check that v implements I): `_ = v`
				// would not check, and `var _ I` is not a variable to assign
				n = &ast.Ident{NamePos: n.Pos(), Name: fmt.Sprintf("ᐩblank%d", n.Pos())}
				vs.Names[i] = n
			}
			blank = blank && n.Name == "_"
			lhs[i] = n
		}
		if vs.Type == nil {
			tok := token.DEFINE
			if blank {
				tok = token.ASSIGN // `var _ = f()`: `_ := f()` declares nothing
			}
			out = append(out, &ast.AssignStmt{Lhs: lhs, TokPos: vs.Names[0].End(), Tok: tok, Rhs: vs.Values})
			continue
		}
		names := make([]*ast.Ident, len(vs.Names))
		for i, n := range vs.Names {
			names[i] = &ast.Ident{NamePos: n.Pos(), Name: n.Name}
		}
		decl := &ast.ValueSpec{Names: names, Type: vs.Type}
		out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: vs.Pos(), Tok: token.VAR, Specs: []ast.Spec{decl}}},
			&ast.AssignStmt{Lhs: lhs, TokPos: vs.Values[0].Pos(), Tok: token.ASSIGN, Rhs: vs.Values})
	}
	return out
}

// atEndOfCell rewrites the parse errors of code that lie at or past the end
// of its last line (where the cell stops in the middle of an expression or
// block, the parser reports the brace or end of file the session wraps
// around the cell) to the end of that line, saying what is missing.
func atEndOfCell(err error, code string) error {
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return err
	}
	trimmed := strings.TrimRightFunc(code, unicode.IsSpace)
	endLine := 1 + strings.Count(trimmed, "\n")
	endCol := len(trimmed) - strings.LastIndexByte(trimmed, '\n')
	last := token.ILLEGAL
	for _, t := range scanTokens(trimmed) {
		if t.tok != token.SEMICOLON && t.tok != token.EOF {
			last = t.tok
		}
	}
	out := make(scanner.ErrorList, len(list))
	for i, e := range list {
		c := *e
		past := c.Pos.Line > endLine || c.Pos.Line == endLine && c.Pos.Column >= endCol
		if past && (strings.HasSuffix(c.Msg, "found '}'") || strings.HasSuffix(c.Msg, "found 'EOF'")) {
			c.Pos.Line, c.Pos.Column = endLine, endCol
			c.Msg = endMessage(c.Msg, last)
		}
		out[i] = &c
	}
	return out
}

// endMessage says what is missing where a cell ends early; last is the
// cell's last token.
func endMessage(msg string, last token.Token) string {
	after := ""
	if last.IsOperator() {
		after = fmt.Sprintf(" after '%s'", last)
	}
	expected, _, _ := strings.Cut(strings.TrimPrefix(msg, "expected "), ", found")
	switch expected {
	case "operand":
		return "expected an operand" + after + " (the cell ends in the middle of an expression)"
	case "selector or type assertion":
		return "expected a name" + after + " (the cell ends in the middle of an expression)"
	case "'}'", "')'", "']'":
		open := map[string]string{"'}'": "'{'", "')'": "'('", "']'": "'['"}[expected]
		return fmt.Sprintf("expected %s at the end of the cell: a %s opened in the cell is not closed", expected, open)
	}
	return "expected " + expected + after + " (the cell ends before the statement is complete)"
}
