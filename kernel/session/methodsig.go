package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"reflect"
	"strings"
)

// methodSig is the rewrite.MethodSig of the session, for method
// expressions (`(*T).M`, `T.M`, pass method-expr): the signature of a
// method declared in an earlier cell (from its declaration text), or of a
// method of a package's type (by reflection, written with the cell's
// package names; not ok when a type in it has no name the cell can use).
func (vm *vm) methodSig(pkgPath, typ, method string, imports map[string]string) (string, bool, bool) {
	if pkgPath == "" {
		text, ok := vm.decls.Decl(typ + "." + method)
		if !ok {
			return "", false, false
		}
		return declSig(text)
	}
	t, ok := vm.packageType(pkgPath, typ)
	if !ok {
		return "", false, false
	}
	m, ok := t.MethodByName(method)
	ptr := false
	if !ok {
		if m, ok = reflect.PointerTo(t).MethodByName(method); !ok {
			return "", false, false
		}
		ptr = true
	}
	names := map[string]string{}
	for n, p := range imports {
		names[p] = n
	}
	sig, ok := funcTypeSource(m.Type, 1, names)
	return sig, ptr, ok
}

// varType is the rewrite.VarType of the session: the type of a global
// variable, by reflection, written with the cell's package names.
func (vm *vm) varType(name string, imports map[string]string) (string, bool) {
	v, ok := vm.globals()[name]
	if !ok || !v.IsValid() {
		return "", false
	}
	names := map[string]string{}
	for n, p := range imports {
		names[p] = n
	}
	return typeSource(v.Type(), names)
}

// declSig returns the func type and pointer-ness of the receiver of a
// method declaration's text (`func (p *P) Inc(n int)`).
func declSig(text string) (string, bool, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text+" {}", 0)
	if err != nil || len(f.Decls) != 1 {
		return "", false, false
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
		return "", false, false
	}
	_, ptr := fd.Recv.List[0].Type.(*ast.StarExpr)
	var b strings.Builder
	if printer.Fprint(&b, token.NewFileSet(), fd.Type) != nil {
		return "", false, false
	}
	return b.String(), ptr, true
}

// packageType returns the type typ of the package at path, from the
// interpreter's symbols (a type is a nil pointer to it there).
func (vm *vm) packageType(path, typ string) (reflect.Type, bool) {
	for _, syms := range vm.ip.Symbols(path) {
		v, ok := syms[typ]
		if ok && v.Kind() == reflect.Pointer && v.IsNil() {
			return v.Type().Elem(), true
		}
	}
	return nil, false
}

// funcTypeSource writes the func type t, without its first skip parameters,
// as Go source; names maps package paths to the cell's names for them.
func funcTypeSource(t reflect.Type, skip int, names map[string]string) (string, bool) {
	var in, out []string
	for i := skip; i < t.NumIn(); i++ {
		p := t.In(i)
		if t.IsVariadic() && i == t.NumIn()-1 {
			e, ok := typeSource(p.Elem(), names)
			if !ok {
				return "", false
			}
			in = append(in, "..."+e)
			continue
		}
		e, ok := typeSource(p, names)
		if !ok {
			return "", false
		}
		in = append(in, e)
	}
	for i := 0; i < t.NumOut(); i++ {
		e, ok := typeSource(t.Out(i), names)
		if !ok {
			return "", false
		}
		out = append(out, e)
	}
	res := strings.Join(out, ", ")
	if len(out) > 1 {
		res = "(" + res + ")"
	}
	return strings.TrimSpace("func(" + strings.Join(in, ", ") + ") " + res), true
}

// typeSource writes t as Go source, or reports that a name in it cannot be
// written in the cell.
func typeSource(t reflect.Type, names map[string]string) (string, bool) {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			return t.Name(), true
		}
		n, ok := names[t.PkgPath()]
		return n + "." + t.Name(), ok && !strings.Contains(t.Name(), "[")
	}
	elem := func(prefix string) (string, bool) {
		e, ok := typeSource(t.Elem(), names)
		return prefix + e, ok
	}
	switch t.Kind() {
	case reflect.Pointer:
		return elem("*")
	case reflect.Slice:
		return elem("[]")
	case reflect.Array:
		return elem(fmt.Sprintf("[%d]", t.Len()))
	case reflect.Chan:
		switch t.ChanDir() {
		case reflect.RecvDir:
			return elem("<-chan ")
		case reflect.SendDir:
			return elem("chan<- ")
		}
		return elem("chan ")
	case reflect.Map:
		k, ok := typeSource(t.Key(), names)
		if !ok {
			return "", false
		}
		return elem("map[" + k + "]")
	case reflect.Func:
		return funcTypeSource(t, 0, names)
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return "any", true
		}
	}
	return "", false
}
