package session

import (
	"reflect"
)

// The session's global variables and constants, as the rewrites (the
// names of integer and channel variables), diagnose (scope) and the
// timing magics (interpretedFuncs, eval.go) see them.

// globals returns the session's global variables and constants. yaegi's
// Globals panics after a failed compile left a symbol without storage;
// then it reports nothing.
func (vm *vm) globals() (g map[string]reflect.Value) {
	defer func() {
		if recover() != nil {
			g = nil
		}
	}()
	return vm.ip.Globals()
}

// knownIntsAndChans returns the names of the session's globals of an
// integer type (knownInts) and of a channel type, for the rewrite passes
// range-int and recv-expr (`for v := range c` over a channel).
func (vm *vm) knownIntsAndChans() (ints, chans map[string]bool) {
	ints, chans = map[string]bool{}, map[string]bool{}
	for name, v := range vm.globals() {
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
func (vm *vm) knownInts() map[string]bool {
	ints, _ := vm.knownIntsAndChans()
	return ints
}

// scope is the session as diagnose reads it.
type scope struct{ s *Session }

func (c scope) Globals() map[string]reflect.Value { return c.s.vm.globals() }

func (c scope) Symbols(name string) map[string]reflect.Value { return c.s.vm.packageSymbols(name) }
