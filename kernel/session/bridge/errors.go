package bridge

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/internal/yaegiprivate"
)

// This file makes errors of types declared in cells work with the errors
// package. The interpreter hands such an error to native code either
// wrapped (a struct whose first field, IValue, holds the value: it has
// the Error method) or, where the parameter is `any` (fmt.Errorf's
// operands), as the bare struct without methods. errors.As then panicked
// ("*target must be interface or implement error") and errors.Is could
// not compare; fmt.Errorf("%w", e) did not wrap.

// cellError is an error of a cell type that reached native code bare: it
// calls the type's Error method.
type cellError struct {
	v  reflect.Value
	ct *cellType
}

func (e cellError) Error() string {
	_, m, _ := e.ct.method(e.v.Kind() == reflect.Pointer)
	arg := e.v
	if arg.Kind() == reflect.Pointer && !m.ptr {
		arg = arg.Elem()
	}
	return m.fn(arg.Interface())
}

// asError returns x as an error when it is a bare value of a cell type
// with an Error method.
func (c *Types) asError(x any) (error, bool) {
	v := reflect.ValueOf(x)
	if !v.IsValid() {
		return nil, false
	}
	if yaegiprivate.IsValueInterface(v.Type()) {
		if v = yaegiprivate.InterfaceValue(v); !v.IsValid() {
			return nil, false
		}
	}
	t := v.Type()
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		if v.IsNil() {
			return nil, false
		}
		t = t.Elem()
	}
	ct := c.lookup(t)
	if ct == nil {
		return nil, false
	}
	if name, _, ok := ct.method(ptr); !ok || name != "Error" {
		return nil, false
	}
	return cellError{v: v, ct: ct}, true
}

// errorValue returns the value of a cell type inside err (an interpreter
// wrapper or a cellError), or an invalid Value. The interpreter's wrapper
// of a struct value (not a pointer) holds one of the struct's fields
// instead of the struct (its getConcreteValue): that value is lost.
func (c *Types) errorValue(err error) reflect.Value {
	if ce, ok := err.(cellError); ok {
		return ce.v
	}
	v := reflect.ValueOf(err)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct && v.Type().PkgPath() != "" && v.NumField() > 0 && v.Type().Field(0).Name == "IValue" {
		in := v.Field(0)
		for in.Kind() == reflect.Interface && !in.IsNil() {
			in = in.Elem()
		}
		if !in.IsValid() {
			return reflect.Value{}
		}
		t := in.Type()
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if c.known(t) {
			return in
		}
	}
	return reflect.Value{}
}

// lossy reports whether err is the interpreter's wrapper of a cell
// type's value that lost the value (errorValue).
func (c *Types) lossy(err error) bool {
	t := reflect.TypeOf(err)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.HasPrefix(t.PkgPath(), "github.com/traefik/yaegi/") && !c.errorValue(err).IsValid()
}

// lostValue is the panic of errors.As and errors.Is when the answer
// depends on a value the interpreter lost.
type lostValue struct{ fn string }

func (l lostValue) Error() string {
	return "errors." + l.fn + ": an error value of a struct type declared in a cell lost its value when the interpreter " +
		"converted it to error (a struct with an Error method on the value), so tick cannot tell whether it matches: " +
		"declare the method on the pointer (func (e *MyErr) Error() string) and use &MyErr{...} as the error, " +
		"or compare err.Error() text"
}

// walkErrors calls f for err and each error it wraps, in errors.As's
// order (depth first), until f returns true.
func walkErrors(err error, f func(error) bool) bool {
	for err != nil {
		if f(err) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if walkErrors(e, f) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// errorsAs is errors.As for cell code: a target of a cell type (or a
// pointer to one) matches the first error in err's tree holding a value of
// that type.
func (c *Types) errorsAs(err error, target any) bool {
	tv := reflect.ValueOf(target)
	if !tv.IsValid() || tv.Kind() != reflect.Pointer || tv.IsNil() {
		return errors.As(err, target) // panics as Go's does
	}
	tt := tv.Type().Elem()
	base := tt
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if !c.known(base) { // a cell type of the same shape as another is matched by its shape
		return errors.As(err, target)
	}
	lost := false
	found := walkErrors(err, func(e error) bool {
		if v := c.errorValue(e); v.IsValid() && v.Type() == tt {
			tv.Elem().Set(v)
			return true
		}
		lost = lost || c.lossy(e)
		return false
	})
	if !found && lost && tt.Kind() == reflect.Struct {
		panic(lostValue{"As"})
	}
	return found
}

// errorsIs is errors.Is for cell code: a target of a cell type matches an
// error in err's tree holding an equal value.
func (c *Types) errorsIs(err, target error) bool {
	tv := c.errorValue(target)
	if target != nil && c.lossy(target) {
		if walkErrors(err, c.lossy) {
			panic(lostValue{"Is"})
		}
		return errors.Is(err, target)
	}
	if !tv.IsValid() || !tv.Type().Comparable() {
		return errors.Is(err, target)
	}
	return walkErrors(err, func(e error) bool {
		if v := c.errorValue(e); v.IsValid() && v.Type() == tv.Type() && v.Interface() == tv.Interface() {
			return true
		}
		return false
	})
}

// assertError is x.(error) with the comma-ok for cell code (rewrite pass
// error-assert): a value of a struct type declared in a cell with an
// Error method is an error, as in Go (the interpreter gives it to native
// code without methods).
func (c *Types) assertError(x any) (error, bool) {
	if e, ok := x.(error); ok {
		return e, true
	}
	return c.asError(x)
}

// mustError is x.(error) for cell code: it panics as Go's assertion does.
func (c *Types) mustError(x any) error {
	if e, ok := c.assertError(x); ok {
		return e
	}
	if x == nil {
		panic(&assertionError{"interface conversion: interface is nil, not error"})
	}
	panic(&assertionError{fmt.Sprintf("interface conversion: %s is not error: missing method Error", c.typeName(reflect.TypeOf(x)))})
}

// assertionError is the panic of a failed x.(error), a runtime.Error as
// Go's.
type assertionError struct{ msg string }

func (e *assertionError) Error() string { return e.msg }

// RuntimeError marks it a runtime.Error.
func (e *assertionError) RuntimeError() {}

// errorsSymbols returns errors.As and errors.Is for cell code.
func (c *Types) errorsSymbols() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{"errors/errors": {
		"As": reflect.ValueOf(c.errorsAs),
		"Is": reflect.ValueOf(c.errorsIs),
	}}
}
