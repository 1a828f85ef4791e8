package session

import (
	"go/ast"
	"go/token"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// What a cell leaves behind (issue 17). A session runs for days and tens of
// thousands of cells; a cell that defines nothing should leave nothing.
// Measured with heap profiles of 10,000 `1+1` cells (kernel/app's
// TestTrivialCellsRetainNoMemory, docs/benchmarks.md), three holders kept
// about 5 kB per cell, and a top-level statement's temporaries stayed live
// for the rest of the session:
//
//   - yaegi appends the root of every tree it compiles to
//     Interpreter.roots, and every block scope to its package scope's child
//     list, for its debugger (which tick does not use); nothing else reads
//     them. The nodes of a value probe (about 4 kB) stayed reachable
//     forever. yaegiprivate.Release empties both after every compile: what
//     the session still uses (functions, types, variables, closures) is
//     reachable through its symbols and values; the rest is collected.
//   - the temporaries of a statement compiled at top level live in yaegi's
//     global frame, one slot each, never reused: `fmt.Print(strings.Repeat(
//     "y", 300<<20))` kept its 300 MB string live after the cell. The
//     session runs each run of top-level statements that define no names
//     (and the value probe) as the body of a declared function, ᐩtop,
//     called at once: the temporaries live in the call's frame, which is
//     garbage when the call returns, and the cell takes no global slot.
//   - every cell added two files (its declarations and its statements) to
//     the interpreter's token.FileSet. A cell whose code leaves no node
//     behind (no declarations, definitions, function literals, go or defer
//     statements) has them removed when it ends without an error: nothing
//     can ask for a position in it any more.

// leavesNothing reports whether the parsed cell's code can leave no
// compiled node behind once it has run: no declarations, no names
// defined, no function literals, no go or defer statements.
func leavesNothing(pc *cell.Parsed) bool {
	if pc.Decls != nil {
		return false
	}
	ok := true
	for _, n := range pc.Nodes() {
		if st, isStmt := n.(ast.Stmt); isStmt && defines(st) {
			return false
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt, *ast.DeclStmt:
				ok = false
			}
			return ok
		})
	}
	return ok
}

// filesFrom returns the files of fset added since its Base was base.
func filesFrom(fset *token.FileSet, base int) []*token.File {
	var files []*token.File
	for p := base; p < fset.Base(); {
		f := fset.File(token.Pos(p))
		if f == nil {
			break
		}
		files = append(files, f)
		p = f.Base() + f.Size() + 1
	}
	return files
}

// dropFiles removes from fset the files added since its Base was base.
func dropFiles(fset *token.FileSet, base int) {
	for _, f := range filesFrom(fset, base) {
		fset.RemoveFile(f)
	}
}
