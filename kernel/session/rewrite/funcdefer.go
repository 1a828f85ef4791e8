package rewrite

import (
	"go/ast"
	"go/token"
)

// funcDefer (pass func-defer) works around two faults of the interpreter's
// defer inside functions (top-level defers are top-level-defer's):
//
//   - `defer func() { ... }()` evaluates the function literal when the
//     function returns, not at the defer: in a loop every deferred closure
//     saw the last iteration's variables (Go 1.22 gives each its own;
//     `for i := 0; i < 3; i++ { defer func() { print(i) }() }` printed
//     222, Go 210);
//   - a closure the function itself created (`g := func() {...}`), called
//     by a deferred call, deadlocks: the closure's exit locks its creator's
//     frame, which the interpreter holds while it runs the deferred calls.
//
// A closure made by a closure locks its maker's frame instead, which is
// free by then. So a deferred literal in a loop becomes
//
//	ᐩd := func(params) func() { return func() { body } }
//	ᐩf := any(ᐩd(args))
//	defer ᐩrt.Call(ᐩf)
//
// (the arguments are evaluated at the defer, as Go does; ᐩf is a fresh
// variable per defer, which the interpreter's deferred arguments must be),
// and the definition of a local closure that a defer statement calls,
// `g := func(p) r {...}`, becomes `ᐩm := func() func(p) r { return
// func(p) r {...} }; g := ᐩm()`. A deferred literal whose body calls
// recover() is left alone (recover must be called by the deferred function
// itself), as is one with results.
func funcDefer(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Body != nil {
				u.funcDefers(x.Body)
			}
		case *ast.FuncLit:
			if !u.generated[x] {
				u.funcDefers(x.Body)
			}
		}
		return true
	})
}

// funcDefers rewrites the defers of one function body (not of the function
// literals in it, which the pass visits on their own).
func (u *Unit) funcDefers(body *ast.BlockStmt) {
	called := map[string]bool{}
	ownLists(body, false, func(list *[]ast.Stmt, _ bool) {
		for _, st := range *list {
			if d, ok := st.(*ast.DeferStmt); ok {
				calledNames(d, called)
			}
		}
	})
	ownLists(body, false, func(list *[]ast.Stmt, inLoop bool) {
		var out []ast.Stmt
		for _, st := range *list {
			switch x := st.(type) {
			case *ast.DeferStmt:
				if r := u.deferredLiteral(x); inLoop && r != nil {
					st = r
				}
			case *ast.AssignStmt:
				if makers := u.closureDefinition(x, called); makers != nil {
					out = append(out, makers...)
				}
			}
			out = append(out, st)
		}
		*list = out
	})
}

// ownLists calls f on each statement list of body that belongs to body's
// function (not to function literals in it), outer lists first, saying
// whether it is inside a loop. f may replace the list; the walk goes into
// the replacement.
func ownLists(body *ast.BlockStmt, inLoop bool, f func(list *[]ast.Stmt, inLoop bool)) {
	ownList(&body.List, inLoop, f)
}

func ownList(list *[]ast.Stmt, inLoop bool, f func(*[]ast.Stmt, bool)) {
	f(list, inLoop)
	for _, st := range *list {
		ownStmt(st, inLoop, f)
	}
}

func ownStmt(st ast.Stmt, inLoop bool, f func(*[]ast.Stmt, bool)) {
	switch x := st.(type) {
	case *ast.BlockStmt:
		ownList(&x.List, inLoop, f)
	case *ast.LabeledStmt:
		ownStmt(x.Stmt, inLoop, f)
	case *ast.IfStmt:
		ownList(&x.Body.List, inLoop, f)
		if x.Else != nil {
			ownStmt(x.Else, inLoop, f)
		}
	case *ast.ForStmt:
		ownList(&x.Body.List, true, f)
	case *ast.RangeStmt:
		ownList(&x.Body.List, true, f)
	case *ast.SwitchStmt:
		ownStmt(x.Body, inLoop, f)
	case *ast.TypeSwitchStmt:
		ownStmt(x.Body, inLoop, f)
	case *ast.SelectStmt:
		ownStmt(x.Body, inLoop, f)
	case *ast.CaseClause:
		ownList(&x.Body, inLoop, f)
	case *ast.CommClause:
		ownList(&x.Body, inLoop, f)
	}
}

