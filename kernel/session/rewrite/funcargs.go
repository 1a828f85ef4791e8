package rewrite

import (
	"go/ast"
	"go/token"
)

// funcArgs (pass func-args) gives a function literal passed as an argument
// inside a loop its own captured variables, as Go does. The interpreter
// turns a literal that is an argument of a call into a native func bound
// to the loop's frame as it is when the func is called, not when it was
// made: `for i := range 3 { x := i; time.AfterFunc(d, func() { use(x) }) }`
// (or any literal a native function keeps: a callback, a cleanup, a
// deferred ᐩrt.Defer of the cell) saw the last x three times. A literal
// evaluated as a value first captures correctly, so the argument becomes
// `[]func(...){ LIT }[0]`, which has the literal's type and the same
// meaning. Literals outside loops, `go func(){...}()`, calls of the
// literal itself and append's arguments are left alone: they capture
// correctly already.
func funcArgs(u *Unit) {
	for _, n := range u.Nodes() {
		funcArgsIn(n, 0)
	}
}

// funcArgsIn rewrites the literal arguments in n, loops deep in loops.
func funcArgsIn(n ast.Node, loops int) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ForStmt:
			for _, c := range []ast.Node{x.Init, x.Cond, x.Post} {
				if c != nil {
					funcArgsIn(c, loops)
				}
			}
			funcArgsIn(x.Body, loops+1)
			return false
		case *ast.RangeStmt:
			funcArgsIn(x.X, loops)
			funcArgsIn(x.Body, loops+1)
			return false
		case *ast.CallExpr:
			if loops == 0 || isBuiltinAppend(x.Fun) {
				return true
			}
			for i, a := range x.Args {
				if lit, ok := a.(*ast.FuncLit); ok {
					x.Args[i] = ownCaptures(lit)
				}
			}
		}
		return true
	})
}

// ownCaptures returns []T{lit}[0], T the literal's func type (without its
// parameter names, so that no pass renames them twice).
func ownCaptures(lit *ast.FuncLit) ast.Expr {
	typ := &ast.FuncType{Func: lit.Type.Func, Params: unnamed(lit.Type.Params), Results: unnamed(lit.Type.Results)}
	return &ast.IndexExpr{
		X:      &ast.CompositeLit{Type: &ast.ArrayType{Lbrack: lit.Pos(), Elt: typ}, Lbrace: lit.Pos(), Elts: []ast.Expr{lit}, Rbrace: lit.End()},
		Lbrack: lit.End(),
		Index:  &ast.BasicLit{ValuePos: lit.End(), Kind: token.INT, Value: "0"},
		Rbrack: lit.End(),
	}
}

func isBuiltinAppend(fun ast.Expr) bool {
	id, ok := fun.(*ast.Ident)
	return ok && id.Name == "append"
}

// unnamed returns the types of fields, one field per name.
func unnamed(fields *ast.FieldList) *ast.FieldList {
	if fields == nil {
		return nil
	}
	out := &ast.FieldList{Opening: fields.Opening, Closing: fields.Closing}
	for _, f := range fields.List {
		for range max(1, len(f.Names)) {
			out.List = append(out.List, &ast.Field{Type: f.Type})
		}
	}
	return out
}
