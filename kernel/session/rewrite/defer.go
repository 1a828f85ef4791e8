package rewrite

import (
	"go/ast"
	"go/token"
)

// topLevelDefer (pass top-level-defer) gives a defer among the cell's own
// statements (not inside a function) Go's meaning for a cell run as a
// function body: it runs once, at the end of its own cell. `defer f(a, b)`
// becomes `ᐩrt.Defer(func() { f(ᐩa, ᐩb) })` with the arguments evaluated
// at the defer (into ᐩa, ᐩb), and the session calls the deferred functions,
// last first, when the cell's code has run or panicked. A recover() called
// by a deferred function literal becomes ᐩrt.Recover(), which returns the
// cell's panic value (and so ends the panic) as recover does in Go. Left to
// the interpreter, a top-level defer ran at the end of every later cell,
// and its recover swallowed their panics.
func topLevelDefer(u *Unit) {
	var walk func(list []ast.Stmt) []ast.Stmt
	walk = func(list []ast.Stmt) []ast.Stmt {
		for i, st := range list {
			if d, ok := st.(*ast.DeferStmt); ok {
				list[i] = u.cellDefer(d)
				continue
			}
			// defers in the cell's blocks (not in functions) are the cell's too
			ast.Inspect(st, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.BlockStmt:
					x.List = walk(x.List)
					return false
				case *ast.CaseClause:
					x.Body = walk(x.Body)
					return false
				case *ast.CommClause:
					x.Body = walk(x.Body)
					return false
				}
				return true
			})
		}
		return list
	}
	u.Stmts = walk(u.Stmts)
}

// cellDefer returns what replaces the top-level d.
func (u *Unit) cellDefer(d *ast.DeferStmt) ast.Stmt {
	call := d.Call
	if lit, ok := call.Fun.(*ast.FuncLit); ok {
		recoverCalls(lit.Body)
	}
	var pre []ast.Stmt
	for i, a := range call.Args {
		if _, ok := a.(*ast.BasicLit); ok {
			continue
		}
		t := u.fresh("a")
		pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{ident(t)}, Tok: token.DEFINE, Rhs: []ast.Expr{a}})
		call.Args[i] = &ast.Ident{NamePos: a.Pos(), Name: t}
	}
	var fn ast.Expr
	if lit, ok := call.Fun.(*ast.FuncLit); ok && len(call.Args) == 0 {
		fn = lit
	} else {
		fn = funcLit(&ast.ExprStmt{X: call})
	}
	reg := &ast.ExprStmt{X: rtCall("Defer", fn)}
	for _, st := range pre {
		SetPos(st, d.Pos())
	}
	SetPos(reg, d.Pos())
	if len(pre) == 0 {
		return reg
	}
	b := &ast.BlockStmt{Lbrace: d.Pos(), List: append(pre, reg), Rbrace: d.End()}
	return b
}

// recoverCalls replaces the calls of recover in body (not in nested
// function literals) by ᐩrt.Recover().
func recoverCalls(body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "recover" && len(c.Args) == 0 {
				c.Fun = &ast.SelectorExpr{X: &ast.Ident{NamePos: id.Pos(), Name: Runtime}, Sel: &ast.Ident{NamePos: id.Pos(), Name: "Recover"}}
			}
		}
		return true
	})
}
