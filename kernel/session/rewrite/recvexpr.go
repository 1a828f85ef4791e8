package rewrite

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ast/astutil"
)

// recvExpr (pass recv-expr) turns the receives the interruptible pass
// cannot make interruptible into ones it can, as statements:
//
//   - a receive inside an expression (`fmt.Println(<-c)`, `x := f(<-c)`,
//     `return <-a + <-b`) is received first into a variable, `ᐩv := <-c`,
//     when Go evaluates it before any other call or receive of the
//     statement (so moving it first keeps Go's order of evaluation);
//   - `for v := range c` over a channel becomes `for ᐩc := c; ; { v, ᐩok
//     := <-c; if !ᐩok { break }; ... }` (the same loop: the body's break,
//     continue and labels mean what they did, v is per iteration). A range
//     statement does not say what it ranges over: c must be a name known as
//     a channel (Options.Chans, or declared as one in the cell).
//
// The interruptible pass then makes each of those statements a call of a
// compiled helper that also waits for the interrupt.
func recvExpr(u *Unit) {
	expand := func(list []ast.Stmt) []ast.Stmt {
		var out []ast.Stmt
		changed := false
		for _, st := range list {
			if u.generated[st] {
				out = append(out, st)
				continue
			}
			if r, ok := st.(*ast.RangeStmt); ok {
				if loop := u.rangeChan(r); loop != nil {
					st, changed = loop, true
				}
			} else if l, ok := st.(*ast.LabeledStmt); ok {
				if r, ok := l.Stmt.(*ast.RangeStmt); ok {
					if loop := u.rangeChan(r); loop != nil {
						l.Stmt, changed = loop, true
					}
				}
			}
			pre := u.hoistRecvs(st)
			changed = changed || len(pre) > 0
			out = append(append(out, pre...), st)
		}
		if !changed {
			return list
		}
		return out
	}
	u.expandLists(expand)
	if u.Value != nil {
		var pre []ast.Stmt
		if r := recv(u.Value); r == nil {
			pre = u.hoistFrom([]*ast.Expr{&u.Value}, u.Value.Pos())
		}
		u.Stmts = append(u.Stmts, pre...)
	}
}

// hoistRecvs returns the statements that receive, before st, the receives
// of st that Go evaluates first, and replaces those receives in st by the
// variables.
func (u *Unit) hoistRecvs(st ast.Stmt) []ast.Stmt {
	var exprs []*ast.Expr
	refs := func(list []ast.Expr) {
		for i := range list {
			exprs = append(exprs, &list[i])
		}
	}
	switch x := st.(type) {
	case *ast.ExprStmt:
		if recv(x.X) != nil {
			return nil // a receive statement: the interruptible pass's
		}
		exprs = append(exprs, &x.X)
	case *ast.AssignStmt:
		if len(x.Rhs) == 1 && recv(x.Rhs[0]) != nil && (x.Tok == token.DEFINE || x.Tok == token.ASSIGN) {
			return nil
		}
		if x.Tok != token.DEFINE {
			refs(x.Lhs)
		}
		refs(x.Rhs)
	case *ast.ReturnStmt:
		if len(x.Results) == 1 && recv(x.Results[0]) != nil {
			return nil
		}
		refs(x.Results)
	case *ast.SendStmt:
		exprs = append(exprs, &x.Chan, &x.Value)
	case *ast.IfStmt:
		if x.Init == nil {
			exprs = append(exprs, &x.Cond)
		}
	case *ast.SwitchStmt:
		if x.Init == nil && x.Tag != nil {
			exprs = append(exprs, &x.Tag)
		}
	default:
		return nil
	}
	return u.hoistFrom(exprs, st.Pos())
}

// hoistFrom hoists the leading receives of exprs (in order).
func (u *Unit) hoistFrom(exprs []*ast.Expr, pos token.Pos) []ast.Stmt {
	var pre []ast.Stmt
	for {
		r := firstRecv(exprs)
		if r == nil {
			return pre
		}
		v := u.fresh("v")
		def := &ast.AssignStmt{Lhs: []ast.Expr{ident(v)}, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.UnaryExpr{OpPos: r.OpPos, Op: token.ARROW, X: r.X}}}
		SetPos(def, pos)
		pre = append(pre, def)
		for _, e := range exprs {
			*e = astutil.Apply(*e, func(c *astutil.Cursor) bool {
				if c.Node() == r {
					c.Replace(&ast.Ident{NamePos: r.OpPos, Name: v})
					return false
				}
				return true
			}, nil).(ast.Expr)
		}
	}
}

