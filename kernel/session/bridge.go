package session

import (
	"go/ast"
	"go/constant"
	"go/token"
	"reflect"
	"strings"
)

// This file rewrites the AST of a cell before yaegi compiles it:
//   - interrupt checkpoints at every loop iteration and function entry;
//   - a recover guard in every goroutine user code starts;
//   - bridges for modern Go yaegi lacks: range over int, per-iteration loop
//     variables, clear, and comma-ok forms at top level.
// Synthesised names start with ᐩ, which user code cannot collide with by
// accident.

// rewriter holds what the rewrites of one cell need.
type rewriter struct {
	ints map[string]bool // names known to have an integer type
	pos  token.Pos       // position given to synthesised nodes
	n    int             // counter for fresh names
	// synthetic marks func literals and loops the rewriter made or already
	// rewrote, so they are not rewritten again.
	synthetic map[ast.Node]bool
}

// rewriteCell applies the session's rewrites to a parsed cell. ints holds
// the global names known to have an integer type.
func rewriteCell(pc *parsedCell, ints map[string]bool) {
	rw := &rewriter{ints: ints, synthetic: map[ast.Node]bool{}}
	if pc.decls != nil {
		collectInts(pc.decls, ints)
		for _, d := range pc.decls.Decls {
			rw.node(d)
		}
	}
	for _, st := range pc.stmts {
		collectInts(st, ints)
	}
	if pc.decls != nil {
		replaceExprs(pc.decls, foldMinMax)
	}
	body := &ast.BlockStmt{List: pc.stmts}
	replaceExprs(body, foldMinMax)
	pc.stmts = rw.topLevel(body.List)
	if pc.value != nil {
		holder := &ast.ExprStmt{X: pc.value}
		replaceExprs(holder, foldMinMax)
		if r := foldMinMax(holder.X); r != nil {
			holder.X = r
		}
		pc.value = holder.X
		rw.node(pc.value)
	}
}

// topLevel rewrites the cell's top-level statements. yaegi crashes on some
// forms at top level (comma-ok definitions, also nested in if/for/switch
// headers, range over int), so compound statements are wrapped in an
// immediately called func literal and top-level comma-ok definitions are
// split into a definition and an assignment.
func (rw *rewriter) topLevel(list []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, st := range list {
		st = rw.loop(st)
		rw.node(st)
		switch x := st.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
			*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
			lit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: &ast.BlockStmt{List: []ast.Stmt{st}}}
			call := &ast.ExprStmt{X: &ast.CallExpr{Fun: lit}}
			setPos(call, st.Pos())
			out = append(out, call)
		case *ast.AssignStmt:
			parenRecv(x)
			out = append(out, rw.commaOK(x)...)
		case *ast.DeclStmt:
			parenRecv(x)
			out = append(out, st)
		default:
			out = append(out, st)
		}
	}
	return out
}

// parenRecv parenthesises the bare receives `<-c` that a top-level
// assignment or var declaration gives one variable each (`x := <-c`, `x =
// <-c`, `var x = <-c`): yaegi leaves such a variable unaddressable, so a
// later assignment to it panics; `x := (<-c)` works. The comma-ok form is
// commaOK's.
func parenRecv(st ast.Stmt) {
	wrap := func(xs []ast.Expr) {
		for i, x := range xs {
			if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				xs[i] = &ast.ParenExpr{Lparen: u.Pos(), X: u, Rparen: u.End() - 1}
			}
		}
	}
	switch x := st.(type) {
	case *ast.AssignStmt:
		if len(x.Lhs) == len(x.Rhs) {
			wrap(x.Rhs)
		}
	case *ast.DeclStmt:
		if g, ok := x.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				if v, ok := sp.(*ast.ValueSpec); ok && len(v.Names) == len(v.Values) {
					wrap(v.Values)
				}
			}
		}
	}
}

