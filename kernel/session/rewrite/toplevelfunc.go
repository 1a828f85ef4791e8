package rewrite

import (
	"go/ast"
	"go/token"
)

// topLevelFunc (pass top-level-func) wraps each compound statement at the
// top level of a cell (if, for, switch, select, a block, a labelled
// statement) in an immediately called function literal: yaegi crashes on
// some forms at top level (comma-ok definitions in their headers, the
// loops the other passes write), and works inside a function. A goto
// between top-level statements keeps its meaning: the statements from the
// first label a goto targets (or the first goto) to the last go into one
// function literal together, so the jump stays inside it (variables those
// statements define are then local to them).
func topLevelFunc(u *Unit) {
	if lo, hi, ok := gotoSpan(u.Stmts); ok {
		lit := funcLit(u.Stmts[lo : hi+1]...)
		u.generate(lit)
		call := &ast.ExprStmt{X: &ast.CallExpr{Fun: lit}}
		SetPos(call, u.Stmts[lo].Pos())
		rest := append([]ast.Stmt{call}, u.Stmts[hi+1:]...)
		u.Stmts = append(u.Stmts[:lo:lo], rest...)
		wrapCompound(u, lo+1)
		wrapCompound(u, 0, lo)
		return
	}
	wrapCompound(u, 0)
}

// wrapCompound wraps the compound statements of u.Stmts[from:to] (to
// omitted: to the end).
func wrapCompound(u *Unit, from int, to ...int) {
	end := len(u.Stmts)
	if len(to) > 0 {
		end = to[0]
	}
	for i := from; i < end; i++ {
		st := u.Stmts[i]
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

// gotoSpan returns the range of top-level statements that gotos among the
// cell's statements (outside function literals) jump within.
func gotoSpan(list []ast.Stmt) (lo, hi int, ok bool) {
	labels := map[string]int{}
	for i, st := range list {
		if l, isLabel := st.(*ast.LabeledStmt); isLabel {
			labels[l.Label.Name] = i
		}
	}
	lo, hi = len(list), -1
	for i, st := range list {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if x.Tok != token.GOTO || x.Label == nil {
					return true
				}
				if at, found := labels[x.Label.Name]; found {
					lo, hi = min(lo, at, i), max(hi, at, i)
				}
			}
			return true
		})
	}
	return lo, hi, hi >= 0
}