// calledNames adds to names the plain names d calls: the deferred function
// itself and the calls in a deferred literal's body.
func calledNames(d *ast.DeferStmt, names map[string]bool) {
	ast.Inspect(d, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok {
				names[id.Name] = true
			}
		}
		return true
	})
}

// deferredLiteral returns what replaces `defer func(...) {...}(...)`, or
// nil to keep it.
func (u *Unit) deferredLiteral(d *ast.DeferStmt) ast.Stmt {
	lit, ok := d.Call.Fun.(*ast.FuncLit)
	if !ok || u.generated[lit] || lit.Type.Results != nil && len(lit.Type.Results.List) > 0 || callsRecover(lit.Body) {
		return nil
	}
	inner := &ast.FuncLit{Type: &ast.FuncType{Func: lit.Type.Func, Params: &ast.FieldList{}}, Body: lit.Body}
	maker := &ast.FuncLit{
		Type: &ast.FuncType{Params: lit.Type.Params, Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.FuncType{Params: &ast.FieldList{}}}}}},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{inner}}}},
	}
	u.generate(maker)
	dn, fn := u.fresh("d"), u.fresh("f")
	made := &ast.CallExpr{Fun: ident(dn), Args: d.Call.Args, Ellipsis: d.Call.Ellipsis}
	list := []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{ident(dn)}, Tok: token.DEFINE, Rhs: []ast.Expr{maker}},
		&ast.AssignStmt{Lhs: []ast.Expr{ident(fn)}, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.CallExpr{Fun: ident("any"), Args: []ast.Expr{made}}}},
		&ast.DeferStmt{Defer: d.Defer, Call: rtCall("Call", ident(fn))},
	}
	b := &ast.BlockStmt{Lbrace: d.Pos(), List: list, Rbrace: d.End()}
	SetPos(b, d.Pos())
	return b
}

// closureDefinition rewrites `g := func(...) {...}` (or `g = ...`) when a
// defer calls g: the literal becomes `ᐩm()`, and it returns the
// definitions of the makers to put before a (nil when a stays as it is).
func (u *Unit) closureDefinition(a *ast.AssignStmt, called map[string]bool) []ast.Stmt {
	if len(a.Lhs) != len(a.Rhs) || a.Tok != token.DEFINE && a.Tok != token.ASSIGN {
		return nil
	}
	var makers []ast.Stmt
	for i, l := range a.Lhs {
		id, ok := l.(*ast.Ident)
		lit, isLit := a.Rhs[i].(*ast.FuncLit)
		if !ok || !isLit || !called[id.Name] || u.generated[lit] {
			continue
		}
		maker := &ast.FuncLit{
			Type: &ast.FuncType{Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: copyFuncType(lit.Type)}}}},
			Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{lit}}}},
		}
		u.generate(maker)
		m := u.fresh("m")
		def := &ast.AssignStmt{Lhs: []ast.Expr{ident(m)}, Tok: token.DEFINE, Rhs: []ast.Expr{maker}}
		SetPos(def, a.Pos())
		makers = append(makers, def)
		a.Rhs[i] = &ast.CallExpr{Fun: &ast.Ident{NamePos: lit.Pos(), Name: m}, Lparen: lit.Pos(), Rparen: lit.Pos()}
	}
	return makers
}

// copyFuncType returns a copy of t without positions, for a second use of
// the same parameter and result types.
func copyFuncType(t *ast.FuncType) *ast.FuncType {
	c := *t
	c.Func = token.NoPos
	return &c
}

// callsRecover reports whether body calls recover() itself (not in a
// nested function literal).
func callsRecover(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "recover" {
				found = true
			}
		}
		return !found
	})
	return found
}
