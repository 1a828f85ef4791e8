package rewrite

import "go/ast"

// funcEntry (pass func-entry) starts every function and function literal
// with `ᐩenter(); defer ᐩleave()`: the function's interrupt checkpoint and
// its count of the call depth (ᐩrt.Enter and ᐩrt.Leave, by the names
// EnterFunc and LeaveFunc), so runaway recursion ends the cell with an
// error instead of overflowing the Go stack.
//
// The calls are by plain names, not the selectors ᐩrt.Enter and
// ᐩrt.Leave, because the interpreter gives every selector expression a
// slot in the function's frame, and so shifted the slots of the
// function's own variables: a value with methods passed as interface{} to
// an interpreted function that hands it to fmt is read back from the
// callee's frame at the caller's slot index (yaegi's getBinValue), which
// plain yaegi gets right only when the two indexes agree, as for a
// function's first variable and the callee's first parameter (yaegi
// corpus issue-435 printed <nil> for foo-3). A name takes no slot: the
// instrumented function's frame is the one plain yaegi builds.
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

// EnterFunc and LeaveFunc are the names the calls pass func-entry writes
// are made by: the session binds ᐩrt.Enter and ᐩrt.Leave under them in a
// package it dot-imports. A plain identifier of a native function takes no
// frame slot, where a selector does; and a package-level `var f =
// func(){...}` whose literal called session variables was refused by the
// interpreter as a "variable definition loop" (it orders a file's
// variables by the variables their values use, and finds none declared
// in the file: yaegi corpus closure8).
const (
	EnterFunc = "ᐩenter"
	LeaveFunc = "ᐩleave"
)

func entry() []ast.Stmt {
	call := func(name string) *ast.CallExpr { return &ast.CallExpr{Fun: ast.NewIdent(name)} }
	return []ast.Stmt{&ast.ExprStmt{X: call(EnterFunc)}, &ast.DeferStmt{Call: call(LeaveFunc)}}
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
