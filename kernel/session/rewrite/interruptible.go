package rewrite

import (
	"go/ast"
	"go/token"
)

// interruptible (pass interruptible) makes the channel operations of
// statements wait for an interrupt too, so that a cell blocked on a
// channel ends as Interrupted: ᐩrt.Done() is a channel the session closes
// on interrupt, and the case that receives from it calls
// ᐩrt.Interrupted(), which ends the cell.
//
//   - a select without a default gets the case
//     `case <-ᐩrt.Done(): ᐩrt.Interrupted()` (so `select {}` waits for the
//     interrupt);
//   - `<-c`, `c <- v`, `x = <-c` and `x, ok = <-c` as statements become
//     calls of the runtime's ᐩrt.Recv, ᐩrt.Send and ᐩrt.RecvInto, compiled
//     Go that waits for the operation or the interrupt. Not selects: the
//     interpreter keeps one select's cases in the select's node, shared by
//     every goroutine that runs it, so goroutines receiving through the
//     same statement from different channels took each other's channels
//     and deadlocked;
//   - `x := <-c` and `x, ok := <-c` declare x first, with the zero value
//     of c's element type (received from a closed channel of that type,
//     ᐩrt.ZeroOf, so the type need not be named), then receive into it;
//   - `return <-c` receives into a variable first, which also avoids the
//     interpreter's "unaddressable value" panic of that form.
//
// Pass recv-expr, before, makes statements of the receives inside larger
// expressions (`f(<-c)`) that Go evaluates first, and of `for v := range
// c` over a known channel. The receives it leaves (after another call of
// their statement) are left as they are: the second interrupt abandons
// them (the session says what the cell is blocked in).
func interruptible(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		s, ok := n.(*ast.SelectStmt)
		if !ok || u.generated[s] {
			return true
		}
		for _, c := range s.Body.List {
			if cc, ok := c.(*ast.CommClause); ok {
				u.assignCase(cc)
			}
		}
		if !hasDefault(s) {
			s.Body.List = append(s.Body.List, u.stopClause(s.Body.Rbrace))
		}
		return true
	})
	expand := func(list []ast.Stmt) []ast.Stmt {
		var out []ast.Stmt
		for i, st := range list {
			r := u.interruptibleStmt(st)
			if r == nil {
				if out != nil {
					out = append(out, st)
				}
				continue
			}
			if out == nil {
				out = append([]ast.Stmt{}, list[:i]...)
			}
			out = append(out, r...)
		}
		if out == nil {
			return list
		}
		return out
	}
	u.expandLists(expand)
	if r := recv(u.Value); r != nil {
		// a receive as the cell's value: received by a statement, its
		// variable is the value.
		v := u.fresh("v")
		lhs := &ast.Ident{NamePos: u.Value.Pos(), Name: v}
		u.Stmts = append(u.Stmts, u.defineRecv(&ast.AssignStmt{Lhs: []ast.Expr{lhs}, Tok: token.DEFINE, Rhs: []ast.Expr{u.Value}})...)
		id := &ast.Ident{NamePos: u.Value.Pos(), Name: v}
		u.Value = id
	}
}

// interruptibleStmt returns what replaces st, or nil to keep it.
func (u *Unit) interruptibleStmt(st ast.Stmt) []ast.Stmt {
	if u.generated[st] {
		return nil
	}
	switch x := st.(type) {
	case *ast.ExprStmt:
		if r := recv(x.X); r != nil {
			return []ast.Stmt{u.op(&ast.ExprStmt{X: rtCall("Recv", r.X)}, st.Pos())}
		}
	case *ast.SendStmt:
		if !isConstant(x.Value) {
			return []ast.Stmt{u.send(x)}
		}
		send := u.op(&ast.ExprStmt{X: rtCall("Send", x.Chan, x.Value)}, st.Pos())
		return []ast.Stmt{u.typeCheckedSend(x), send}
	case *ast.AssignStmt:
		if len(x.Rhs) != 1 || len(x.Lhs) > 2 || recv(x.Rhs[0]) == nil {
			return nil
		}
		switch x.Tok {
		case token.ASSIGN:
			return []ast.Stmt{u.assignRecv(x)}
		case token.DEFINE:
			if r := u.defineRecv(x); r != nil {
				return r
			}
		}
	case *ast.ReturnStmt:
		if len(x.Results) == 1 && recv(x.Results[0]) != nil {
			v := u.fresh("v")
			def := u.defineRecv(&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: x.Return, Name: v}}, Tok: token.DEFINE, Rhs: x.Results})
			ret := &ast.ReturnStmt{Return: x.Return, Results: []ast.Expr{ident(v)}}
			SetPos(ret, x.Pos())
			return []ast.Stmt{&ast.BlockStmt{Lbrace: x.Pos(), List: append(def, ret), Rbrace: x.End()}}
		}
	}
	return nil
}