// commaOK splits a top-level `v, ok := m[k]` into `v := m[k]; ok := false;
// v, ok = m[k]`, `v, ok := x.(T)` into `var v T; ok := false; v, ok =
// x.(T)` and `v, ok := <-c` as commaOKRecv does (the define form crashes
// yaegi at top level; the assignment form works).
func (rw *rewriter) commaOK(a *ast.AssignStmt) []ast.Stmt {
	if a.Tok != token.DEFINE || len(a.Lhs) != 2 || len(a.Rhs) != 1 {
		return []ast.Stmt{a}
	}
	v, ok1 := a.Lhs[0].(*ast.Ident)
	ok, ok2 := a.Lhs[1].(*ast.Ident)
	if !ok1 || !ok2 {
		return []ast.Stmt{a}
	}
	var first ast.Stmt
	switch x := a.Rhs[0].(type) {
	case *ast.IndexExpr:
		first = &ast.AssignStmt{Lhs: []ast.Expr{ident(v.Name)}, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
	case *ast.UnaryExpr:
		if x.Op != token.ARROW {
			return []ast.Stmt{a}
		}
		return rw.commaOKRecv(a, v.Name, ok.Name, x)
	case *ast.TypeAssertExpr:
		if x.Type == nil {
			return []ast.Stmt{a}
		}
		first = &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{ident(v.Name)}, Type: x.Type}}}}
	default:
		return []ast.Stmt{a}
	}
	var out []ast.Stmt
	if v.Name != "_" {
		out = append(out, first)
	}
	if ok.Name != "_" {
		out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{ident(ok.Name)}, Tok: token.DEFINE, Rhs: []ast.Expr{ident("false")}})
	}
	a.Tok = token.ASSIGN
	out = append(out, a)
	for _, st := range out[:len(out)-1] {
		setPos(st, a.Pos())
	}
	return out
}

// commaOKRecv splits a top-level `v, ok := <-c` into `ᐩc := c; ᐩz := ᐩc;
// ᐩrt.ClosedChan(&ᐩz); v := (<-ᐩz); ok := false; v, ok = <-ᐩc`: c is
// evaluated once, and receiving from the closed channel ᐩz declares v with
// c's element type (its zero value) without naming the type. A blank v or
// ok becomes a fresh variable.
func (rw *rewriter) commaOKRecv(a *ast.AssignStmt, v, ok string, recv *ast.UnaryExpr) []ast.Stmt {
	c, z := rw.fresh("c"), rw.fresh("z")
	define := func(name string, x ast.Expr) ast.Stmt {
		return &ast.AssignStmt{Lhs: []ast.Expr{ident(name)}, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
	}
	out := []ast.Stmt{
		define(c, recv.X),
		define(z, ident(c)),
		&ast.ExprStmt{X: rtCall("ClosedChan", &ast.UnaryExpr{Op: token.AND, X: ident(z)})},
	}
	// yaegi assigns the wrong values to a blank on the left of a top-level
	// receive: a blank gets a variable of its own.
	if v == "_" {
		v = rw.fresh("v")
		a.Lhs[0] = ident(v)
	}
	if ok == "_" {
		ok = rw.fresh("ok")
		a.Lhs[1] = ident(ok)
	}
	// Parenthesised: yaegi leaves a variable defined at top level from a
	// bare receive unaddressable, so the assignment below would panic.
	out = append(out, define(v, &ast.ParenExpr{X: &ast.UnaryExpr{Op: token.ARROW, X: ident(z)}}),
		define(ok, ident("false")))
	for _, st := range out {
		setPos(st, a.Pos())
	}
	recv.X = ident(c)
	setPos(recv.X, recv.OpPos)
	a.Tok = token.ASSIGN
	return append(out, a)
}

func ident(name string) *ast.Ident { return &ast.Ident{Name: name} }

// rtCall returns ᐩrt.name(args...).
func rtCall(name string, args ...ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(rtName), Sel: ident(name)}, Args: args}
}

// checkpoint returns `if *ᐩrt.Stop { ᐩrt.Interrupted() }`: reading the flag
// through the pointer costs a few ns per loop iteration; the call happens
// only on interrupt.
func checkpoint() ast.Stmt {
	return &ast.IfStmt{
		Cond: &ast.StarExpr{X: &ast.SelectorExpr{X: ident(rtName), Sel: ident("Stop")}},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: rtCall("Interrupted")}}},
	}
}

