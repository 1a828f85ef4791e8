package rewrite

import (
	"go/ast"
	"go/token"
)

// CellTypes is the package name the session imports its cell-types
// helpers under (kernel/session/cellreg.go): ᐩct.AsError and
// ᐩct.MustError are x.(error) for values of struct types declared in
// cells, which the interpreter does not see as errors.
const CellTypes = "ᐩct"

// errorAssert (pass error-assert) rewrites assertions to error, which the
// interpreter answers wrongly for a value of a struct type declared in a
// cell (it is not an error to it; a type switch on any misses case error
// even for native errors): `e, ok := x.(error)` becomes
// `e, ok := ᐩct.AsError(x)`, `x.(error)` becomes `ᐩct.MustError(x)`, and
// a type switch with a `case error:` clause tests the clauses before it,
// then ᐩct.AsError, then the clauses after it (Go's order):
//
//	switch v := x.(type) {        switch v := x.(type) {
//	case A: ...                   case A: ...
//	case error: E          →      default:
//	case B: ...                       if v, ok := ᐩct.AsError(x); ok { E } else {
//	default: D                            switch v := x.(type) { case B: ...; default: D } }
//	}                             }
//
// A switch whose operand is not a name first assigns it to one (in a
// block, the label kept on the switch).
func errorAssert(u *Unit) {
	u.lists(func(list []ast.Stmt) {
		for i, st := range list {
			if u.generated[st] {
				continue
			}
			if l, ok := st.(*ast.LabeledStmt); ok {
				if ts, ok := l.Stmt.(*ast.TypeSwitchStmt); ok {
					if nst := u.errorSwitch(ts, l); nst != nil {
						list[i] = nst
					}
				}
				continue
			}
			if ts, ok := st.(*ast.TypeSwitchStmt); ok {
				if nst := u.errorSwitch(ts, nil); nst != nil {
					list[i] = nst
				}
			}
		}
	})
	u.inspect(func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) == 2 && len(x.Rhs) == 1 {
				if ta, ok := errorAssertion(x.Rhs[0]); ok {
					x.Rhs[0] = ctCall("AsError", ta.Pos(), ta.X)
				}
			}
		case *ast.ValueSpec:
			if len(x.Names) == 2 && len(x.Values) == 1 {
				if ta, ok := errorAssertion(x.Values[0]); ok {
					x.Values[0] = ctCall("AsError", ta.Pos(), ta.X)
				}
			}
		}
		return true
	})
	u.inspect(func(n ast.Node) bool {
		replaceExprs(n, func(e ast.Expr) ast.Expr {
			if ta, ok := errorAssertion(e); ok {
				return ctCall("MustError", ta.Pos(), ta.X)
			}
			return nil
		})
		return true
	})
}

// errorAssertion reports whether e is x.(error).
func errorAssertion(e ast.Expr) (*ast.TypeAssertExpr, bool) {
	ta, ok := e.(*ast.TypeAssertExpr)
	if !ok || ta.Type == nil {
		return nil, false
	}
	id, ok := ta.Type.(*ast.Ident)
	return ta, ok && id.Name == "error"
}

// ctCall returns ᐩct.name(args...) positioned at pos.
func ctCall(name string, pos token.Pos, args ...ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: &ast.Ident{NamePos: pos, Name: CellTypes}, Sel: &ast.Ident{NamePos: pos, Name: name}},
		Lparen: pos, Args: args, Rparen: pos}
}

// errorSwitch returns the rewrite of type switch ts (labeled by l when
// set), or nil when it has no `case error:` clause of its own.
func (u *Unit) errorSwitch(ts *ast.TypeSwitchStmt, l *ast.LabeledStmt) ast.Stmt {
	k := -1
	for i, c := range ts.Body.List {
		cc := c.(*ast.CaseClause)
		for _, t := range cc.List {
			if id, ok := t.(*ast.Ident); ok && id.Name == "error" {
				if len(cc.List) != 1 || k >= 0 {
					return nil // error among other types: v keeps x's type, left as is
				}
				k = i
			}
		}
	}
	if k < 0 {
		return nil
	}
	var bind string
	var x ast.Expr
	switch a := ts.Assign.(type) {
	case *ast.AssignStmt:
		bind = a.Lhs[0].(*ast.Ident).Name
		x = a.Rhs[0].(*ast.TypeAssertExpr).X
	case *ast.ExprStmt:
		x = a.X.(*ast.TypeAssertExpr).X
	default:
		return nil
	}
	pos := ts.Pos()
	var pre []ast.Stmt
	if ts.Init != nil {
		pre = append(pre, ts.Init)
	}
	if _, ok := x.(*ast.Ident); !ok {
		tmp := &ast.Ident{NamePos: pos, Name: u.fresh("x")}
		pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{tmp}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{x}})
		x = tmp
	}
	name := x.(*ast.Ident).Name
	guard := func() ast.Stmt {
		ta := &ast.TypeAssertExpr{X: &ast.Ident{NamePos: pos, Name: name}, Lparen: pos, Rparen: pos}
		if bind == "" {
			return &ast.ExprStmt{X: ta}
		}
		return &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: pos, Name: bind}}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{ta}}
	}
	var before, after []ast.Stmt
	var dflt *ast.CaseClause
	for i, c := range ts.Body.List {
		cc := c.(*ast.CaseClause)
		switch {
		case cc.List == nil:
			dflt = cc
		case i < k:
			before = append(before, cc)
		case i > k:
			after = append(after, cc)
		}
	}
	lhs := bind
	if lhs == "" {
		lhs = "_"
	}
	ok := u.fresh("ok")
	check := &ast.IfStmt{If: pos,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: pos, Name: lhs}, &ast.Ident{NamePos: pos, Name: ok}}, TokPos: pos, Tok: token.DEFINE,
			Rhs: []ast.Expr{ctCall("AsError", pos, &ast.Ident{NamePos: pos, Name: name})}},
		Cond: &ast.Ident{NamePos: pos, Name: ok},
		Body: &ast.BlockStmt{Lbrace: pos, List: ts.Body.List[k].(*ast.CaseClause).Body, Rbrace: pos}}
	if len(after) > 0 || dflt != nil {
		if dflt != nil {
			after = append(after, dflt)
		}
		check.Else = &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.TypeSwitchStmt{Switch: pos, Assign: guard(),
			Body: &ast.BlockStmt{Lbrace: pos, List: after, Rbrace: pos}}}, Rbrace: pos}
	}
	outer := &ast.TypeSwitchStmt{Switch: pos, Assign: guard(), Body: &ast.BlockStmt{Lbrace: ts.Body.Lbrace,
		List: append(before, &ast.CaseClause{Case: pos, Colon: pos, Body: []ast.Stmt{check}}), Rbrace: ts.Body.Rbrace}}
	var st ast.Stmt = outer
	if l != nil {
		st = &ast.LabeledStmt{Label: l.Label, Colon: l.Colon, Stmt: outer}
	}
	SetPos(st, pos)
	if len(pre) == 0 {
		return st
	}
	for _, p := range pre {
		SetPos(p, pos)
	}
	return &ast.BlockStmt{Lbrace: pos, List: append(pre, st), Rbrace: ts.End()}
}
