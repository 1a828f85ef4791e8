package session

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"unsafe"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/rewrite"
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
//     forever. releaseCompiled empties both after every compile: what the
//     session still uses (functions, types, variables, closures) is
//     reachable through its symbols and values; the rest is collected.
//   - the temporaries of a statement compiled at top level live in yaegi's
//     global frame, one slot each, never reused: `fmt.Print(strings.Repeat(
//     "y", 300<<20))` kept its 300 MB string live after the cell. The
//     session runs each run of top-level statements that define no names
//     (and the value probe) inside `func() { ... }()`: the temporaries live
//     in the call's frame, which is garbage when the call returns.
//   - every cell added two files (its declarations and its statements) to
//     the interpreter's token.FileSet. A cell whose code leaves no node
//     behind (no declarations, definitions, function literals, go or defer
//     statements) has them removed when it ends without an error: nothing
//     can ask for a position in it any more.

// yaegiDebugLists locates the two lists releaseCompiled empties: the
// offsets of Interpreter.roots and Interpreter.scopes and the child list
// of a scope, found by name once. A yaegi without them (a newer version
// may rename them) makes ok false: the session then releases nothing and
// TestReleaseCompiledFindsYaegisLists fails, saying so.
var yaegiDebugLists = func() (l struct {
	roots, scopes         uintptr
	rootsType, scopesType reflect.Type
	child                 func(reflect.Value) reflect.Value
	ok                    bool
}) {
	t := reflect.TypeFor[interp.Interpreter]()
	roots, ok1 := t.FieldByName("roots")
	scopes, ok2 := t.FieldByName("scopes")
	if !ok1 || !ok2 || roots.Type.Kind() != reflect.Slice || scopes.Type.Kind() != reflect.Map ||
		scopes.Type.Key().Kind() != reflect.String || scopes.Type.Elem().Kind() != reflect.Pointer {
		return l
	}
	child, ok := scopes.Type.Elem().Elem().FieldByName("child")
	if !ok || child.Type.Kind() != reflect.Slice {
		return l
	}
	l.roots, l.scopes, l.rootsType, l.scopesType, l.ok = roots.Offset, scopes.Offset, roots.Type, scopes.Type, true
	l.child = func(sc reflect.Value) reflect.Value {
		return reflect.NewAt(child.Type, unsafe.Add(sc.UnsafePointer(), child.Offset)).Elem()
	}
	return l
}()

// releaseCompiled empties yaegi's debugger lists (the roots of compiled
// trees, the block scopes of package main) so that compiled code nothing
// uses any more can be collected. Call it only under the cell lock (every
// compile is made under it): yaegi appends to the lists while compiling.
func releaseCompiled(ip *interp.Interpreter) {
	l := &yaegiDebugLists
	if !l.ok {
		return
	}
	base := unsafe.Pointer(ip)
	reflect.NewAt(l.rootsType, unsafe.Add(base, l.roots)).Elem().SetZero()
	scopes := reflect.NewAt(l.scopesType, unsafe.Add(base, l.scopes)).Elem()
	if sc := scopes.MapIndex(reflect.ValueOf("main")); sc.IsValid() && !sc.IsNil() {
		l.child(sc).SetZero()
	}
}

// runTop compiles and runs top-level statements of c, a piece of the
// cell, part by part (framelessParts).
func (s *Session) runTop(c cell.Cell, list []ast.Stmt) *Error {
	for _, p := range framelessParts(frameless(list)) {
		prog, err := s.compile(p.block)
		if err != nil {
			return compileError(c, err)
		}
		run := s.execute
		if p.wrapped {
			run = s.executeTop
		}
		if e := run(c, prog); e != nil {
			return e
		}
	}
	return nil
}

// part is a block of top-level statements runTop compiles, positioned at
// its first (yaegi takes the import scope of a compiled node from its
// position): the call of a function frameless made, or the statements
// between two such calls.
type part struct {
	block   *ast.BlockStmt
	wrapped bool
}