// funcEntry returns `ᐩrt.Enter(); defer ᐩrt.Leave()`: the interrupt
// checkpoint of a function and its depth count.
func funcEntry() []ast.Stmt {
	return []ast.Stmt{&ast.ExprStmt{X: rtCall("Enter")}, &ast.DeferStmt{Call: rtCall("Leave")}}
}

// goGuard returns `defer func() { if r := recover(); r != nil { ᐩrt.GoPanic(r) } }()`.
func (rw *rewriter) goGuard() ast.Stmt {
	rec := &ast.IfStmt{
		Init: &ast.AssignStmt{Lhs: []ast.Expr{ident("ᐩr")}, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.CallExpr{Fun: ident("recover")}}},
		Cond: &ast.BinaryExpr{X: ident("ᐩr"), Op: token.NEQ, Y: ident("nil")},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: rtCall("GoPanic", ident("ᐩr"))}}},
	}
	lit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: &ast.BlockStmt{List: []ast.Stmt{rec}}}
	rw.synthetic[lit] = true
	return &ast.DeferStmt{Call: &ast.CallExpr{Fun: lit}}
}

// prepend inserts synthesised statements at the start of a block.
func prepend(b *ast.BlockStmt, pos token.Pos, sts ...ast.Stmt) {
	for _, st := range sts {
		setPos(st, pos)
	}
	b.List = append(sts, b.List...)
}

// node rewrites every function, loop and go statement under n, in place.
func (rw *rewriter) node(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Body != nil {
				prepend(x.Body, x.Body.Lbrace, funcEntry()...)
			}
		case *ast.FuncLit:
			if rw.synthetic[x] {
				return true
			}
			prepend(x.Body, x.Body.Lbrace, funcEntry()...)
		case *ast.GoStmt:
			rw.guardGo(x)
		case *ast.BlockStmt:
			rw.list(x.List)
		case *ast.CaseClause:
			rw.list(x.Body)
		case *ast.CommClause:
			rw.list(x.Body)
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "clear" && len(x.Args) == 1 {
				x.Fun = &ast.SelectorExpr{X: &ast.Ident{NamePos: id.NamePos, Name: rtName}, Sel: &ast.Ident{NamePos: id.NamePos, Name: "Clear"}}
			}
		}
		return true
	})
}

// list rewrites the loops of a statement list in place.
func (rw *rewriter) list(list []ast.Stmt) {
	for i, st := range list {
		list[i] = rw.loop(st)
	}
}

// loop rewrites one loop statement (possibly labelled): range over int
// becomes a three-clause loop, loop variables captured by closures become
// per-iteration copies, and the body gets a checkpoint.
func (rw *rewriter) loop(st ast.Stmt) ast.Stmt {
	target := st
	label, _ := st.(*ast.LabeledStmt)
	if label != nil {
		target = label.Stmt
	}
	if rw.synthetic[target] {
		return st
	}
	rw.synthetic[target] = true
	switch x := target.(type) {
	case *ast.ForStmt:
		if isSyntheticLoop(x) {
			return st
		}
		rw.perIterationFor(x)
		prepend(x.Body, x.Body.Lbrace, checkpoint())
	case *ast.RangeStmt:
		if rw.isInt(x.X) {
			return rw.rangeInt(x, label)
		}
		rw.perIterationRange(x)
		prepend(x.Body, x.Body.Lbrace, checkpoint())
	}
	return st
}

