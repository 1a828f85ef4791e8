package rewrite

import (
	"fmt"
	"go/ast"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// TimedLoop returns the source of the timing magics' timed loop: the
// definition of name as an interpreted func(n int) that runs setup once,
// then stmt n times. Directives place setup at setupAt and stmt at stmtAt,
// so compile errors name the user's line and column; the function's body
// starts at stmt too, since yaegi reports a panic at the start of the
// function it unwinds through. After parsing it, pass TimedLoopNode's
// result in Options.Generated: the loop gets no checkpoint (the function's
// entry has one, as do loops inside stmt).
func TimedLoop(name, setup, stmt string, setupAt, stmtAt cell.Pos) string {
	return fmt.Sprintf("%s := func(ᐩn int) %s{\n%s%s\nfor ᐩi := 0; ᐩi < ᐩn; ᐩi++ {\n%s%s\n}\n}",
		name, stmtAt.Inline(), setupAt.Directive(), setup, stmtAt.Directive(), stmt)
}

// TimedLoopNode returns the loop of a parsed TimedLoop, or nil when p is
// not one.
func TimedLoopNode(p *cell.Parsed) ast.Node {
	if len(p.Stmts) != 1 {
		return nil
	}
	a, ok := p.Stmts[0].(*ast.AssignStmt)
	if !ok || len(a.Rhs) != 1 {
		return nil
	}
	lit, ok := a.Rhs[0].(*ast.FuncLit)
	if !ok || len(lit.Body.List) == 0 {
		return nil
	}
	loop, ok := lit.Body.List[len(lit.Body.List)-1].(*ast.ForStmt)
	if !ok {
		return nil
	}
	return loop
}
