package session

import (
	"go/ast"

	"github.com/tick-kernel/tick/kernel/session/bridge"
	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/decls"
	"github.com/tick-kernel/tick/kernel/session/diagnose"
	"github.com/tick-kernel/tick/kernel/session/rewrite"
)

// The pipeline of a cell's Go: cell.Parse splits it into declarations,
// statements and the trailing expression; imports the cell uses without
// writing them are added (assist.go); checks (func main, imports, type
// redefinitions); rewrite.Apply runs the named passes; Parsed.Pieces
// orders declarations and statements; each piece is compiled and run by
// yaegi (vm.go), statements that define nothing inside a function
// (toplevel.go); the trailing expression's value is rendered (package
// bridge); the cell's defers run at its end (defer.go).

// run parses, rewrites, compiles and runs the Go code of c.
func (s *Session) run(c cell.Cell) Result { return s.runMarked(c, nil) }

// runMarked is run where generated returns the nodes of the parsed code
// that the harness wrote (rewrite.Options.Generated).
func (s *Session) runMarked(c cell.Cell, generated func(*cell.Parsed) []ast.Node) Result {
	s.rt.ResetDefers()
	return s.runDeferred(c, s.runParsed(c, generated))
}

// runParsed is runMarked without the cell's defers.
func (s *Session) runParsed(c cell.Cell, generated func(*cell.Parsed) []ast.Node) (res Result) {
	base := s.vm.ip.FileSet().Base()
	pc, err := cell.Parse(s.vm.ip.FileSet(), c)
	if err != nil {
		return Result{Err: diagnose.CompileError(c, err)}
	}
	s.vm.funcs.Add(pc) // names for runaway recursion (diagnose/recursion.go)
	if declaresMain(pc) {
		s.cmd.reset() // a program run again defines its flags again (args.go)
	}
	added := s.ins.addImports(pc, s.emit)
	if leavesNothing(pc) { // its files go when it ran without an error (retention.go)
		defer func() {
			if res.Err == nil {
				dropFiles(s.vm.ip.FileSet(), base)
			}
		}()
	}
	defer func() {
		if res.Err == nil || res.Err.Name != cell.CompileError {
			s.decls.NoteRan(c.Code + "\n" + added)
		}
	}()
	if e := s.importCompiled(pc); e != nil {
		return Result{Err: e}
	}
	if e := s.decls.DropReimports(pc); e != nil {
		return Result{Err: e}
	}
	types, e := s.decls.CheckTypeRedefs(pc)
	if e != nil {
		return Result{Err: e}
	}
	ints, chans := s.vm.knownIntsAndChans()
	opts := rewrite.Options{Ints: ints, Chans: chans, MethodSig: s.vm.methodSig, VarType: s.vm.varType, CheckpointCall: checkpointByCall, Dump: s.opts.RewriteDump, Imports: s.decls.Imports()}
	if generated != nil {
		opts.Generated = generated(pc)
	}
	redefined := s.decls.NoteFuncSources(pc, c.N)
	rewrite.Apply(pc, opts)
	for _, p := range pc.Pieces() {
		if p.File != nil {
			if e := s.vm.runNode(c, p.File); e != nil {
				return Result{Err: s.diag.Crash(e, pc)}
			}
			s.decls.NoteFuncs(p.File, c.N)
			s.decls.NoteDecls(p.File, pc.Fset)
			s.registerCellTypes(p.File)
			s.decls.NoteTypes(p.File, types)
			s.refreshCallers(decls.DeclaredIn(p.File, redefined))
			continue
		}
		if e := s.runTop(c, p.Stmts); e != nil {
			return Result{Err: s.diag.Crash(e, pc)}
		}
	}
	if pc.Value == nil {
		return Result{}
	}
	return s.runValue(c, pc.Value)
}

// runValue evaluates the cell's trailing expression and renders its value.
// When the expression has no value (a call of a function without results)
// it runs as a plain statement.
func (s *Session) runValue(c cell.Cell, x ast.Expr) Result {
	x = s.imageValue(x)
	decl, call := probeDecl(x) // in a declared function: retention.go
	prog, err := s.vm.compile(decl)
	if err == nil {
		if rich := s.richMethodsOf(x); len(rich) > 0 {
			decl, call = nil, block([]ast.Stmt{rewrite.ValueStmt(x, rich)})
		}
		if decl != nil {
			if e := s.vm.execute(c, prog); e != nil {
				return Result{Err: e}
			}
		}
		prog, err = s.vm.compile(call)
	}
	if err != nil {
		if e := s.runTop(c, []ast.Stmt{&ast.ExprStmt{X: x}}); e != nil {
			return Result{Err: e}
		}
		return Result{}
	}
	if e := s.vm.executeTop(c, prog); e != nil {
		return Result{Err: e}
	}
	s.mu.Lock()
	vals := s.values
	s.mu.Unlock()
	if len(vals) == 0 || !bridge.Echoed(vals[0]) {
		return Result{}
	}
	d := s.ct.Render(vals[0]) // may be nil: a nil error or untyped nil is shown as <nil>
	for _, rich := range vals[1:] {
		r := rich.([2]string)
		d.Bundle[r[0]] = r[1]
	}
	return Result{Value: d}
}

// richMethodsOf returns the rich-output methods (of bridge.RichMethods)
// that x's type has. Only types declared in cells need the compiled probe:
// methods of native types are found by reflection when rendering, so the
// probe runs only for method names some cell declared.
func (s *Session) richMethodsOf(x ast.Expr) []rewrite.RichMethod {
	var rich []rewrite.RichMethod
	for _, m := range bridge.RichMethods {
		if !s.decls.HasMethod(m.Method) {
			continue
		}
		if _, err := s.vm.compile(block([]ast.Stmt{rewrite.RichProbe(x, m.Method)})); err == nil {
			rich = append(rich, m)
		}
	}
	return rich
}

// block wraps statements in a block positioned at the first one: yaegi
// takes the import scope of a compiled node from its position.
func block(list []ast.Stmt) *ast.BlockStmt {
	return &ast.BlockStmt{Lbrace: list[0].Pos(), List: list, Rbrace: list[len(list)-1].End()}
}