// fresh returns a new synthesised name derived from name.
func (rw *rewriter) fresh(name string) string {
	rw.n++
	return "ᐩ" + name + strings.Repeat("ᐩ", rw.n%2) + itoa(rw.n)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// rangeInt rewrites `for k := range n { body }` to
// `{ ᐩn := n; for ᐩi := ᐩn - ᐩn; ᐩi < ᐩn; ᐩi++ { k := ᐩi; body } }`
// (ᐩn - ᐩn gives the loop counter n's type).
func (rw *rewriter) rangeInt(r *ast.RangeStmt, label *ast.LabeledStmt) ast.Stmt {
	n, i := rw.fresh("n"), rw.fresh("i")
	body := r.Body
	if k, ok := r.Key.(*ast.Ident); ok && k.Name != "_" {
		tok := r.Tok
		if tok != token.ASSIGN {
			tok = token.DEFINE
		}
		prepend(body, body.Lbrace, &ast.AssignStmt{Lhs: []ast.Expr{ident(k.Name)}, Tok: tok, Rhs: []ast.Expr{ident(i)}})
	} else if r.Key != nil && r.Tok == token.ASSIGN {
		prepend(body, body.Lbrace, &ast.AssignStmt{Lhs: []ast.Expr{r.Key}, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(i)}})
	}
	prepend(body, body.Lbrace, checkpoint())
	loop := &ast.ForStmt{
		For:  r.For,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{ident(i)}, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.BinaryExpr{X: ident(n), Op: token.SUB, Y: ident(n)}}},
		Cond: &ast.BinaryExpr{X: ident(i), Op: token.LSS, Y: ident(n)},
		Post: &ast.IncDecStmt{X: ident(i), Tok: token.INC},
		Body: body,
	}
	rw.synthetic[loop] = true
	var inner ast.Stmt = loop
	if label != nil {
		label.Stmt = loop
		inner = label
	}
	out := &ast.BlockStmt{List: []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{ident(n)}, Tok: token.DEFINE, Rhs: []ast.Expr{r.X}},
		inner,
	}}
	setPos(out, r.For)
	return out
}

// perIterationFor gives each iteration of `for i := a; cond; post` its own
// i (Go 1.22 semantics) when the body has a closure that could capture it
// and does not assign i: the header variable is renamed and the body
// starts with `i := ᐩi`. (`i := i` as the first statement hangs yaegi.)
func (rw *rewriter) perIterationFor(f *ast.ForStmt) {
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
		renames[id.Name] = rw.fresh(id.Name)
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
func (rw *rewriter) perIterationRange(r *ast.RangeStmt) {
	if r.Tok != token.DEFINE || !hasClosure(r.Body) {
		return
	}
	var lhs, rhs []ast.Expr
	for _, e := range []ast.Expr{r.Key, r.Value} {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		fresh := rw.fresh(id.Name)
		lhs, rhs = append(lhs, ident(id.Name)), append(rhs, ident(fresh))
		id.Name = fresh
	}
	if len(lhs) > 0 {
		prepend(r.Body, r.Body.Lbrace, &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs})
	}
}

// guardGo makes the goroutine of a go statement recover its panics and
// report them on the session instead of killing the process. For
// `go func(...){...}(args)` the guard goes into the literal, so arguments
// are still evaluated by the go statement.
func (rw *rewriter) guardGo(g *ast.GoStmt) {
	if lit, ok := g.Call.Fun.(*ast.FuncLit); ok {
		prepend(lit.Body, lit.Body.Lbrace, rw.goGuard())
		return
	}
	lit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{List: []ast.Stmt{rw.goGuard(), &ast.ExprStmt{X: g.Call}}}}
	g.Call = &ast.CallExpr{Fun: lit}
	setPos(g.Call, g.Go)
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

// integer type names, for guessing which range expressions are integers.
var intTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"byte": true, "rune": true}

// collectInts adds to ints the names n declares with an integer type or
// initialises from an integer expression (scope-insensitive: a guess good
// enough to recognise `for i := range n`).
func collectInts(n ast.Node, ints map[string]bool) {
	isInt := func(e ast.Expr) bool { return isIntExpr(e, ints) }
	typeInt := func(t ast.Expr) bool { id, ok := t.(*ast.Ident); return ok && intTypes[id.Name] }
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) == len(x.Rhs) {
				for i, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && isInt(x.Rhs[i]) {
						ints[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range x.Names {
				if x.Type != nil && typeInt(x.Type) || x.Type == nil && i < len(x.Values) && isInt(x.Values[i]) {
					ints[id.Name] = true
				}
			}
		case *ast.Field:
			if typeInt(x.Type) {
				for _, id := range x.Names {
					ints[id.Name] = true
				}
			}
		}
		return true
	})
}

func (rw *rewriter) isInt(e ast.Expr) bool { return isIntExpr(e, rw.ints) }

