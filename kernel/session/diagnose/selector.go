package diagnose

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// undefinedSel is the interpreter's error for a method or field a value
// does not have; it names neither the type nor what the type has.
var undefinedSel = regexp.MustCompile(`undefined (?:method|selector|field): (\w+)`)

// explainSelector finds in c a selector x.Name whose receiver's type is
// known (a variable of the session, the result of a package's function,
// pkg.F(...).Name) and has no method or field Name, and says so with the
// nearest names the type has. want, when not "", is the name the
// interpreter reported. It returns "" when it finds none.
func (d *Diagnoser) explainSelector(c cell.Cell, want string) string {
	f, fset := parseCellLoosely(c)
	if f == nil {
		return ""
	}
	g := d.scope.Globals()
	msg := ""
	var scopes []*cell.Parsed
	ast.Inspect(f, func(n ast.Node) bool {
		s, ok := n.(*ast.SelectorExpr)
		if !ok || msg != "" {
			return msg == ""
		}
		if want != "" && s.Sel.Name != want {
			return true
		}
		if want != "" {
			// a type a cell declared: its methods and fields from the
			// declarations, which reflect does not have
			if scopes == nil {
				scopes = d.cellScopes(c)
			}
			if name := d.cellTypeOf(s.X, scopes, 0); name != "" {
				if names := d.cellMembers(name, scopes); !slices.Contains(names, s.Sel.Name) {
					p := fset.Position(s.Sel.Pos())
					p.Line--
					msg = undefinedMember(c, p, s.Sel.Name, name+" (a type a cell declared)", names)
					return false
				}
				return true
			}
		}
		t, what := d.receiverType(s.X, g)
		if t == nil {
			return true
		}
		names, native := memberNames(t)
		if !native && want == "" {
			return true // a cell's type: its methods are the interpreter's, not reflect's
		}
		if slices.Contains(names, s.Sel.Name) {
			return true
		}
		of := t.String() + " (" + what + ")"
		if !native {
			of = what // a cell's type: reflect knows it by its structure only
		}
		p := fset.Position(s.Sel.Pos())
		p.Line--
		msg = undefinedMember(c, p, s.Sel.Name, of, names)
		return false
	})
	if msg == "" && want != "" {
		msg = d.explainCellSelector(c, want)
	}
	return msg
}

// explainCellSelector is explainSelector for a cell that declares
// functions or methods, which the loose parse of its code as one
// function's body loses: the selector .want on a value of a type a cell
// declared, found in the cell's parsed declarations and statements.
func (d *Diagnoser) explainCellSelector(c cell.Cell, want string) string {
	scopes := d.cellScopes(c)
	if len(scopes) == 0 || scopes[len(scopes)-1].Cell.N != c.N {
		return ""
	}
	cur := scopes[len(scopes)-1]
	msg := ""
	for _, n := range cur.Nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			s, ok := n.(*ast.SelectorExpr)
			if !ok || msg != "" || s.Sel.Name != want {
				return msg == ""
			}
			if name := d.cellTypeOf(s.X, scopes, 0); name != "" {
				if names := d.cellMembers(name, scopes); !slices.Contains(names, want) {
					msg = undefinedMember(c, cur.Fset.Position(s.Sel.Pos()), want, name+" (a type a cell declared)", names)
				}
			}
			return msg == ""
		})
	}
	return msg
}

// undefinedMember says that name is not a method or field of what (at p
// in cell c), with the nearest of names.
func undefinedMember(c cell.Cell, p token.Position, name, of string, names []string) string {
	msg := fmt.Sprintf("cell[%d]:%d:%d: undefined method or field %s of %s", c.N, p.Line, p.Column, name, of)
	if near := cell.Nearest(name, names); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near[:min(3, len(near))], ", ") + "?"
	} else {
		msg += "."
	}
	return msg + " Tab after the dot lists what it has; Shift-Tab on a name shows its documentation"
}

// receiverType is the type of x when the session knows it without
// running the cell: a variable's, or the first result of pkg.F(...).
func (d *Diagnoser) receiverType(x ast.Expr, g map[string]reflect.Value) (reflect.Type, string) {
	switch x := x.(type) {
	case *ast.Ident:
		if v, ok := g[x.Name]; ok && v.IsValid() {
			t := v.Type()
			if v.Kind() == reflect.Interface && !v.IsNil() {
				t = v.Elem().Type()
			}
			return t, "the type of " + x.Name
		}
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		if !ok {
			return nil, ""
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return nil, ""
		}
		if _, isVar := g[pkg.Name]; isVar {
			return nil, ""
		}
		fn, ok := d.scope.Symbols(pkg.Name)[sel.Sel.Name]
		if !ok || fn.Kind() != reflect.Func || fn.Type().NumOut() == 0 {
			return nil, ""
		}
		return fn.Type().Out(0), "what " + pkg.Name + "." + sel.Sel.Name + " returns"
	}
	return nil, ""
}

// memberNames lists the methods (of T and *T) and fields (promoted ones
// too) of t; native reports that t is a compiled package's named type, so
// the list is all it has.
func memberNames(t reflect.Type) ([]string, bool) {
	base := t
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	native := base.PkgPath() != "" && base.Name() != ""
	seen := map[string]bool{}
	for _, mt := range []reflect.Type{base, reflect.PointerTo(base)} {
		for i := range mt.NumMethod() {
			seen[mt.Method(i).Name] = true
		}
	}
	if base.Kind() == reflect.Struct {
		var walk func(st reflect.Type, depth int)
		walk = func(st reflect.Type, depth int) {
			for i := range st.NumField() {
				fd := st.Field(i)
				if fd.IsExported() || !native {
					seen[fd.Name] = true
				}
				if fd.Anonymous && depth < 4 {
					ft := fd.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if ft.Kind() == reflect.Struct {
						walk(ft, depth+1)
					}
				}
			}
		}
		walk(base, 0)
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, native
}