// send rewrites `c <- v` as `if !ᐩrt.Send(c, v) { c <- v }`: ᐩrt.Send
// returns false, having sent nothing, when the value is the interpreter's
// representation of a cell type and the channel's element type a native
// interface (`chan json.Marshaler`): only the interpreter can make the
// interface value, so it sends (yaegi corpus issue-1010 panicked "cannot
// send a value of type struct { Xn int } on a chan json.Marshaler"). That
// send does not end at an interrupt; the second interrupt abandons it. c
// and v are evaluated once: into temporaries, in a block, unless reading
// them again has no effect (names, fields, literals).
func (u *Unit) send(x *ast.SendStmt) ast.Stmt {
	pos := x.Pos()
	c, v := x.Chan, x.Value
	var list []ast.Stmt
	for _, e := range []*ast.Expr{&c, &v} {
		if pure(*e) {
			continue
		}
		name := u.fresh("s")
		def := &ast.AssignStmt{Lhs: []ast.Expr{ident(name)}, Tok: token.DEFINE, Rhs: []ast.Expr{*e}}
		SetPos(def, (*e).Pos())
		u.generate(def)
		list = append(list, def)
		*e = &ast.Ident{NamePos: (*e).Pos(), Name: name}
	}
	native := rtCall("Send", c, v)
	SetPos(native, pos)
	fallback := &ast.SendStmt{Chan: cloneExpr(c, c.Pos()), Arrow: x.Arrow, Value: cloneExpr(v, v.Pos())}
	u.generate(fallback)
	st := &ast.IfStmt{If: pos, Cond: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: native},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{fallback}, Rbrace: pos}}
	u.generate(st)
	if list == nil {
		return st
	}
	b := &ast.BlockStmt{Lbrace: pos, List: append(list, st), Rbrace: x.End()}
	u.generate(b)
	return b
}

// pure reports whether evaluating e again has no effect and gives the same
// value: names, literals, fields, indexes and operators of those.
func pure(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return pure(x.X)
	case *ast.SelectorExpr:
		return pure(x.X)
	case *ast.StarExpr:
		return pure(x.X)
	case *ast.IndexExpr:
		return pure(x.X) && pure(x.Index)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && pure(x.X)
	case *ast.BinaryExpr:
		return pure(x.X) && pure(x.Y)
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if !pure(el) {
				return false
			}
		}
		return true
	}
	return false
}

// typeCheckedSend returns `if *ᐩrt.Never { c <- v }` for the send of a
// constant: *ᐩrt.Never is always false, but not a constant, so the
// interpreter compiles the send and rejects a constant of the wrong type
// before the cell runs (ᐩrt.Send, a call with `any` arguments, would only
// panic when it is reached).
func (u *Unit) typeCheckedSend(x *ast.SendStmt) ast.Stmt {
	pos := x.Pos()
	dead := &ast.SendStmt{Chan: cloneExpr(x.Chan, pos), Arrow: x.Arrow, Value: cloneExpr(x.Value, x.Value.Pos())}
	u.generate(dead)
	check := &ast.IfStmt{If: pos, Cond: &ast.StarExpr{X: &ast.SelectorExpr{X: ident(Runtime), Sel: ident("Never")}}, Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{dead}, Rbrace: pos}}
	SetPos(check, pos)
	u.generate(check)
	return check
}

// isConstant reports whether e is a constant made of literals (and true,
// false, nil).
func isConstant(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return x.Name == "true" || x.Name == "false" || x.Name == "nil"
	case *ast.ParenExpr:
		return isConstant(x.X)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && x.Op != token.AND && isConstant(x.X)
	case *ast.BinaryExpr:
		return isConstant(x.X) && isConstant(x.Y)
	}
	return false
}

