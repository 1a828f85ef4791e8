package rewrite

import (
	"go/ast"
	"go/token"
)

// goGuard (pass go-guard) installs the runtime guard against a panic in
// a goroutine, which kills the process instead of the cell: every
// goroutine a go statement starts recovers its panics and reports them
// through ᐩrt.GoPanic. For `go func(...){...}(args)` the guard goes into
// the literal, so the arguments are still evaluated by the go statement;
// `go f(x)` becomes `go func() { guard; f(x) }()`. (Sizes given to make
// are checked by pass make-guard, makeguard.go.)
func goGuard(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		if lit, ok := g.Call.Fun.(*ast.FuncLit); ok {
			prepend(lit.Body, lit.Body.Lbrace, u.guard())
			return true
		}
		g.Call = &ast.CallExpr{Fun: funcLit(u.guard(), &ast.ExprStmt{X: g.Call})}
		SetPos(g.Call, g.Go)
		return true
	})
}

// guard returns `defer func() { if ᐩr := recover(); ᐩr != nil { ᐩrt.GoPanic(ᐩr) } }()`.
func (u *Unit) guard() ast.Stmt {
	rec := &ast.IfStmt{
		Init: &ast.AssignStmt{Lhs: []ast.Expr{ident("ᐩr")}, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.CallExpr{Fun: ident("recover")}}},
		Cond: &ast.BinaryExpr{X: ident("ᐩr"), Op: token.NEQ, Y: ident("nil")},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: rtCall("GoPanic", ident("ᐩr"))}}},
	}
	lit := funcLit(rec)
	u.generate(lit)
	return &ast.DeferStmt{Call: &ast.CallExpr{Fun: lit}}
}
