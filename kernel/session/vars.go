package session

import (
	"fmt"
	"go/constant"
	"reflect"
	"sort"
	"strings"
)

// Var is one session variable or constant, for %who and %whos.
type Var struct {
	// Name is the Go name; Type the type of its value as the interpreter
	// knows it (a type declared in a cell shows as its underlying type);
	// Value a short text of the value.
	Name, Type, Value string
}

// Vars returns the session's variables and constants that cells declared,
// sorted by name (the session's own helpers are left out).
func (e *Evaluator) Vars() []Var {
	var out []Var
	for name, v := range e.s.vm.globals() {
		if !isIdent(name) || name == "_" || !v.IsValid() {
			continue
		}
		typ := v.Type().String()
		if c, ok := constValue(v); ok {
			typ = "const (untyped " + strings.ToLower(c.Kind().String()) + ")"
		}
		out = append(out, Var{Name: name, Type: typ, Value: oneLine(valueText(v))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// constValue is the value of an untyped constant (the interpreter keeps
// them as go/constant values).
func constValue(v reflect.Value) (constant.Value, bool) {
	if !v.CanInterface() {
		return nil, false
	}
	c, ok := v.Interface().(constant.Value)
	return c, ok
}

// valueText is %v of v, never panicking on values the interpreter made.
func valueText(v reflect.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = "?"
		}
	}()
	if !v.CanInterface() {
		return "?"
	}
	return fmt.Sprintf("%v", v.Interface())
}

// oneLine shortens s to one line of at most 60 characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

// Interrupted reports whether an interrupt is pending for the running
// cell: magics that wait on something else than Go (a shell command) poll
// it.
func (e *Evaluator) Interrupted() bool { return e.s.Interrupted() }
