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
// `go f(x)` becomes `{ ᐩg := x; go func() { guard; f(ᐩg) }() }`: Go
// evaluates the arguments when the go statement runs, and a variable
// assigned after it (the prime sieve's `ch = ch1`) must not reach the
// goroutine. Constants are left in the call (a variable would give an
// untyped constant its default type). (Sizes given to make are checked by
// pass make-guard, makeguard.go.)
func goGuard(u *Unit) {
	consts := u.constNames()
	u.expandLists(func(list []ast.Stmt) []ast.Stmt {
		var out []ast.Stmt
		for _, st := range list {
			g, ok := st.(*ast.GoStmt)
			if !ok {
				out = append(out, st)
				continue
			}
			if lit, ok := g.Call.Fun.(*ast.FuncLit); ok {
				prepend(lit.Body, lit.Body.Lbrace, u.guard())
				out = append(out, st)
				continue
			}
			var early []ast.Stmt
			if len(g.Call.Args) > 1 || len(g.Call.Args) == 1 && !isCall(g.Call.Args[0]) {
				for i, a := range g.Call.Args {
					if isConstant(a) || isConstName(a, consts) {
						continue
					}
					name := u.fresh("g")
					early = append(early, &ast.AssignStmt{Lhs: []ast.Expr{identAt(name, a.Pos())}, TokPos: a.Pos(), Tok: token.DEFINE, Rhs: []ast.Expr{a}})
					g.Call.Args[i] = identAt(name, a.Pos())
				}
			}
			g.Call = &ast.CallExpr{Fun: funcLit(u.guard(), &ast.ExprStmt{X: g.Call})}
			SetPos(g.Call, g.Go)
			if len(early) == 0 {
				out = append(out, g)
				continue
			}
			out = append(out, &ast.BlockStmt{Lbrace: g.Go, List: append(early, g), Rbrace: g.End()})
		}
		return out
	})
}

// constNames returns the names the cell declares as constants, and the
// session's constants (Options.Consts).
func (u *Unit) constNames() map[string]bool {
	names := map[string]bool{}
	for n := range u.consts {
		names[n] = true
	}
	u.inspect(func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, sp := range g.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	return names
}

func isConstName(e ast.Expr, consts map[string]bool) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return consts[x.Name]
	case *ast.ParenExpr:
		return isConstName(x.X, consts)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && x.Op != token.AND && (isConstant(x.X) || isConstName(x.X, consts))
	case *ast.BinaryExpr:
		return (isConstant(x.X) || isConstName(x.X, consts)) && (isConstant(x.Y) || isConstName(x.Y, consts))
	}
	return false
}

func isCall(e ast.Expr) bool {
	_, ok := e.(*ast.CallExpr)
	return ok
}

func identAt(name string, pos token.Pos) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }

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
