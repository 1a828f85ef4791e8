package session

import (
	"fmt"
	"reflect"

	"github.com/tick-kernel/tick/kernel/session/bridge"
	"github.com/tick-kernel/tick/kernel/session/stdgo"
)

// knownIntsAndChans returns the names of the session's globals of an
// integer type (knownInts) and of a channel type, for the rewrite passes
// range-int and recv-expr (`for v := range c` over a channel).
func (s *Session) knownIntsAndChans() (ints, chans map[string]bool) {
	ints, chans = map[string]bool{}, map[string]bool{}
	for name, v := range s.globals() {
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			ints[name] = true
		case reflect.Chan:
			chans[name] = true
		}
	}
	return ints, chans
}

// knownInts returns the session's global variables of integer type.
func (s *Session) knownInts() map[string]bool {
	ints := map[string]bool{}
	for name, v := range s.globals() {
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			ints[name] = true
		}
	}
	return ints
}

// loadPrelude declares the helpers that bridge modern Go: the builtins
// yaegi lacks and the generic functions of the standard library (package
// stdgo).
func (s *Session) loadPrelude() error {
	if _, err := s.ip.Eval(stdgo.Source()); err != nil {
		return fmt.Errorf("session: loading the standard library's generic functions: %w", err)
	}
	if !s.importCellTypes() {
		return fmt.Errorf("session: importing the cell types package %s", bridge.Path)
	}
	return nil
}

// scope is the session as diagnose reads it.
type scope struct{ s *Session }

func (c scope) Globals() map[string]reflect.Value { return c.s.globals() }

func (c scope) Symbols(name string) map[string]reflect.Value { return c.s.packageSymbols(name) }

// globals returns the session's global variables and constants. yaegi's
// Globals panics after a failed compile left a symbol without storage;
// then it reports nothing.
func (s *Session) globals() (g map[string]reflect.Value) {
	defer func() {
		if recover() != nil {
			g = nil
		}
	}()
	return s.ip.Globals()
}