// defineRecv rewrites `x[, ok] := <-c` as `ᐩc := c; ᐩz := ᐩc;
// ᐩrt.ZeroOf(&ᐩz); x := (<-ᐩz); [ok :=] ᐩrt.RecvInto(ᐩc, &x)`, or returns
// nil when the left side is not names.
func (u *Unit) defineRecv(a *ast.AssignStmt) []ast.Stmt {
	r := recv(a.Rhs[0])
	pos := a.Pos()
	c, z := u.fresh("c"), u.fresh("z")
	define := func(name string, x ast.Expr) ast.Stmt {
		return &ast.AssignStmt{Lhs: []ast.Expr{ident(name)}, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
	}
	names := make([]string, len(a.Lhs))
	for i, l := range a.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return nil
		}
		names[i] = id.Name
		if id.Name == "_" {
			names[i] = u.fresh("blank")
		}
	}
	into := rtCall("RecvInto", ident(c), &ast.UnaryExpr{Op: token.AND, X: ident(names[0])})
	var last ast.Stmt = &ast.ExprStmt{X: into}
	if len(names) == 2 {
		last = define(names[1], into)
	}
	out := []ast.Stmt{
		define(c, r.X),
		define(z, ident(c)),
		&ast.ExprStmt{X: rtCall("ZeroOf", &ast.UnaryExpr{Op: token.AND, X: ident(z)})},
		define(names[0], &ast.ParenExpr{X: &ast.UnaryExpr{Op: token.ARROW, X: ident(z)}}),
		last,
	}
	for _, st := range out {
		SetPos(st, pos)
		u.generate(st)
	}
	return out
}

// assignRecv rewrites `x[, ok] = <-c` as a block that receives into a
// temporary of c's element type (defineRecv) and assigns it.
func (u *Unit) assignRecv(a *ast.AssignStmt) ast.Stmt {
	tmps := make([]ast.Expr, len(a.Lhs))
	for i := range a.Lhs {
		tmps[i] = ident(u.fresh("t"))
	}
	list := u.defineRecv(&ast.AssignStmt{Lhs: tmps, Tok: token.DEFINE, Rhs: a.Rhs})
	set := &ast.AssignStmt{Lhs: a.Lhs, Tok: token.ASSIGN, Rhs: tmps}
	SetPos(set, a.Pos())
	b := &ast.BlockStmt{Lbrace: a.Pos(), List: append(list, set), Rbrace: a.End()}
	u.generate(b)
	return b
}

// op marks a generated statement and gives it pos.
func (u *Unit) op(st ast.Stmt, pos token.Pos) ast.Stmt {
	SetPos(st, pos)
	u.generate(st)
	return st
}

// assignCase rewrites the clause `case x[, ok] = <-c: body` as `case ᐩt[,
// ᐩok] := <-c: x[, ok] = ᐩt[, ᐩok]; body`: the interpreter never completes
// a select case that assigns (it blocks, or panics "reflect.Select:
// invalid Dir"), and handles the defining form.
func (u *Unit) assignCase(cc *ast.CommClause) {
	a, ok := cc.Comm.(*ast.AssignStmt)
	if !ok || a.Tok != token.ASSIGN || len(a.Rhs) != 1 || recv(a.Rhs[0]) == nil {
		return
	}
	tmps := make([]ast.Expr, len(a.Lhs))
	for i := range a.Lhs {
		tmps[i] = ident(u.fresh("t"))
	}
	set := &ast.AssignStmt{Lhs: a.Lhs, Tok: token.ASSIGN, Rhs: tmps}
	SetPos(set, a.Pos())
	def := &ast.AssignStmt{Lhs: tmps, Tok: token.DEFINE, Rhs: a.Rhs}
	SetPos(def, a.Pos())
	cc.Comm = def
	cc.Body = append([]ast.Stmt{set}, cc.Body...)
}

// stopClause returns `case <-*ᐩrt.DoneP: ᐩrt.Interrupted()` (a read of the
// session's stop channel through a pointer, cheaper than a call), or with
// Options.CheckpointCall `case <-ᐩrt.Done(): ...`.
func (u *Unit) stopClause(pos token.Pos) *ast.CommClause {
	var done ast.Expr = &ast.StarExpr{X: &ast.SelectorExpr{X: ident(Runtime), Sel: ident("DoneP")}}
	if u.call {
		done = rtCall("Done")
	}
	cc := &ast.CommClause{
		Comm: &ast.ExprStmt{X: &ast.UnaryExpr{Op: token.ARROW, X: done}},
		Body: []ast.Stmt{&ast.ExprStmt{X: rtCall("Interrupted")}},
	}
	SetPos(cc, pos)
	return cc
}

// recv returns x as a receive `<-c` (unparenthesised or not), or nil.
func recv(x ast.Expr) *ast.UnaryExpr {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			break
		}
		x = p.X
	}
	if r, ok := x.(*ast.UnaryExpr); ok && r.Op == token.ARROW {
		return r
	}
	return nil
}

func hasDefault(s *ast.SelectStmt) bool {
	for _, c := range s.Body.List {
		if cc, ok := c.(*ast.CommClause); ok && cc.Comm == nil {
			return true
		}
	}
	return false
}
