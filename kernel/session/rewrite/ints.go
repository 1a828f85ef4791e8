package rewrite

import (
	"go/ast"
	"go/token"
)

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

func (u *Unit) isInt(e ast.Expr) bool { return isIntExpr(e, u.ints) }

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