// framelessParts cuts the statements frameless made into parts, each call
// of a function it made alone (so that a panic's frames are those of one
// such function: topLevelFrames).
func framelessParts(list []ast.Stmt, wrapped map[ast.Node]bool) []part {
	var parts []part
	var run []ast.Stmt
	for _, st := range list {
		if !wrapped[st] {
			run = append(run, st)
			continue
		}
		if len(run) > 0 {
			parts = append(parts, part{block: block(run)})
			run = nil
		}
		parts = append(parts, part{block: block([]ast.Stmt{st}), wrapped: true})
	}
	if len(run) > 0 {
		parts = append(parts, part{block: block(run)})
	}
	return parts
}

// framelessProbe is the value probe of x (rewrite.ValueProbe) in a
// function call, as frameless makes it; run it with executeTop.
func framelessProbe(x ast.Expr) ast.Node {
	return block([]ast.Stmt{inCall([]ast.Stmt{rewrite.ValueProbe(x)})})
}

// executeTop runs prog, compiled from a statement frameless made: a
// panic's traceback shows the function's frame as the cell's top level.
func (s *Session) executeTop(c cell.Cell, prog *interp.Program) *Error {
	s.topLevel = true
	defer func() { s.topLevel = false }()
	return s.execute(c, prog)
}

// wrapperFrames turns, while executeTop runs, the frames yaegi printed
// for the function frameless made into the cell's top level
// (topLevelFrames).
func (s *Session) wrapperFrames() {
	if !s.topLevel {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames = topLevelFrames(s.frames)
}

// topLevelFrames rewrites the frames of a panic that unwound through the
// function frameless made: yaegi prints two frames for it, its body's and
// its call's, both named main.func ("2:1: panic: main.func(...)"), the
// last two of the list. They become one top-level frame, as the statement
// printed before it was wrapped ("2:1: panic: main(...)").
func topLevelFrames(frames []string) []string {
	const lit, top = "main.func(...)", "main(...)"
	n := len(frames)
	if n == 0 || !strings.HasSuffix(frames[n-1], ": panic: "+lit) {
		return frames
	}
	if n >= 2 && strings.HasSuffix(frames[n-2], ": panic: "+lit) {
		n-- // the call's frame
	}
	return append(frames[:n-1:n-1], strings.TrimSuffix(frames[n-1], lit)+top)
}

// frameless returns the statements with each run of consecutive
// statements that define no names moved into `func() { ... }()` (the
// statements it made are in wrapped), so that their temporaries do not
// take slots of the interpreter's global frame, which keeps them for the
// rest of the session. Statements that define names (x := v, var, const,
// type) stay at top level, as does all of list when it holds a return,
// goto or label outside function literals (they would change meaning
// inside a function).
func frameless(list []ast.Stmt) (out []ast.Stmt, wrapped map[ast.Node]bool) {
	if len(list) == 0 || !wrappable(list) {
		return list, nil
	}
	wrapped = map[ast.Node]bool{}
	var run []ast.Stmt
	flush := func() {
		if len(run) > 0 {
			w := inCall(run)
			wrapped[w] = true
			out = append(out, w)
			run = nil
		}
	}
	for _, st := range list {
		if defines(st) {
			flush()
			out = append(out, st)
			continue
		}
		run = append(run, st)
	}
	flush()
	return out, wrapped
}

// defines reports whether st, a top-level statement, defines names.
func defines(st ast.Stmt) bool {
	switch x := st.(type) {
	case *ast.AssignStmt:
		return x.Tok == token.DEFINE
	case *ast.DeclStmt:
		return true
	}
	return false
}

// wrappable reports whether list has no return, goto or label outside
// function literals.
func wrappable(list []ast.Stmt) bool {
	ok := true
	for _, st := range list {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt, *ast.LabeledStmt:
				ok = false
			case *ast.BranchStmt:
				if x.Tok == token.GOTO {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// inCall returns `func() { list }()`, positioned at list's first
// statement (the position of a compiled node is its import scope).
func inCall(list []ast.Stmt) ast.Stmt {
	pos, end := list[0].Pos(), list[len(list)-1].End()
	lit := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: end}}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: lit, Lparen: end, Rparen: end}}
}

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
