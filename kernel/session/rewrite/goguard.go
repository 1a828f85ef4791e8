package rewrite

import (
	"go/ast"
	"go/token"
	"strconv"
)

// goGuard (pass go-guard) installs the runtime guards against what kills
// the process instead of the cell:
//
//   - every goroutine a go statement starts recovers its panics and
//     reports them through ᐩrt.GoPanic. For `go func(...){...}(args)` the
//     guard goes into the literal, so the arguments are still evaluated by
//     the go statement; `go f(x)` becomes `go func() { guard; f(x) }()`.
//   - every size argument of make is checked by ᐩrt.Len against the
//     kernel's memory limit before the allocation: Go's runtime treats an
//     allocation the machine cannot back as a fatal error, not a panic, so
//     `make([]byte, 64<<30)` would end the kernel. `make(T, n, c)` becomes
//     `make(T, ᐩrt.Len((T)(nil), n), ᐩrt.Len((T)(nil), c))` (T is a slice,
//     map or channel type, so (T)(nil) is its typed nil, from which Len
//     learns the element size); small literal sizes are left alone.
func goGuard(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			u.guardMake(call)
			return true
		}
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		if lit, ok := g.Call.Fun.(*ast.FuncLit); ok {
			prepend(lit.Body, lit.Body.Lbrace, u.guard())
			return true
		}
		g.Call = &ast.CallExpr{Fun: funcLit(u.guard(), &ast.ExprStmt{X: g.Call})}
		SetPos(g.Call, g.Go)
		return true
	})
}

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

// smallMake is the largest literal make size left unchecked.
const smallMake = 1 << 20

// guardMake wraps the size arguments of a call of the make builtin.
func (u *Unit) guardMake(call *ast.CallExpr) {
	fn, ok := call.Fun.(*ast.Ident)
	if !ok || fn.Name != "make" || len(call.Args) < 2 || u.generated[call] {
		return
	}
	typ := call.Args[0]
	for i, arg := range call.Args[1:] {
		if lit, ok := arg.(*ast.BasicLit); ok && lit.Kind == token.INT {
			if v, err := strconv.ParseInt(lit.Value, 0, 64); err == nil && v <= smallMake {
				continue
			}
		}
		nilOfT := &ast.CallExpr{Fun: &ast.ParenExpr{X: typ}, Args: []ast.Expr{ident("nil")}}
		wrapped := rtCall("Len", nilOfT, arg)
		SetPos(wrapped, arg.Pos())
		u.generated[wrapped] = true
		call.Args[1+i] = wrapped
	}
	u.generated[call] = true
}
