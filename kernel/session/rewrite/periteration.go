package rewrite

import (
	"go/ast"
	"go/token"
)

// perIteration (pass per-iteration) gives each iteration of a loop its own
// loop variables (Go 1.22 semantics) when the body has a closure that could
// capture them: the header variable is renamed and the body starts with
// `i := ᐩi`. (`i := i` as the first statement hangs yaegi.) Range over an
// int is left to range-int, which copies its variable itself.
func perIteration(u *Unit) {
	u.lists(func(list []ast.Stmt) {
		for _, st := range list {
			switch x := loopOf(st).(type) {
			case *ast.ForStmt:
				if !u.generated[x] {
					u.perIterationFor(x)
				}
			case *ast.RangeStmt:
				if !u.isInt(x.X) {
					u.perIterationRange(x)
				}
			}
		}
	})
}

// perIterationFor rewrites `for i := a; cond; post` when the body does not
// assign i.
func (u *Unit) perIterationFor(f *ast.ForStmt) {
	init, ok := f.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || !hasClosure(f.Body) {
		return
	}
	renames := map[string]string{}
	var lhs, rhs []ast.Expr
	for _, e := range init.Lhs {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" || assigns(f.Body, id.Name) {
			continue
		}
		renames[id.Name] = u.fresh(id.Name)
		lhs, rhs = append(lhs, ident(id.Name)), append(rhs, ident(renames[id.Name]))
	}
	if len(renames) == 0 {
		return
	}
	for _, e := range init.Lhs {
		if id, ok := e.(*ast.Ident); ok && renames[id.Name] != "" {
			id.Name = renames[id.Name]
		}
	}
	rename(f.Cond, renames)
	rename(f.Post, renames)
	prepend(f.Body, f.Body.Lbrace, &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs})
}

// perIterationRange does what perIterationFor does for `for k, v := range x`.
func (u *Unit) perIterationRange(r *ast.RangeStmt) {
	if r.Tok != token.DEFINE || !hasClosure(r.Body) {
		return
	}
	var lhs, rhs []ast.Expr
	for _, e := range []ast.Expr{r.Key, r.Value} {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		fresh := u.fresh(id.Name)
		lhs, rhs = append(lhs, ident(id.Name)), append(rhs, ident(fresh))
		id.Name = fresh
	}
	if len(lhs) > 0 {
		prepend(r.Body, r.Body.Lbrace, &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs})
	}
}

func hasClosure(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}

// assigns reports whether n assigns to or takes the address of name.
func assigns(n ast.Node, name string) bool {
	found := false
	is := func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == name }
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				found = found || is(l) && x.Tok != token.DEFINE
			}
		case *ast.IncDecStmt:
			found = found || is(x.X)
		case *ast.UnaryExpr:
			found = found || x.Op == token.AND && is(x.X)
		}
		return !found
	})
	return found
}

func rename(n ast.Node, names map[string]string) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] != "" {
			id.Name = names[id.Name]
		}
		return true
	})
}
