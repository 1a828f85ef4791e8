package rt

import "reflect"

// A cell's own defers (rewrite pass top-level-defer) run at the end of
// their cell, last first, as if the cell were a function body: the rewrite
// registers each with ᐩrt.Defer, and the engine calls them (Deferred)
// when the cell's code has run, panicked or been interrupted. A deferred
// function literal's recover() is ᐩrt.Recover(): it returns the cell's
// panic value (NotePanic) and ends the panic, so the cell ends without an
// error (Recovered).

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
func (r *Runtime) deferSymbols() map[string]reflect.Value {
	return map[string]reflect.Value{
		"Call": reflect.ValueOf(func(f any) { f.(func())() }),
		"Defer": reflect.ValueOf(func(f func()) {
			r.mu.Lock()
			r.defers.fns = append(r.defers.fns, f)
			r.mu.Unlock()
		}),
		"Recover": reflect.ValueOf(func() any {
			r.mu.Lock()
			defer r.mu.Unlock()
			d := &r.defers
			if !d.panicking || d.recovered {
				return nil
			}
			d.recovered = true
			return PlainValue(d.value)
		}),
	}
}

// NotePanic records the raw panic value of the running cell's code, for
// Recover.
func (r *Runtime) NotePanic(v any) {
	switch v.(type) {
	case InterruptSignal, DepthSignal:
		return // not recoverable: the session's own signals
	}
	r.mu.Lock()
	if !r.defers.panicking {
		r.defers.panicking, r.defers.value = true, v
	}
	r.mu.Unlock()
}

// Deferred returns the functions the running cell deferred, in the order
// it deferred them.
func (r *Runtime) Deferred() []func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.defers.fns
}

// Recovered reports whether a deferred function recovered the cell's
// panic.
func (r *Runtime) Recovered() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.defers.recovered
}

// ResetDefers forgets the cell's defers and its panic.
func (r *Runtime) ResetDefers() {
	r.mu.Lock()
	r.defers = cellDefers{}
	r.mu.Unlock()
}

// PlainValue unwraps a panic value the interpreter carries as a
// reflect.Value (a value of a type declared in a cell).
func PlainValue(v any) any {
	if rv, ok := v.(reflect.Value); ok && rv.IsValid() && rv.CanInterface() {
		return rv.Interface()
	}
	return v
}
