package session

import (
	"reflect"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// A cell's own defers (rewrite pass top-level-defer) run at the end of
// their cell, last first, as if the cell were a function body: the rewrite
// registers each with ᐩrt.Defer, and runDeferred calls them when the
// cell's code has run, panicked or been interrupted. A deferred function
// literal's recover() is ᐩrt.Recover(): it returns the cell's panic value
// and ends the panic, so the cell ends without an error.

// cellDefers is the state of the running cell's defers.
type cellDefers struct {
	fns       []func()
	panicking bool // the cell's code panicked (recoverable)
	value     any  // its panic value, until recovered
	recovered bool
}

// deferSymbols returns ᐩrt.Defer and ᐩrt.Recover, and ᐩrt.Call, which
// calls the func() in its argument (pass func-defer defers it; an any,
// so that the interpreter passes the closure made at the defer).
func (s *Session) deferSymbols() map[string]reflect.Value {
	return map[string]reflect.Value{
		"Call": reflect.ValueOf(func(f any) { f.(func())() }),
		"Defer": reflect.ValueOf(func(f func()) {
			s.mu.Lock()
			s.defers.fns = append(s.defers.fns, f)
			s.mu.Unlock()
		}),
		"Recover": reflect.ValueOf(func() any {
			s.mu.Lock()
			defer s.mu.Unlock()
			d := &s.defers
			if !d.panicking || d.recovered {
				return nil
			}
			d.recovered = true
			return plainValue(d.value)
		}),
	}
}

// notePanic records the raw panic value of the running cell's code, for
// Recover.
func (s *Session) notePanic(v any) {
	switch v.(type) {
	case interruptSignal, depthSignal:
		return // not recoverable: the session's own signals
	}
	s.mu.Lock()
	if !s.defers.panicking {
		s.defers.panicking, s.defers.value = true, v
	}
	s.mu.Unlock()
}

// runDeferred calls the cell's deferred functions, last first, and returns
// the cell's result: without the error when a deferred function recovered
// the panic, with a deferred function's own panic when it panicked.
func (s *Session) runDeferred(c cell.Cell, res Result) Result {
	s.mu.Lock()
	fns := s.defers.fns
	s.mu.Unlock()
	if len(fns) == 0 {
		s.resetDefers()
		return res
	}
	// an interrupt has done its work; the deferred calls run (a new
	// interrupt stops them)
	s.clearStop()
	for i := len(fns) - 1; i >= 0; i-- {
		if e := s.callDeferred(c, fns[i]); e != nil {
			res = Result{Err: e}
		}
	}
	s.mu.Lock()
	recovered := s.defers.recovered
	s.mu.Unlock()
	if recovered && res.Err != nil && res.Err.Name != cell.Interrupted {
		res = Result{}
	}
	s.resetDefers()
	return res
}

func (s *Session) callDeferred(c cell.Cell, f func()) (e *Error) {
	defer func() {
		if r := recover(); r != nil {
			s.notePanic(r)
			e = s.panicError(c, interp.Panic{Value: r})
		}
	}()
	f()
	return nil
}

func (s *Session) resetDefers() {
	s.mu.Lock()
	s.defers = cellDefers{}
	s.mu.Unlock()
}

// plainValue unwraps a panic value the interpreter carries as a
// reflect.Value (a value of a type declared in a cell).
func plainValue(v any) any {
	if rv, ok := v.(reflect.Value); ok && rv.IsValid() && rv.CanInterface() {
		return rv.Interface()
	}
	return v
}
