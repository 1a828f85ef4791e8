package session

import (
	"fmt"
	"go/ast"
	"reflect"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// This file finds the declared type of a session variable whose type a cell
// declared. The interpreter builds such a type's reflect type without its
// name or methods (a Point is a struct { X int; Y int }), so completion and
// inspection ask the compiler instead: x has method M when
// `func() { _ = x.M }()` compiles, and is of cell type T when
// `func(T) {}(x)` compiles and T's methods are x's.

// varType is a variable's cell-declared type: its name and whether the
// variable holds a pointer to it.
type varType struct {
	name string
	ptr  bool
}

// String writes the type as Go does: "Point" or "*Point".
func (t varType) String() string {
	if t.ptr {
		return "*" + t.name
	}
	return t.name
}

// typeOfVar returns the cell-declared type of global variable x, when it
// is known.
func (ins *inspector) typeOfVar(x string) (varType, bool) {
	vt, ok, _ := ins.probeVar(x)
	return vt, ok
}

// probeVar finds out, by compiling probes, which methods declared in cells
// global variable x has, and its cell-declared type: the type x is
// assignable to whose methods are exactly those (the interpreter's
// assignability is structural, so methods tell same-shaped types apart).
// When two candidates are equally good the type is unknown. It runs only
// while no cell runs, and never waits for one: completion must answer at
// once.
func (ins *inspector) probeVar(x string) (vt varType, ok bool, methods []string) {
	if _, ok := ins.vm.globals()[x]; !ok {
		return varType{}, false, nil
	}
	_, isDecl := ins.decls.Decl(x)
	types := ins.decls.ProbeTypes()
	if isDecl || len(types) == 0 || !ins.exec.TryLock() { // a constant or function, not a variable
		return varType{}, false, nil
	}
	defer ins.exec.Unlock()
	allMethods := ins.decls.MethodNames()
	var code strings.Builder
	for _, m := range allMethods {
		fmt.Fprintf(&code, "func() { _ = %s.%s }()\n", x, m)
	}
	var probes []varType
	for _, t := range types {
		for _, ptr := range []bool{false, true} {
			probes = append(probes, varType{t, ptr})
			fmt.Fprintf(&code, "func(%s) {}(%s)\n", probes[len(probes)-1], x)
		}
	}
	compiles := ins.compileProbes(code.String(), len(allMethods)+len(probes))
	if compiles == nil {
		return varType{}, false, nil
	}
	has := map[string]bool{}
	for i, m := range allMethods {
		if compiles[i] {
			has[m] = true
			methods = append(methods, m)
		}
	}
	best, tie := -1, false
	for i, p := range probes {
		if !compiles[len(allMethods)+i] {
			continue
		}
		own := ins.decls.MethodsOf(p.name)
		if !allIn(own, has) {
			continue
		}
		switch {
		case best < 0 || len(own) > len(ins.decls.MethodsOf(probes[best].name)):
			best, tie = i, false
		case len(own) == len(ins.decls.MethodsOf(probes[best].name)):
			tie = true
		}
	}
	if best < 0 || tie {
		return varType{}, false, methods
	}
	return probes[best], true, methods
}

// compileProbes compiles each line of code (expression statements) on its
// own and reports which compiled; nil when code does not parse into n.
func (ins *inspector) compileProbes(code string, n int) []bool {
	pc, err := cell.Parse(ins.vm.ip.FileSet(), cell.Cell{Code: code})
	if err != nil {
		return nil
	}
	stmts := pc.Stmts
	if pc.Value != nil {
		stmts = append(stmts, &ast.ExprStmt{X: pc.Value})
	}
	if len(stmts) != n {
		return nil
	}
	ok := make([]bool, n)
	for i, st := range stmts {
		_, err := ins.vm.compile(block([]ast.Stmt{st}))
		ok[i] = err == nil
	}
	return ok
}

func allIn(names []string, set map[string]bool) bool {
	for _, n := range names {
		if !set[n] {
			return false
		}
	}
	return true
}

// inspectVarMember describes member name of session variable x: a method
// its cell-declared type has, or a field.
func (ins *inspector) inspectVarMember(x, name string) string {
	v, ok := ins.vm.globals()[x]
	if !ok || !v.IsValid() {
		return ""
	}
	if vt, ok := ins.typeOfVar(x); ok {
		if text, ok := ins.decls.Decl(vt.name + "." + name); ok {
			return fmt.Sprintf("%s\n(method of %s, the type of %s)", text, vt.name, x)
		}
	}
	t := v.Type()
	if m, ok := t.MethodByName(name); ok {
		return fmt.Sprintf("%s.%s: %s", x, name, strings.Replace(m.Type.String(), "func("+t.String()+", ", "func(", 1))
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		if f, ok := t.FieldByName(name); ok {
			return fmt.Sprintf("%s.%s %s (field)", x, name, f.Type)
		}
	}
	return ""
}

// describeVar describes session variable name holding v, naming its
// cell-declared type when it has one.
func (ins *inspector) describeVar(name string, v reflect.Value) string {
	typ, val := v.Type().String(), short(fmt.Sprintf("%#v", v))
	if vt, ok := ins.typeOfVar(name); ok {
		// The value's text starts with the interpreter's unnamed type.
		val = strings.Replace(val, typ, vt.String(), 1)
		if vt.ptr {
			val = strings.Replace(val, v.Type().Elem().String(), vt.name, 1)
		}
		typ = vt.String()
	}
	return fmt.Sprintf("%s %s = %s", name, typ, val)
}
