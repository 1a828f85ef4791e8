package rewrite

import (
	"fmt"
	"go/ast"
	"go/parser"
	"reflect"
	"strings"
)

// This file writes the statements the engine compiles to capture a cell's
// value: they hand the value (and the output of its rich methods) to the
// session runtime.

// RichMethod is a method a cell value may offer for richer output, with
// the MIME type of its result.
type RichMethod struct{ Method, MIME string }

// ValueProbe returns `ᐩrt.Value(x)`: it compiles only when x has exactly
// one value (not a call of a function without results or with several).
func ValueProbe(x ast.Expr) ast.Stmt { return fromTemplate(Runtime+".Value(ᐩX)", x) }

// RichProbe returns a statement that compiles only when x's static type
// has the method. (yaegi cannot assert interpreted values held in an
// interface to a method set, nor does it check assignments to interface
// types, so the check is a compiled method call.)
func RichProbe(x ast.Expr, method string) ast.Stmt {
	return fromTemplate("func() { var _ string = ᐩX."+method+"() }", x)
}

// ValueStmt returns the statement that captures the value of x and the
// output of its rich methods.
func ValueStmt(x ast.Expr, rich []RichMethod) ast.Stmt {
	var b strings.Builder
	fmt.Fprintf(&b, "func() {\n\tᐩv := ᐩX\n\t%s.Value(ᐩv)\n", Runtime)
	for _, m := range rich {
		fmt.Fprintf(&b, "\t%s.Rich(%q, ᐩv.%s())\n", Runtime, m.MIME, m.Method)
	}
	b.WriteString("}()")
	return fromTemplate(b.String(), x)
}

// fromTemplate parses a Go expression template, replaces the identifier
// ᐩX by x and returns it as a statement positioned at x.
func fromTemplate(tmpl string, x ast.Expr) ast.Stmt {
	e, err := parser.ParseExpr(tmpl)
	if err != nil {
		panic("rewrite: bad template: " + err.Error()) // the templates are constant: a bug here
	}
	zeroPos(e)
	st := &ast.ExprStmt{X: e}
	ReplaceExprs(st, func(e ast.Expr) ast.Expr {
		if id, ok := e.(*ast.Ident); ok && id.Name == "ᐩX" {
			return x
		}
		return nil
	})
	SetPos(st, x.Pos())
	return st
}

// zeroPos clears every position in n (nodes parsed from a template carry
// positions of another file set).
func zeroPos(n ast.Node) {
	eachPos(n, func(ast.Node) bool { return true }, func(_ string, v reflect.Value) { v.SetInt(0) })
}
