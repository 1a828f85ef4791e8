package rewrite

import "go/ast"

// loopCheckpoints (pass loop-checkpoints) starts the body of every loop
// with an interrupt checkpoint, `if *ᐩrt.Stop { ᐩrt.Interrupted() }`:
// reading the flag through the pointer costs a few ns per iteration; the
// call, which panics with the session's interrupt sentinel, happens only
// on interrupt. Loops the harness generated get none.
func loopCheckpoints(u *Unit) {
	u.lists(func(list []ast.Stmt) {
		for _, st := range list {
			switch x := loopOf(st).(type) {
			case *ast.ForStmt:
				if !u.generated[x] {
					prepend(x.Body, x.Body.Lbrace, u.checkpoint())
				}
			case *ast.RangeStmt:
				if !u.generated[x] {
					prepend(x.Body, x.Body.Lbrace, u.checkpoint())
				}
			}
		}
	})
}

// checkpoint returns one loop checkpoint (see Options.CheckpointCall).
func (u *Unit) checkpoint() ast.Stmt {
	if u.call {
		return &ast.ExprStmt{X: rtCall("Interrupted")}
	}
	return &ast.IfStmt{
		Cond: &ast.StarExpr{X: &ast.SelectorExpr{X: ident(Runtime), Sel: ident("Stop")}},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: rtCall("Interrupted")}}},
	}
}
