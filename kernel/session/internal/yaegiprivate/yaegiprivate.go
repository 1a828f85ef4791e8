// Package yaegiprivate is the one place tick reaches into unexported
// fields of yaegi (v0.16). Each field is found by name once, checked for
// the type this package needs, and named by a test
// (TestYaegiHasTheFields), so that a yaegi upgrade that renames or
// retypes one fails there, saying which:
//
//   - Interpreter.roots and the child list of a package's scope
//     (Interpreter.scopes, scope.child): the lists yaegi appends every
//     compiled tree and block scope to for its debugger, which tick does
//     not use. Release empties them, holding Interpreter.mutex as yaegi
//     does around Interpreter.scopes. Without them found, Release does
//     nothing (compiled code is then kept for the session's life).
//   - valueInterface.value: the value yaegi's representation of a value
//     of a non-empty interface type declared in a cell holds (fmt would
//     print the representation's internal fields). Without it,
//     InterfaceValue finds nothing.
package yaegiprivate

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// field is an unexported field found by name.
type field struct {
	offset uintptr
	typ    reflect.Type
}

// at is the field of the struct p points to.
func (f field) at(p unsafe.Pointer) reflect.Value {
	return reflect.NewAt(f.typ, unsafe.Add(p, f.offset)).Elem()
}

// lists locates what Release empties; ok is false when this yaegi lacks
// one of the fields.
var lists = func() (l struct {
	roots, scopes, mutex, child field
	ok                          bool
}) {
	t := reflect.TypeFor[interp.Interpreter]()
	roots, ok1 := t.FieldByName("roots")
	scopes, ok2 := t.FieldByName("scopes")
	mutex, ok3 := t.FieldByName("mutex")
	if !ok1 || !ok2 || !ok3 || roots.Type.Kind() != reflect.Slice || scopes.Type.Kind() != reflect.Map ||
		scopes.Type.Key().Kind() != reflect.String || scopes.Type.Elem().Kind() != reflect.Pointer ||
		mutex.Type != reflect.TypeFor[sync.RWMutex]() {
		return l
	}
	child, ok := scopes.Type.Elem().Elem().FieldByName("child")
	if !ok || child.Type.Kind() != reflect.Slice {
		return l
	}
	l.roots, l.scopes, l.mutex = field{roots.Offset, roots.Type}, field{scopes.Offset, scopes.Type}, field{mutex.Offset, mutex.Type}
	l.child, l.ok = field{child.Offset, child.Type}, true
	return l
}()

// Releases reports whether Release can empty this yaegi's lists: it has
// the fields, of the types Release needs.
func Releases() bool { return lists.ok }

// Release empties yaegi's debugger lists of ip (the roots of compiled
// trees, the block scopes of package main) so that compiled code nothing
// uses any more can be collected: what the session still uses
// (functions, types, variables, closures) is reachable through its
// symbols and values. Call it only where no compile runs (the session
// compiles under its cell lock): yaegi appends to the lists while
// compiling, without a lock.
func Release(ip *interp.Interpreter) {
	l := &lists
	if !l.ok {
		return
	}
	base := unsafe.Pointer(ip)
	mu := (*sync.RWMutex)(unsafe.Add(base, l.mutex.offset))
	mu.Lock()
	defer mu.Unlock()
	l.roots.at(base).SetZero()
	if sc := l.scopes.at(base).MapIndex(reflect.ValueOf("main")); sc.IsValid() && !sc.IsNil() {
		l.child.at(sc.UnsafePointer()).SetZero()
	}
}

// IsValueInterface reports whether t is yaegi's representation of a value
// of a non-empty interface type declared in a cell (valueInterface).
func IsValueInterface(t reflect.Type) bool {
	return t.Name() == "valueInterface" && t.PkgPath() == "github.com/traefik/yaegi/interp"
}

// InterfaceValue returns the value v, a valueInterface, holds (its field
// value), or an invalid Value.
func InterfaceValue(v reflect.Value) reflect.Value {
	f, ok := v.Type().FieldByName("value")
	if !ok || f.Type != reflect.TypeFor[reflect.Value]() {
		return reflect.Value{}
	}
	cp := reflect.New(v.Type()).Elem() // v may not be addressable
	cp.Set(v)
	return *(*reflect.Value)(unsafe.Pointer(cp.FieldByIndex(f.Index).UnsafeAddr()))
}
