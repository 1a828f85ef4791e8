package rewrite

import (
	"go/ast"
	"go/token"
)

// rangeInt (pass range-int) rewrites `for k := range n { body }`, which
// makes yaegi panic, to
// `{ ᐩn := n; for ᐩi := ᐩn - ᐩn; ᐩi < ᐩn; ᐩi++ { k := ᐩi; body } }`
// (ᐩn - ᐩn gives the loop counter n's type; k is a copy per iteration).
func rangeInt(u *Unit) {
	u.lists(func(list []ast.Stmt) {
		for i, st := range list {
			label, _ := st.(*ast.LabeledStmt)
			if r, ok := loopOf(st).(*ast.RangeStmt); ok && u.isInt(r.X) {
				list[i] = u.rangeInt(r, label)
			}
		}
	})
}

func (u *Unit) rangeInt(r *ast.RangeStmt, label *ast.LabeledStmt) ast.Stmt {
	n, i := u.fresh("n"), u.fresh("i")
	body := r.Body
	if k, ok := r.Key.(*ast.Ident); ok && k.Name != "_" {
		tok := r.Tok
		if tok != token.ASSIGN {
			tok = token.DEFINE
		}
		prepend(body, body.Lbrace, &ast.AssignStmt{Lhs: []ast.Expr{ident(k.Name)}, Tok: tok, Rhs: []ast.Expr{ident(i)}})
	} else if r.Key != nil && r.Tok == token.ASSIGN {
		prepend(body, body.Lbrace, &ast.AssignStmt{Lhs: []ast.Expr{r.Key}, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(i)}})
	}
	loop := &ast.ForStmt{
		For:  r.For,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{ident(i)}, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.BinaryExpr{X: ident(n), Op: token.SUB, Y: ident(n)}}},
		Cond: &ast.BinaryExpr{X: ident(i), Op: token.LSS, Y: ident(n)},
		Post: &ast.IncDecStmt{X: ident(i), Tok: token.INC},
		Body: body,
	}
	var inner ast.Stmt = loop
	if label != nil {
		label.Stmt = loop
		inner = label
	}
	out := &ast.BlockStmt{List: []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{ident(n)}, Tok: token.DEFINE, Rhs: []ast.Expr{r.X}},
		inner,
	}}
	SetPos(out, r.For)
	return out
}
