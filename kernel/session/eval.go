package session

import (
	"fmt"
	"go/ast"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
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
// line 1, column 1.
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
	pc, err := cell.Parse(s.ip.FileSet(), c)
	if err != nil {
		return reflect.Value{}, compileError(c, err)
	}
	if pc.Value == nil || pc.Decls != nil || len(pc.Stmts) > 0 {
		return reflect.Value{}, cell.Errorf(cell.CompileError, "%q is not a single Go expression", expr)
	}
	rewrite.Apply(pc, rewrite.Options{Ints: s.knownInts(), CheckpointCall: checkpointByCall, Dump: s.opts.RewriteDump})
	s.mu.Lock()
	saved := s.values
	s.values = nil
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.values = saved
		s.mu.Unlock()
	}()
	if e := s.runNode(c, block([]ast.Stmt{rewrite.ValueProbe(pc.Value)})); e != nil {
		return reflect.Value{}, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.values) == 0 {
		return reflect.Value{}, fmt.Errorf("session: %q has no value", expr)
	}
	return reflect.ValueOf(s.values[0]), nil
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
	if err := e.s.ip.Use(interp.Exports{varsPath + "/vars": {key: box}}); err != nil {
		return fmt.Errorf("session: SetVar %s: %w", name, err)
	}
	return e.Exec(fmt.Sprintf("%s := %s.%s", name, varsName, key))
}

// CompileLoop compiles, once and in the session's scope, an interpreted
// func(n int) that runs setup once and then stmt n times in a loop
// (rewrite.TimedLoop), and returns a Go function that calls it. Errors in
// setup and stmt are reported at their place in the magic's cell. A panic
// (or an interrupt) in the loop is returned as an *Error. The loop itself
// has no interrupt checkpoint: the function's entry has one, as do loops
// inside stmt.
func (e *Evaluator) CompileLoop(setup, stmt string) (func(n int) error, error) {
	s := e.s
	name := fmt.Sprintf("ᐩloop%d", s.nextVar())
	code := rewrite.TimedLoop(name, setup, stmt, e.locate(setup), e.locate(stmt))
	timed := func(pc *cell.Parsed) []ast.Node {
		if loop := rewrite.TimedLoopNode(pc); loop != nil {
			return []ast.Node{loop}
		}
		return nil
	}
	if res := s.runMarked(cell.Cell{N: e.n, Code: code}, timed); res.Err != nil {
		return nil, res.Err
	}
	v, err := s.globalValue(name)
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
				err = s.panicError(c, interp.Panic{Value: r})
			}
		}()
		fn(n)
		return nil
	}, nil
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
func (s *Session) globalValue(name string) (reflect.Value, error) {
	v, ok := s.globals()[name]
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
