package session

import (
	"fmt"
	"go/ast"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/diagnose"
	"github.com/tick-kernel/tick/kernel/session/rewrite"
)

// This file holds what magics use to run Go in the session's scope: an
// Evaluator (Run.Evaluator gives a magic one), and the same methods on the
// Session for code that runs while no magic does. Call them from a magic
// (the cell's execution is in progress) or when no cell runs; they do not
// take the cell lock.

// varsPath is the import path of the package through which SetVar binds Go
// values; it is imported as varsName when the session starts.
const (
	varsPath = "tick/kernel/session/vars"
	varsName = "ᐩvars"
)

// Evaluator runs Go in the session's scope on behalf of a magic: the code
// counts as the magic's cell, and CompileLoop places the code it compiles
// at the magic's text in the cell. It implements kernel/magic's Evaluator.
type Evaluator struct {
	s   *Session
	n   int           // the cell's number
	seg *cell.Segment // the magic; nil: code placed at its own line 1
}

// evaluator is the evaluator of code run outside any magic, as the last cell.
func (s *Session) evaluator() *Evaluator { return &Evaluator{s: s, n: s.cellCount()} }

// Exec runs Go code (declarations and statements) in the session, as the
// running cell. The error is an *Error.
func (s *Session) Exec(code string) error { return s.evaluator().Exec(code) }

// Eval evaluates a Go expression in the session's scope and returns its
// value. The error is an *Error (a compile error, a panic, or an
// expression without a single value).
func (s *Session) Eval(expr string) (reflect.Value, error) { return s.evaluator().Eval(expr) }

// SetVar binds a Go value to the session variable name (declaring it, or
// redeclaring it with v's type). Cells then use name with v's static type.
func (s *Session) SetVar(name string, v any) error { return s.evaluator().SetVar(name, v) }

// CompileLoop is Evaluator.CompileLoop with the code placed at its own
// line 1, column 1 (for tests and benchmarks).
func (s *Session) CompileLoop(setup, stmt string) (func(n int) error, error) {
	return s.evaluator().CompileLoop(setup, stmt)
}

// Exec runs Go code (declarations and statements) in the session, as the
// magic's cell. The error is an *Error.
func (e *Evaluator) Exec(code string) error {
	if res := e.s.run(cell.Cell{N: e.n, Code: code}); res.Err != nil {
		return res.Err
	}
	return nil
}

// Eval evaluates a Go expression in the session's scope and returns its
// value. The error is an *Error (a compile error, a panic, or an
// expression without a single value).
func (e *Evaluator) Eval(expr string) (reflect.Value, error) {
	s, c := e.s, cell.Cell{N: e.n, Code: expr}
	pc, err := cell.Parse(s.vm.ip.FileSet(), c)
	if err != nil {
		return reflect.Value{}, diagnose.CompileError(c, err)
	}
	if pc.Value == nil || pc.Decls != nil || len(pc.Stmts) > 0 {
		return reflect.Value{}, cell.Errorf(cell.CompileError, "%q is not a single Go expression", expr)
	}
	// Imports: the expression calls tick's generic slices, maps and cmp as
	// a cell does (a --check 'slices.IsSorted(s)' was an undefined selector)
	rewrite.Apply(pc, rewrite.Options{Ints: s.vm.knownInts(), CheckpointCall: checkpointByCall, Dump: s.opts.RewriteDump, Imports: s.decls.Imports()})
	s.mu.Lock()
	saved := s.values
	s.values = nil
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.values = saved
		s.mu.Unlock()
	}()
	if e := s.vm.runNode(c, block([]ast.Stmt{rewrite.ValueProbe(pc.Value)})); e != nil {
		return reflect.Value{}, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.values) == 0 {
		return reflect.Value{}, fmt.Errorf("session: %q has no value", expr)
	}
	return reflect.ValueOf(s.values[0]), nil
}

// Values returns the values of the session variables names (an invalid
// Value for a name that is no variable), read from the interpreter's
// globals in one call: no code is compiled or run.
func (e *Evaluator) Values(names []string) []reflect.Value {
	g := e.s.vm.globals()
	out := make([]reflect.Value, len(names))
	for i, name := range names {
		out[i] = g[name]
	}
	return out
}

// SetVar binds a Go value to the session variable name (declaring it, or
// redeclaring it with v's type). Cells then use name with v's static type.
func (e *Evaluator) SetVar(name string, v any) error {
	if !isIdent(name) {
		return fmt.Errorf("session: SetVar: %q is not a Go identifier", name)
	}
	if v == nil {
		return fmt.Errorf("session: SetVar %s: nil has no type; bind a typed value", name)
	}
	key := fmt.Sprintf("V%d", e.s.nextVar())
	box := reflect.New(reflect.TypeOf(v)).Elem()
	box.Set(reflect.ValueOf(v))
	if err := e.s.vm.ip.Use(interp.Exports{varsPath + "/vars": {key: box}}); err != nil {
		return fmt.Errorf("session: SetVar %s: %w", name, err)
	}
	return e.Exec(fmt.Sprintf("%s := %s.%s", name, varsName, key))
}

// Timed is a statement compiled for timing (Evaluator.CompileTimed).
type Timed struct {
	// Loop runs setup once, then the statement n times. A panic (or an
	// interrupt) in it is returned as an *Error. The loop itself has no
	// interrupt checkpoint: the function's entry has one, as do loops
	// inside the statement.
	Loop func(n int) error
	// Floor is the same loop around an empty statement, after the same
	// setup: what the harness itself costs per loop.
	Floor func(n int) error
	// Interpreted names the functions the statement calls by name that
	// run as interpreted Go: functions cells declared, and variables
	// holding interpreted closures (IsInterpreted), in the order the
	// statement names them.
	Interpreted []string
}

