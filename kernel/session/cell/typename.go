package cell

import "go/ast"

// TypeName is the name of the type a method receiver or an embedded field
// names: T for T, *T, T[E] and T[K, V]; "?" for anything else.
func TypeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return TypeName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return TypeName(x.X)
	case *ast.IndexListExpr:
		return TypeName(x.X)
	}
	return "?"
}
