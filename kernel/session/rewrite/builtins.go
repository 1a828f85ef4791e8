package rewrite

import "go/ast"

// builtinCalls (pass builtins) points two builtins at the session's own
// versions: print and println write to standard error in Go's format (the
// interpreter writes them to standard output, with fmt's spacing), as
// ᐩrt.Print and ᐩrt.Println; and recover() is wrapped as
// ᐩrt.Unwrap(recover()), since the interpreter recovers a panic value of
// a type declared in a cell as a reflect.Value. (A recover of a cell's
// own defer was made ᐩrt.Recover() by top-level-defer.) A name print,
// println or recover that the cell declares is left alone.
func builtinCalls(u *Unit) {
	declared := map[string]bool{}
	u.inspect(func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Recv == nil {
				declared[x.Name.Name] = true
			}
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					declared[id.Name] = true
				}
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				declared[id.Name] = true
			}
		}
		return true
	})
	u.inspect(func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || u.generated[c] {
			return true
		}
		id, ok := c.Fun.(*ast.Ident)
		if !ok || declared[id.Name] {
			return true
		}
		switch id.Name {
		case "print", "println":
			name := "Print"
			if id.Name == "println" {
				name = "Println"
			}
			c.Fun = &ast.SelectorExpr{X: &ast.Ident{NamePos: id.Pos(), Name: Runtime}, Sel: &ast.Ident{NamePos: id.Pos(), Name: name}}
		case "recover":
			if len(c.Args) == 0 {
				inner := &ast.CallExpr{Fun: &ast.Ident{NamePos: id.Pos(), Name: "recover"}, Lparen: c.Lparen, Rparen: c.Rparen}
				u.generate(inner)
				c.Fun = &ast.SelectorExpr{X: &ast.Ident{NamePos: id.Pos(), Name: Runtime}, Sel: &ast.Ident{NamePos: id.Pos(), Name: "Unwrap"}}
				c.Args = []ast.Expr{inner}
			}
		}
		return true
	})
}
