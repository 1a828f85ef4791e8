package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/bridge"
)

// The engine's side of package bridge: registering the struct types a cell
// declared (so that fmt, encoding/json and errors treat them as Go does),
// and giving a cell value of a type with image.Image's methods to native
// code as an image.

// registerCellTypes registers the struct types f declares and the types
// f declares String or Error methods of (f is a piece that ran).
func (s *Session) registerCellTypes(f *ast.File) {
	names := bridge.Registered(f)
	if len(names) == 0 {
		return
	}
	var code strings.Builder
	for _, name := range names {
		code.WriteString(bridge.Registration(name, s.decls.Decl))
	}
	if code.Len() == 0 {
		return
	}
	if !s.importCellTypes() {
		return
	}
	// a failure leaves the type printed as the interpreter does
	_, _ = s.vm.ip.Eval(code.String())
}

// importCellTypes imports the registration package for the session's
// generated code, once; false when it cannot.
func (s *Session) importCellTypes() bool {
	if !s.ctImported {
		if _, err := s.vm.ip.Eval(fmt.Sprintf("import %s %q", bridge.Name, bridge.Path)); err != nil {
			return false
		}
		s.ctImported = true
	}
	return true
}

// imageValue returns x converted to image.Image when its static type is
// a type declared in a cell with image.Image's methods: the interpreter
// gives native code (png.Encode, renderValue) such a value without its
// methods, and the conversion wraps them, so the value is drawn as a
// native image is. Otherwise it returns x.
func (s *Session) imageValue(x ast.Expr) ast.Expr {
	if !s.decls.HasMethod("At") {
		return x
	}
	at := x.Pos()
	method := func(m string) ast.Stmt {
		return &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: at, Name: "_"}}, TokPos: at, Tok: token.ASSIGN,
			Rhs: []ast.Expr{&ast.SelectorExpr{X: x, Sel: &ast.Ident{NamePos: at, Name: m}}}}
	}
	probe := []ast.Stmt{method("At"), method("Bounds"), method("ColorModel")}
	if _, err := s.vm.compile(block(probe)); err != nil || !s.importCellTypes() {
		return x
	}
	// a native function taking an image.Image: the interpreter wraps the
	// value's methods for it; the second operand names the type (x is
	// evaluated twice only when it calls nothing)
	var raw ast.Expr = &ast.Ident{NamePos: at, Name: "nil"}
	calls := false
	ast.Inspect(x, func(n ast.Node) bool {
		_, call := n.(*ast.CallExpr)
		calls = calls || call
		return !calls
	})
	if !calls {
		raw = x
	}
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: &ast.Ident{NamePos: at, Name: bridge.Name}, Sel: &ast.Ident{NamePos: at, Name: "Image"}},
		Lparen: at, Args: []ast.Expr{x, raw}, Rparen: x.End()}
}
