package rewrite

import "go/ast"

// funcEntry (pass func-entry) starts every function and function literal
// with `ᐩrt.Enter(); defer ᐩrt.Leave()`: the function's interrupt
// checkpoint and its count of the call depth, so runaway recursion ends
// the cell with an error instead of overflowing the Go stack.
//
// Parameters without names are named _: the interpreter stores a deferred
// call of a native function (ᐩrt.Leave) in the frame slot of a function's
// first unnamed parameter, so `func use(interface{}) {...}` called with a
// map panicked with "reflect.Set: value of type map[string]interface {} is
// not assignable to type func()" (yaegi corpus fun12).
func funcEntry(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Body != nil {
				nameParams(x.Type)
				prepend(x.Body, x.Body.Lbrace, entry()...)
			}
		case *ast.FuncLit:
			if !u.generated[x] {
				nameParams(x.Type)
				u.prependAfterGuard(x.Body, entry()...)
			}
		}
		return true
	})
}

// prependAfterGuard prepends sts to b, after the goroutine guard when b
// starts with one (pass go-guard runs first): the guard must be installed
// before anything that can panic, ᐩrt.Enter's depth and interrupt checks
// included.
func (u *Unit) prependAfterGuard(b *ast.BlockStmt, sts ...ast.Stmt) {
	if len(b.List) > 0 && u.isGuard(b.List[0]) {
		for _, st := range sts {
			SetPos(st, b.Lbrace)
		}
		b.List = append(b.List[:1], append(sts, b.List[1:]...)...)
		return
	}
	prepend(b, b.Lbrace, sts...)
}

// isGuard reports whether st is a goroutine guard written by go-guard.
func (u *Unit) isGuard(st ast.Stmt) bool {
	d, ok := st.(*ast.DeferStmt)
	if !ok {
		return false
	}
	lit, ok := d.Call.Fun.(*ast.FuncLit)
	return ok && u.generated[lit]
}

func entry() []ast.Stmt {
	return []ast.Stmt{&ast.ExprStmt{X: rtCall("Enter")}, &ast.DeferStmt{Call: rtCall("Leave")}}
}

// nameParams names the parameters of a function type that has unnamed
// ones (then all are) _.
func nameParams(ft *ast.FuncType) {
	if ft.Params == nil {
		return
	}
	for _, f := range ft.Params.List {
		if len(f.Names) == 0 {
			f.Names = []*ast.Ident{{NamePos: f.Type.Pos(), Name: "_"}}
		}
	}
}
