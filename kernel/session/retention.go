package session

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"unsafe"

	"github.com/traefik/yaegi/interp"

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

// framelessBlock is block(frameless(list)), positioned at list (yaegi
// takes the import scope of a compiled node from its position).
func framelessBlock(list []ast.Stmt) *ast.BlockStmt {
	return &ast.BlockStmt{Lbrace: list[0].Pos(), List: frameless(list), Rbrace: list[len(list)-1].End()}
}

// runTop compiles and runs top-level statements of c frameless.
func (s *Session) runTop(c cell.Cell, list []ast.Stmt) *Error {
	prog, err := s.compile(framelessBlock(list))
	if err != nil {
		return compileError(c, err)
	}
	return s.executeTop(c, prog)
}

// executeTop runs prog, compiled from a framelessBlock: a panic's
// traceback shows the frame of the function frameless made as the cell's
// top level.
func (s *Session) executeTop(c cell.Cell, prog *interp.Program) *Error {
	s.topLevel = true
	defer func() { s.topLevel = false }()
	return s.execute(c, prog)
}

// wrapperFrames turns, when the running code came from a framelessBlock,
// the frames yaegi printed for the function frameless made into the
// cell's top level: its body's frame ("3:1: panic: main.func(...)", the
// last frame of a function literal) reads as the top level's
// ("3:1: panic: main(...)"), and the top-level frames after it (the call
// of that function: "-: panic: ...", "1:5: panic: main(...)") go.
func (s *Session) wrapperFrames() {
	if !s.topLevel {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames = topLevelFrames(s.frames)
}

// topLevelFrames is wrapperFrames on a list of frames.
func topLevelFrames(frames []string) []string {
	for i := len(frames) - 1; i >= 0; i-- {
		m := yaegiFrame.FindStringSubmatch(frames[i])
		switch {
		case strings.HasPrefix(frames[i], "-:") || m != nil && m[2] == "main(...)":
			continue // a top-level frame
		case m != nil && m[2] == "main.func(...)":
			out := append(frames[:i:i], strings.TrimSuffix(frames[i], "main.func(...)")+"main(...)")
			return out
		}
		return frames
	}
	return frames
}

// frameless returns the statements with each run of consecutive
// statements that define no names moved into `func() { ... }()`, so that
// their temporaries do not take slots of the interpreter's global frame.
// Statements that define names (x := v, var, const, type) stay at top
// level, as do all of list when it holds a return, goto or label outside
// function literals (they would change meaning inside a function).
func frameless(list []ast.Stmt) []ast.Stmt {
	if len(list) == 0 || !wrappable(list) {
		return list
	}
	var out, run []ast.Stmt
	flush := func() {
		if len(run) > 0 {
			out = append(out, inCall(run))
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
	return out
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

// inCall returns `func() { list }()`. The function and the call have no
// position: a panic's traceback leaves out frames without one (the
// harness's, errors.go), so the cell's frames read as before.
func inCall(list []ast.Stmt) ast.Stmt {
	lit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: &ast.BlockStmt{List: list}}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: lit}}
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
