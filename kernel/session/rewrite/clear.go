package rewrite

import "go/ast"

// clearBuiltin (pass clear) turns calls of the clear builtin (Go 1.21),
// which yaegi lacks, into calls of ᐩrt.Clear.
func clearBuiltin(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		if x, ok := n.(*ast.CallExpr); ok {
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "clear" && len(x.Args) == 1 {
				x.Fun = &ast.SelectorExpr{X: &ast.Ident{NamePos: id.NamePos, Name: Runtime}, Sel: &ast.Ident{NamePos: id.NamePos, Name: "Clear"}}
			}
		}
		return true
	})
}
