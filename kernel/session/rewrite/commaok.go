package rewrite

import (
	"go/ast"
	"go/token"
)

// commaOK (pass comma-ok) splits the top-level comma-ok definitions, which
// crash yaegi at top level (the assignment form works):
// `v, ok := m[k]` becomes `v := m[k]; ok := false; v, ok = m[k]`,
// `v, ok := x.(T)` becomes `var v T; ok := false; v, ok = x.(T)`, and
// `v, ok := <-c` is split as commaOKRecv says.
func commaOK(u *Unit) {
	var out []ast.Stmt
	for _, st := range u.Stmts {
		if a, ok := st.(*ast.AssignStmt); ok {
			out = append(out, u.commaOK(a)...)
			continue
		}
		out = append(out, st)
	}
	u.Stmts = out
}

func (u *Unit) commaOK(a *ast.AssignStmt) []ast.Stmt {
	if a.Tok != token.DEFINE || len(a.Lhs) != 2 || len(a.Rhs) != 1 {
		return []ast.Stmt{a}
	}
	v, ok1 := a.Lhs[0].(*ast.Ident)
	ok, ok2 := a.Lhs[1].(*ast.Ident)
	if !ok1 || !ok2 {
		return []ast.Stmt{a}
	}
	var first ast.Stmt
	switch x := a.Rhs[0].(type) {
	case *ast.IndexExpr:
		first = &ast.AssignStmt{Lhs: []ast.Expr{ident(v.Name)}, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
	case *ast.UnaryExpr:
		if x.Op != token.ARROW {
			return []ast.Stmt{a}
		}
		return u.commaOKRecv(a, v.Name, ok.Name, x)
	case *ast.TypeAssertExpr:
		if x.Type == nil {
			return []ast.Stmt{a}
		}
		first = &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{ident(v.Name)}, Type: x.Type}}}}
	default:
		return []ast.Stmt{a}
	}
	var out []ast.Stmt
	if v.Name != "_" {
		out = append(out, first)
	}
	if ok.Name != "_" {
		out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{ident(ok.Name)}, Tok: token.DEFINE, Rhs: []ast.Expr{ident("false")}})
	}
	a.Tok = token.ASSIGN
	out = append(out, a)
	for _, st := range out[:len(out)-1] {
		SetPos(st, a.Pos())
	}
	return out
}

// commaOKRecv splits a top-level `v, ok := <-c` into `ᐩc := c; ᐩz := ᐩc;
// ᐩrt.ClosedChan(&ᐩz); v := (<-ᐩz); ok := false; v, ok = <-ᐩc`: c is
// evaluated once, and receiving from the closed channel ᐩz declares v with
// c's element type (its zero value) without naming the type. A blank v or
// ok becomes a fresh variable.
func (u *Unit) commaOKRecv(a *ast.AssignStmt, v, ok string, recv *ast.UnaryExpr) []ast.Stmt {
	c, z := u.fresh("c"), u.fresh("z")
	define := func(name string, x ast.Expr) ast.Stmt {
		return &ast.AssignStmt{Lhs: []ast.Expr{ident(name)}, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
	}
	out := []ast.Stmt{
		define(c, recv.X),
		define(z, ident(c)),
		&ast.ExprStmt{X: rtCall("ClosedChan", &ast.UnaryExpr{Op: token.AND, X: ident(z)})},
	}
	// yaegi assigns the wrong values to a blank on the left of a top-level
	// receive: a blank gets a variable of its own.
	if v == "_" {
		v = u.fresh("v")
		a.Lhs[0] = ident(v)
	}
	if ok == "_" {
		ok = u.fresh("ok")
		a.Lhs[1] = ident(ok)
	}
	// Parenthesised: yaegi leaves a variable defined at top level from a
	// bare receive unaddressable, so the assignment below would panic.
	out = append(out, define(v, &ast.ParenExpr{X: &ast.UnaryExpr{Op: token.ARROW, X: ident(z)}}),
		define(ok, ident("false")))
	for _, st := range out {
		SetPos(st, a.Pos())
	}
	recv.X = ident(c)
	SetPos(recv.X, recv.OpPos)
	a.Tok = token.ASSIGN
	return append(out, a)
}
