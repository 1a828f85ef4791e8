package session

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

var goKeywords = []string{"break", "case", "chan", "const", "continue", "default", "defer", "else",
	"fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
	"return", "select", "struct", "switch", "type", "var"}

var goBuiltins = []string{"append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len",
	"make", "max", "min", "new", "panic", "print", "println", "real", "recover",
	"any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64",
	"int", "int8", "int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32",
	"uint64", "uintptr", "true", "false", "iota", "nil"}

// completeByValue returns the names that can replace the identifier
// before cursor (a byte offset) as the session knows them by reflection:
// members after "pkg." or "variable.", else names in scope, builtins and
// keywords. It answers for variables the assistant has no source for.
func (ins *inspector) completeByValue(code string, cursor int) Completion {
	cursor = max(0, min(cursor, len(code)))
	start := cell.IdentBefore(code, cursor)
	prefix := code[start:cursor]
	var names []string
	if start > 0 && code[start-1] == '.' {
		names = ins.members(code[cell.IdentBefore(code, start-1) : start-1])
	} else {
		names = ins.scopeNames()
	}
	seen := map[string]bool{}
	matches := []string{}
	for _, n := range names {
		if strings.HasPrefix(n, prefix) && !seen[n] && !strings.Contains(n, "ᐩ") {
			seen[n] = true
			matches = append(matches, n)
		}
	}
	sort.Strings(matches)
	return Completion{Matches: matches, Start: start, End: cursor}
}

// scopeNames lists the names visible at the top level of a cell.
func (ins *inspector) scopeNames() []string {
	names := append(append([]string{}, goKeywords...), goBuiltins...)
	for n := range ins.vm.globals() {
		names = append(names, n)
	}
	return append(names, ins.decls.Names()...)
}

// members lists the members of an imported package or the fields and
// methods of a session variable.
func (ins *inspector) members(x string) []string {
	var names []string
	if syms := ins.vm.packageSymbols(x); syms != nil {
		for n := range syms {
			names = append(names, n)
		}
		return names
	}
	v, ok := ins.vm.globals()[x]
	if !ok || !v.IsValid() {
		return nil
	}
	_, _, methods := ins.probeVar(x)
	names = append(names, methods...)
	t := v.Type()
	for i := 0; i < t.NumMethod(); i++ {
		names = append(names, t.Method(i).Name)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		for i := 0; i < t.NumField(); i++ {
			names = append(names, t.Field(i).Name)
		}
	}
	return names
}

// packageSymbols returns the exported symbols of the package imported in
// the session under name, or nil.
func (vm *vm) packageSymbols(name string) map[string]reflect.Value {
	p, ok := vm.decls.Imported(name)
	if !ok {
		return nil
	}
	for _, syms := range vm.ip.Symbols(p) {
		return syms
	}
	return nil
}

// inspectByValue describes the name at cursor as the session knows it by
// reflection: the type and value of a variable, the declaration of a
// function, type or constant of the session, or the signature of a
// package member.
func (ins *inspector) inspectByValue(code string, cursor int, detail int) Inspection {
	cursor = max(0, min(cursor, len(code)))
	end := cell.IdentAfter(code, cursor)
	start := cell.IdentBefore(code, end)
	name := code[start:end]
	if name == "" {
		return Inspection{}
	}
	if start > 0 && code[start-1] == '.' {
		pkg := code[cell.IdentBefore(code, start-1) : start-1]
		text := ins.inspectMember(pkg, name)
		if text == "" {
			text = ins.inspectVarMember(pkg, name)
		}
		if text != "" {
			return Inspection{Found: true, Text: text}
		}
		return Inspection{}
	}
	if text := ins.inspectName(name, detail); text != "" {
		return Inspection{Found: true, Text: text}
	}
	return Inspection{}
}

func (ins *inspector) inspectMember(pkg, name string) string {
	syms := ins.vm.packageSymbols(pkg)
	if syms == nil {
		return ""
	}
	v, ok := syms[name]
	if !ok {
		return ""
	}
	p, _ := ins.decls.Imported(pkg)
	return fmt.Sprintf("%s.%s: %s\n(package %q)", pkg, name, describeSymbol(v), p)
}

// describeSymbol describes a yaegi symbol: types are given as a nil
// pointer, functions and variables as values.
func describeSymbol(v reflect.Value) string {
	switch {
	case !v.IsValid():
		return "?"
	case v.Kind() == reflect.Pointer && v.IsNil():
		t := v.Type().Elem()
		return fmt.Sprintf("type %s (%s)", t, t.Kind())
	case v.Kind() == reflect.Func:
		return v.Type().String()
	}
	if c, ok := v.Interface().(interface{ ExactString() string }); ok {
		return "const = " + c.ExactString()
	}
	return fmt.Sprintf("var %s = %s", v.Type(), short(fmt.Sprintf("%v", v)))
}

func short(s string) string {
	if len(s) > 500 {
		return s[:500] + "…"
	}
	return s
}

func (ins *inspector) inspectName(name string, detail int) string {
	decl, isDecl := ins.decls.Decl(name)
	p, isImport := ins.decls.Imported(name)
	methods := ins.decls.MethodDecls(name)
	if isDecl {
		if detail > 0 && len(methods) > 0 {
			decl += "\n\n" + strings.Join(methods, "\n")
		}
		return decl
	}
	if isImport {
		return fmt.Sprintf("package %s (import %q)", name, p)
	}
	if v, ok := ins.vm.globals()[name]; ok && v.IsValid() {
		return ins.describeVar(name, v)
	}
	for _, b := range goBuiltins {
		if b == name {
			return name + ": Go builtin (https://pkg.go.dev/builtin#" + name + ")"
		}
	}
	return ""
}

// IsComplete says whether code is ready to run (cell.IsComplete).
func (s *Session) IsComplete(code string) Completeness {
	status, indent := cell.IsComplete(code)
	return Completeness{Status: status, Indent: indent}
}