// firstRecv returns the receive that Go evaluates first among exprs, when
// no other call or receive is evaluated before it, or nil.
func firstRecv(exprs []*ast.Expr) *ast.UnaryExpr {
	f := &recvFinder{}
	for _, e := range exprs {
		f.walk(*e)
		if f.found != nil || f.stop {
			break
		}
	}
	return f.found
}

type recvFinder struct {
	found *ast.UnaryExpr
	stop  bool // a call or receive is evaluated before any receive left
}

func (f *recvFinder) walk(n ast.Node) {
	if n == nil || f.found != nil || f.stop {
		return
	}
	switch x := n.(type) {
	case *ast.FuncLit:
		return // made, not called
	case *ast.UnaryExpr:
		if x.Op == token.ARROW {
			f.walk(x.X)
			if f.found == nil && !f.stop {
				f.found = x
			}
			return
		}
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			f.walk(x.X)
			if f.found == nil && callsOrReceives(x.Y) {
				f.stop = true // evaluated only sometimes
			}
			return
		}
	case *ast.CallExpr:
		f.walk(x.Fun)
		for _, a := range x.Args {
			f.walk(a)
		}
		if f.found == nil {
			f.stop = true // the call is made before what follows
		}
		return
	}
	ast.Inspect(n, func(c ast.Node) bool {
		if c == n {
			return true
		}
		f.walk(c)
		return false
	})
}

// callsOrReceives reports whether e has a call or a receive (outside
// function literals).
func callsOrReceives(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = true
		case *ast.UnaryExpr:
			found = found || x.Op == token.ARROW
		}
		return !found
	})
	return found
}

// rangeChan returns the loop that replaces r when r ranges over a known
// channel, or nil.
func (u *Unit) rangeChan(r *ast.RangeStmt) ast.Stmt {
	id, ok := r.X.(*ast.Ident)
	if !ok || !u.chans[id.Name] || r.Value != nil {
		return nil
	}
	c, okName := u.fresh("c"), u.fresh("ok")
	pos := r.For
	var lhs []ast.Expr
	var after []ast.Stmt
	tok := token.DEFINE
	switch {
	case r.Key == nil || isBlank(r.Key):
		lhs = []ast.Expr{ident("_")}
	case r.Tok == token.DEFINE:
		lhs = []ast.Expr{r.Key}
	default:
		// `for v = range c`: receive into a temporary, then assign
		t := u.fresh("t")
		lhs = []ast.Expr{ident(t)}
		after = []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{r.Key}, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(t)}}}
	}
	get := &ast.AssignStmt{Lhs: append(lhs, ident(okName)), Tok: tok, Rhs: []ast.Expr{&ast.UnaryExpr{Op: token.ARROW, X: ident(c)}}}
	stop := &ast.IfStmt{Cond: &ast.UnaryExpr{Op: token.NOT, X: ident(okName)}, Body: &ast.BlockStmt{List: []ast.Stmt{&ast.BranchStmt{Tok: token.BREAK}}}}
	head := append([]ast.Stmt{get, stop}, after...)
	for _, st := range head {
		SetPos(st, pos)
	}
	loop := &ast.ForStmt{
		For:  pos,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{ident(c)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{r.X}},
		Body: &ast.BlockStmt{Lbrace: r.Body.Lbrace, List: append(head, r.Body.List...), Rbrace: r.Body.Rbrace},
	}
	SetPos(loop.Init, pos)
	return loop
}

func isBlank(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == "_" }

// collectChans adds to chans the names n declares with a channel type or
// defines from make(chan ...) (scope-insensitive, as collectInts).
func collectChans(n ast.Node, chans map[string]bool) {
	isChan := func(t ast.Expr) bool { _, ok := t.(*ast.ChanType); return ok }
	isMake := func(e ast.Expr) bool {
		c, ok := e.(*ast.CallExpr)
		if !ok || len(c.Args) == 0 {
			return false
		}
		id, ok := c.Fun.(*ast.Ident)
		return ok && id.Name == "make" && isChan(c.Args[0])
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) == len(x.Rhs) {
				for i, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && isMake(x.Rhs[i]) {
						chans[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range x.Names {
				if x.Type != nil && isChan(x.Type) || x.Type == nil && i < len(x.Values) && isMake(x.Values[i]) {
					chans[id.Name] = true
				}
			}
		case *ast.Field:
			if isChan(x.Type) {
				for _, id := range x.Names {
					chans[id.Name] = true
				}
			}
		}
		return true
	})
}
