package rewrite

import (
	"go/ast"
	"go/token"
)

// parenRecv (pass paren-recv) parenthesises the bare receives `<-c` that a
// top-level assignment or var declaration gives one variable each
// (`x := <-c`, `x = <-c`, `var x = <-c`): yaegi leaves such a variable
// unaddressable, so a later assignment to it panics; `x := (<-c)` works.
// The comma-ok form is comma-ok's.
func parenRecv(u *Unit) {
	wrap := func(xs []ast.Expr) {
		for i, x := range xs {
			if r, ok := x.(*ast.UnaryExpr); ok && r.Op == token.ARROW {
				xs[i] = &ast.ParenExpr{Lparen: r.Pos(), X: r, Rparen: r.End() - 1}
			}
		}
	}
	for _, st := range u.Stmts {
		switch x := st.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) == len(x.Rhs) {
				wrap(x.Rhs)
			}
		case *ast.DeclStmt:
			if g, ok := x.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, sp := range g.Specs {
					if v, ok := sp.(*ast.ValueSpec); ok && len(v.Names) == len(v.Values) {
						wrap(v.Values)
					}
				}
			}
		}
	}
}
