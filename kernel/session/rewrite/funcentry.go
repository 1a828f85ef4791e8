package rewrite

import "go/ast"

// funcEntry (pass func-entry) starts every function and function literal
// with `ᐩrt.Enter(); defer ᐩrt.Leave()`: the function's interrupt
// checkpoint and its count of the call depth, so runaway recursion ends
// the cell with an error instead of overflowing the Go stack.
func funcEntry(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Body != nil {
				prepend(x.Body, x.Body.Lbrace, entry()...)
			}
		case *ast.FuncLit:
			if !u.generated[x] {
				prepend(x.Body, x.Body.Lbrace, entry()...)
			}
		}
		return true
	})
}

func entry() []ast.Stmt {
	return []ast.Stmt{&ast.ExprStmt{X: rtCall("Enter")}, &ast.DeferStmt{Call: rtCall("Leave")}}
}
