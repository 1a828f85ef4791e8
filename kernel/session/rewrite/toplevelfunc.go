package rewrite

import "go/ast"

// topLevelFunc (pass top-level-func) wraps each compound statement at the
// top level of a cell (if, for, switch, select, a block, a labelled
// statement) in an immediately called function literal: yaegi crashes on
// some forms at top level (comma-ok definitions in their headers, the
// loops the other passes write), and works inside a function.
func topLevelFunc(u *Unit) {
	for i, st := range u.Stmts {
		switch st.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
			*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
			lit := funcLit(st)
			u.generate(lit)
			call := &ast.ExprStmt{X: &ast.CallExpr{Fun: lit}}
			SetPos(call, st.Pos())
			u.Stmts[i] = call
		}
	}
}
