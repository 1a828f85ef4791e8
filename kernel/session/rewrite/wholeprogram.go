package rewrite

import (
	"go/ast"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// wholeProgram runs a program pasted into a cell as `go run` runs it: the
// cell's init functions, then its func main, after everything else of the
// cell (its variables are set by then, as Go sets package variables before
// init); the cell then has no value. cell.Parse renamed them
// (cell.MainName, cell.InitPrefix) so that the interpreter does not run
// them itself; a later cell calls main() as any function.
func wholeProgram(u *Unit) {
	if u.Decls == nil {
		return
	}
	var calls []ast.Stmt
	var mainCall ast.Stmt
	for _, d := range u.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams != nil {
			continue
		}
		name := fd.Name.Name
		if name != cell.MainName && !strings.HasPrefix(name, cell.InitPrefix) {
			continue
		}
		call := &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.Ident{NamePos: fd.End(), Name: name}, Lparen: fd.End(), Rparen: fd.End()}}
		if name == cell.MainName {
			mainCall = call
			continue
		}
		calls = append(calls, call)
	}
	if mainCall != nil {
		calls = append(calls, mainCall)
	}
	if len(calls) == 0 {
		return
	}
	if u.Value != nil { // main runs last: the cell's last expression is a statement before it
		u.Stmts = append(u.Stmts, &ast.ExprStmt{X: u.Value})
		u.Value = nil
	}
	u.Stmts = append(u.Stmts, calls...)
}
