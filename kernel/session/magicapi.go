package session

import (
	"fmt"
	"go/ast"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// This file holds the session methods magics use to run Go in the
// session's scope. Call them from a magic's Run (the cell's execution is
// in progress) or when no cell runs; they do not take the cell lock.

// varsPath is the import path of the package through which SetVar binds Go
// values; it is imported as varsName when the session starts.
const (
	varsPath = "tick/kernel/session/vars"
	varsName = "ᐩvars"
)

// Exec runs Go code (declarations and statements) in the session, as the
// running cell. The error is an *Error.
func (s *Session) Exec(code string) error {
	if res := s.run(code, s.cellCount()); res.Err != nil {
		return res.Err
	}
	return nil
}

// Eval evaluates a Go expression in the session's scope and returns its
// value. The error is an *Error (a compile error, a panic, or an
// expression without a single value).
func (s *Session) Eval(expr string) (reflect.Value, error) {
	count := s.cellCount()
	pc, err := parseCell(s.ip.FileSet(), expr)
	if err != nil {
		return reflect.Value{}, compileError(err, count)
	}
	if pc.value == nil || pc.decls != nil || len(pc.stmts) > 0 {
		msg := fmt.Sprintf("%q is not a single Go expression", expr)
		return reflect.Value{}, &Error{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
	}
	rewriteCell(pc, s.knownInts())
	s.mu.Lock()
	saved := s.values
	s.values = nil
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.values = saved
		s.mu.Unlock()
	}()
	if e := s.runNode(block([]ast.Stmt{valueProbe(pc.value)}), count); e != nil {
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
func (s *Session) SetVar(name string, v any) error {
	if !isIdent(name) {
		return fmt.Errorf("session: SetVar: %q is not a Go identifier", name)
	}
	if v == nil {
		return fmt.Errorf("session: SetVar %s: nil has no type; bind a typed value", name)
	}
	s.mu.Lock()
	s.nvars++
	key := fmt.Sprintf("V%d", s.nvars)
	s.mu.Unlock()
	cell := reflect.New(reflect.TypeOf(v)).Elem()
	cell.Set(reflect.ValueOf(v))
	if err := s.ip.Use(interp.Exports{varsPath + "/vars": {key: cell}}); err != nil {
		return fmt.Errorf("session: SetVar %s: %w", name, err)
	}
	return s.Exec(fmt.Sprintf("%s := %s.%s", name, varsName, key))
}

// CompileLoop compiles, once and in the session's scope, an interpreted
// func(n int) that runs setup once and then stmt n times in a loop, and
// returns a Go function that calls it. Errors in setup and stmt are
// reported at their place in the running magic's cell (at line 1 of the
// text itself when no magic runs). A panic (or an interrupt) in the
// loop is returned as an *Error. The loop itself has no interrupt
// checkpoint: the function's entry has one, as do loops inside stmt.
func (s *Session) CompileLoop(setup, stmt string) (func(n int) error, error) {
	s.mu.Lock()
	s.nvars++
	name := fmt.Sprintf("ᐩloop%d", s.nvars)
	s.mu.Unlock()
	// The directives put setup and stmt at their place in the running
	// magic's cell, so compile errors name the user's line and column. The
	// function's body starts at stmt too: yaegi reports a panic at the
	// start of the function it unwinds through.
	src := s.magicSource()
	code := fmt.Sprintf("%s := func(ᐩn int) %s{\n%s%s\nfor ᐩi := 0; ᐩi < ᐩn; ᐩi++ {\n%s%s\n}\n}",
		name, src.inlineDirective(stmt), src.directive(setup), setup, src.directive(stmt), stmt)
	if err := s.Exec(code); err != nil {
		return nil, err
	}
	v, err := s.globalValue(name)
	if err != nil {
		return nil, err
	}
	fn, ok := v.Interface().(func(int))
	if !ok {
		return nil, fmt.Errorf("session: CompileLoop: compiled %s is a %s, not a func(int)", name, v.Type())
	}
	count := s.cellCount()
	return func(n int) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = s.panicError(interp.Panic{Value: r}, count)
			}
		}()
		fn(n)
		return nil
	}, nil
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