// isIntExpr guesses, without type information, whether e is an integer.
func isIntExpr(e ast.Expr, ints map[string]bool) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT
	case *ast.Ident:
		return ints[x.Name]
	case *ast.ParenExpr:
		return isIntExpr(x.X, ints)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && x.Op != token.AND && isIntExpr(x.X, ints)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return isIntExpr(x.X, ints) || isIntExpr(x.Y, ints)
		case token.SHL, token.SHR:
			return isIntExpr(x.X, ints)
		}
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok {
			return id.Name == "len" || id.Name == "cap" || intTypes[id.Name]
		}
	}
	return false
}

// foldMinMax returns the constant a min or max call of untyped constants
// evaluates to (min(3, 2.5) is 2.5), or nil when e is not such a call. The
// prelude's generic min and max handle calls with a typed argument.
func foldMinMax(e ast.Expr) ast.Expr {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	id, ok := c.Fun.(*ast.Ident)
	if !ok || id.Name != "min" && id.Name != "max" || len(c.Args) == 0 {
		return nil
	}
	var best constant.Value
	var bestExpr ast.Expr
	float := false
	for _, a := range c.Args {
		v := constValue(a)
		if v == nil {
			return nil
		}
		float = float || v.Kind() == constant.Float
		if best == nil || id.Name == "min" && constant.Compare(v, token.LSS, best) || id.Name == "max" && constant.Compare(v, token.GTR, best) {
			best, bestExpr = v, a
		}
	}
	if float && best.Kind() == constant.Int {
		// Keep the kind of the most general operand: min(1, 2.5) is 1.0.
		bestExpr = &ast.BinaryExpr{X: bestExpr, Op: token.ADD, Y: &ast.BasicLit{Kind: token.FLOAT, Value: "0.0"}}
	}
	out := &ast.ParenExpr{X: bestExpr}
	setPos(out, c.Pos())
	return out
}

// replaceExprs calls f on every expression under n (children first) and
// replaces the expression by f's result when it is not nil.
func replaceExprs(n any, f func(ast.Expr) ast.Expr) {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	exprType := reflect.TypeOf((*ast.Expr)(nil)).Elem()
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		fv := v.Field(i)
		if !fv.CanSet() {
			continue
		}
		switch {
		case fv.Kind() == reflect.Interface && !fv.IsNil():
			replaceExprs(fv.Elem().Interface(), f)
			if fv.Type() == exprType {
				if r := f(fv.Interface().(ast.Expr)); r != nil {
					fv.Set(reflect.ValueOf(r))
				}
			}
		case fv.Kind() == reflect.Pointer:
			replaceExprs(fv.Interface(), f)
		case fv.Kind() == reflect.Slice:
			for j := 0; j < fv.Len(); j++ {
				el := fv.Index(j)
				if el.Kind() == reflect.Interface && !el.IsNil() {
					replaceExprs(el.Elem().Interface(), f)
					if el.Type() == exprType {
						if r := f(el.Interface().(ast.Expr)); r != nil {
							el.Set(reflect.ValueOf(r))
						}
					}
				} else if el.Kind() == reflect.Pointer {
					replaceExprs(el.Interface(), f)
				}
			}
		}
	}
}

// constValue evaluates an untyped constant expression of literals.
func constValue(e ast.Expr) constant.Value {
	switch x := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(x.Value, x.Kind, 0)
		if v.Kind() == constant.Unknown {
			return nil
		}
		return v
	case *ast.ParenExpr:
		return constValue(x.X)
	case *ast.UnaryExpr:
		if v := constValue(x.X); v != nil && (x.Op == token.SUB || x.Op == token.ADD) {
			return constant.UnaryOp(x.Op, v, 0)
		}
	}
	return nil
}

// isSyntheticLoop reports whether f is a loop the session wrote (its
// variable starts with ᐩ, as in CompileLoop's timed loop): it gets no
// checkpoint, so timing measures the statement alone.
func isSyntheticLoop(f *ast.ForStmt) bool {
	a, ok := f.Init.(*ast.AssignStmt)
	if !ok || len(a.Lhs) != 1 {
		return false
	}
	id, ok := a.Lhs[0].(*ast.Ident)
	return ok && strings.HasPrefix(id.Name, "ᐩ")
}