// quietWait bounds how long CompileTimed waits for the assistant's
// background work (loading packages at a kernel's start takes a few
// seconds of CPU, more on a busy machine).
const quietWait = 20 * time.Second

// CompileTimed compiles stmt for timing, once and in the session's scope:
// an interpreted func(n int) that runs setup once and then stmt n times
// (rewrite.TimedLoop), the same around an empty statement (the floor),
// and which functions stmt calls run interpreted. Errors in setup and
// stmt are reported at their place in the magic's cell. It is one call,
// whatever the statement: a magic needs nothing else of the engine to
// time it.
func (e *Evaluator) CompileTimed(setup, stmt string) (Timed, error) {
	// The measurement that follows would share the CPUs and the heap with
	// the assistant's background type-checking (assist.WaitIdle).
	e.s.ins.asst.WaitIdle(quietWait, e.Interrupted)
	var names []string
	loop, err := e.compileLoop(setup, stmt, &names)
	if err != nil {
		return Timed{}, err
	}
	floor, err := e.compileLoop(setup, "", nil)
	if err != nil {
		return Timed{}, fmt.Errorf("session: compiling the empty statement for the floor: %w", err)
	}
	return Timed{Loop: loop, Floor: floor, Interpreted: e.s.vm.interpretedFuncs(names)}, nil
}

// CompileLoop is CompileTimed's Loop alone.
func (e *Evaluator) CompileLoop(setup, stmt string) (func(n int) error, error) {
	return e.compileLoop(setup, stmt, nil)
}

// compileLoop compiles the timed loop of setup and stmt (rewrite.TimedLoop)
// and returns a Go function that calls it. When names is not nil, it
// receives the identifiers stmt names (not those after a '.').
func (e *Evaluator) compileLoop(setup, stmt string, names *[]string) (func(n int) error, error) {
	s := e.s
	name := fmt.Sprintf("ᐩloop%d", s.nextVar())
	code := rewrite.TimedLoop(name, setup, stmt, e.locate(setup), e.locate(stmt))
	timed := func(pc *cell.Parsed) []ast.Node {
		loop := rewrite.TimedLoopNode(pc)
		if loop == nil {
			return nil
		}
		if names != nil {
			*names = identifiers(loop.(*ast.ForStmt).Body)
		}
		return []ast.Node{loop}
	}
	if res := s.runMarked(cell.Cell{N: e.n, Code: code}, timed); res.Err != nil {
		return nil, res.Err
	}
	v, err := s.vm.globalValue(name)
	if err != nil {
		return nil, err
	}
	fn, ok := v.Interface().(func(int))
	if !ok {
		return nil, fmt.Errorf("session: CompileLoop: compiled %s is a %s, not a func(int)", name, v.Type())
	}
	c := cell.Cell{N: e.n, Code: code}
	return func(n int) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = s.vm.panicError(c, interp.Panic{Value: r})
			}
		}()
		fn(n)
		return nil
	}, nil
}

// identifiers returns the identifiers n names, in order, leaving out the
// selectors after a '.' (fields, methods, package members).
func identifiers(n ast.Node) []string {
	var out []string
	var visit func(ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(x.X, visit)
			return false
		case *ast.Ident:
			out = append(out, x.Name)
		}
		return true
	}
	ast.Inspect(n, visit)
	return out
}

// interpretedFuncs returns those of names (once each, in order) that name
// a function a cell declared, or a global variable holding an
// interpreted function.
func (vm *vm) interpretedFuncs(names []string) []string {
	g := vm.globals()
	vm.mu.Lock()
	defer vm.mu.Unlock()
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		_, declared := vm.decls.FuncCell(n)
		v := g[n]
		if v.IsValid() && v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		if declared || v.IsValid() && v.Kind() == reflect.Func && !v.IsNil() && IsInterpreted(v) {
			out = append(out, n)
		}
	}
	return out
}

// IsInterpreted reports whether fn, a func value, runs as interpreted Go:
// the interpreter's functions are reflect.MakeFunc closures of yaegi.
func IsInterpreted(fn reflect.Value) bool {
	f := runtime.FuncForPC(fn.Pointer())
	return f != nil && (strings.HasPrefix(f.Name(), "github.com/traefik/yaegi/") || strings.HasPrefix(f.Name(), "reflect."))
}

// locate is where text, code of the magic, is in the cell (line 1,
// column 1 when no magic runs).
func (e *Evaluator) locate(text string) cell.Pos {
	if e.seg == nil {
		return cell.Pos{Cell: e.n, Line: 1, Col: 1}
	}
	return e.seg.Locate(text)
}

// globalValue returns the value of a session global variable.
func (vm *vm) globalValue(name string) (reflect.Value, error) {
	v, ok := vm.globals()[name]
	if !ok || !v.IsValid() {
		return reflect.Value{}, fmt.Errorf("session: no session variable %s", name)
	}
	return v, nil
}

func (s *Session) cellCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// nextVar returns a new number for the names SetVar and CompileLoop make.
func (s *Session) nextVar() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nvars++
	return s.nvars
}

func isIdent(name string) bool {
	if name == "" || strings.HasPrefix(name, "ᐩ") {
		return false
	}
	for i, r := range name {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80 || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// Use registers compiled packages' yaegi symbol tables ("path/name"
// keys), so that Go the magic runs next can import them (%%go).
func (e *Evaluator) Use(tables map[string]map[string]reflect.Value) error {
	return e.s.registerSymbols(tables)
}

// Locate is where text, code of the magic, is in the cell (the start of a
// cell magic's body for its body).
func (e *Evaluator) Locate(text string) cell.Pos { return e.locate(text) }
