package rewrite

import (
	"go/ast"
	"go/token"
	"strconv"
)

// makeGuard (pass make-guard) checks every size argument of make against
// the kernel's memory limit before the allocation: Go's runtime treats an
// allocation the machine cannot back as a fatal error, not a panic, so
// `make([]byte, 64<<30)` would end the kernel. `make(T, n, c)` becomes
// `make(T, ᐩrt.Len((T)(nil), n), ᐩrt.Len((T)(nil), c))` (T is a slice,
// map or channel type, so (T)(nil) is its typed nil, from which Len learns
// the element size; Len panics with an error the cell shows when the
// allocation would pass the limit); literal sizes up to smallMake are left
// alone.
func makeGuard(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			u.guardMake(call)
		}
		return true
	})
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
