package diagnose

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// This file explains the type inference failures of the interpreter in
// calls of generic functions declared in cells: it does not infer a type
// parameter from variadic arguments ("undefined type for T", positioned at
// the function's declaration), from a func literal argument ("cannot use
// type func(int) string as type func(int) int") or from untyped constants
// ("untyped float does not implement main.Number"). Explicit instantiation
// works, so the error says what to write, with the types the call implies
// when the arguments show them.

var (
	undefinedTypeParam = regexp.MustCompile(`undefined type for ([\pL_][\pL\pN_]*)$`)
	cannotUseFunc      = regexp.MustCompile(`cannot use type func\(.*\) .* as type func\(`)
	untypedNotImpl     = regexp.MustCompile(`untyped \w+ does not implement `)
	cellPrefix         = regexp.MustCompile(`^cell\[\d+\]:\d+:\d+: `)
)

// genericCall is a call in a cell of a generic function declared in a cell.
type genericCall struct {
	name    string
	params  []string          // type parameter names
	implied map[string]string // type parameter → the type the arguments show
	pos     cell.Pos          // the call's position in the cell
	call    *ast.CallExpr
}

// explicit writes the instantiation the call needs: Map[int, string].
func (g genericCall) explicit() string {
	var ts []string
	for _, p := range g.params {
		t, ok := g.implied[p]
		if !ok {
			t = p
		}
		ts = append(ts, t)
	}
	return g.name + "[" + strings.Join(ts, ", ") + "]"
}

// advice says how to write the call with explicit type arguments.
func (g genericCall) advice() string {
	var missing []string
	for _, p := range g.params {
		if _, ok := g.implied[p]; !ok {
			missing = append(missing, p)
		}
	}
	s := fmt.Sprintf("instantiate it explicitly: %s(...)", g.explicit())
	if len(missing) > 0 {
		s += fmt.Sprintf(" with %s written as the type%s this call needs", strings.Join(missing, " and "), map[bool]string{true: "s"}[len(missing) > 1])
	}
	return s
}

// genericHint rewrites msg, a compile error of c, when it is an inference
// failure in a call of a cell's generic function. It returns "" otherwise.
func (d *Diagnoser) genericHint(msg string, c cell.Cell) string {
	var want func(genericCall) bool
	var why string
	if m := undefinedTypeParam.FindStringSubmatch(msg); m != nil {
		want = func(g genericCall) bool { return inList(g.params, m[1]) }
		why = "the interpreter does not infer a type parameter from variadic arguments"
	} else if cannotUseFunc.MatchString(msg) {
		want = func(g genericCall) bool { return hasArg[*ast.FuncLit](g.call) }
		why = "the interpreter does not infer type parameters from a func literal argument"
	} else if untypedNotImpl.MatchString(msg) {
		want = func(g genericCall) bool { return hasArg[*ast.BasicLit](g.call) }
		why = "the interpreter does not infer a type parameter from untyped constants"
	} else {
		return ""
	}
	// The interpreter's position may be the declaration's, in another cell.
	msg = cellPrefix.ReplaceAllString(msg, "")
	for _, g := range d.genericCalls(c) {
		if want(g) {
			return fmt.Sprintf("%s: cannot infer the type parameters of %s in this call (%s; interpreter message: %q): %s",
				g.pos, g.name, why, msg, g.advice())
		}
	}
	return ""
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasArg[T ast.Expr](c *ast.CallExpr) bool {
	for _, a := range c.Args {
		if _, ok := a.(T); ok {
			return true
		}
	}
	return false
}

// genericCalls returns the calls in the code of c of generic functions
// declared in cells, in cell order.
func (d *Diagnoser) genericCalls(c cell.Cell) []genericCall {
	if cell.HasMagic(c.Code) {
		return nil
	}
	pc, err := cell.Parse(token.NewFileSet(), c)
	if err != nil {
		return nil
	}
	globals := d.scope.Globals()
	var out []genericCall
	visit := func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := call.Fun.(*ast.Ident)
		if !ok {
			return true
		}
		text, _ := d.decls.Decl(id.Name)
		fd := genericDecl(text)
		if fd == nil {
			return true
		}
		g := genericCall{name: id.Name, implied: map[string]string{}, pos: pc.Pos(call.Pos()), call: call}
		for _, f := range fd.Type.TypeParams.List {
			for _, n := range f.Names {
				g.params = append(g.params, n.Name)
			}
		}
		inferFromArgs(fd.Type, call, g.params, g.implied, globals)
		out = append(out, g)
		return true
	}
	for _, n := range pc.Nodes() {
		ast.Inspect(n, visit)
	}
	return out
}

// genericDecl parses the recorded declaration text of a generic function,
// or returns nil.
func genericDecl(text string) *ast.FuncDecl {
	if !strings.HasPrefix(text, "func ") || !strings.Contains(text, "[") {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Recv != nil || fd.Type.TypeParams == nil {
		return nil
	}
	return fd
}

// inferFromArgs binds type parameters to the types the call's arguments
// show: func literals, composite literals, constants (their default type)
// and session variables.
func inferFromArgs(ft *ast.FuncType, c *ast.CallExpr, params []string, bind map[string]string, globals map[string]reflect.Value) {
	var ptypes []ast.Expr
	for _, f := range ft.Params.List {
		for range max(1, len(f.Names)) {
			ptypes = append(ptypes, f.Type)
		}
	}
	for i, a := range c.Args {
		if len(ptypes) == 0 {
			return
		}
		p := ptypes[min(i, len(ptypes)-1)]
		if e, ok := p.(*ast.Ellipsis); ok && c.Ellipsis == token.NoPos {
			p = e.Elt
		} else if ok {
			p = &ast.ArrayType{Elt: e.Elt} // f(xs...)
		} else if i >= len(ptypes) {
			return
		}
		if t := argType(a, globals); t != nil {
			unify(p, t, params, bind)
		}
	}
}

// argType returns the type an argument shows in the source, or nil.
func argType(a ast.Expr, globals map[string]reflect.Value) ast.Expr {
	switch a := a.(type) {
	case *ast.FuncLit:
		return a.Type
	case *ast.CompositeLit:
		return a.Type
	case *ast.BasicLit:
		def := map[token.Token]string{token.INT: "int", token.FLOAT: "float64", token.IMAG: "complex128", token.CHAR: "rune", token.STRING: "string"}[a.Kind]
		return ast.NewIdent(def)
	case *ast.Ident:
		if v, ok := globals[a.Name]; ok && v.IsValid() {
			if t, err := parser.ParseExpr(v.Type().String()); err == nil {
				return t
			}
		}
	}
	return nil
}

// unify matches a parameter type against an argument type, binding the
// type parameters it meets.
func unify(p, a ast.Expr, params []string, bind map[string]string) {
	switch p := p.(type) {
	case *ast.Ident:
		if _, done := bind[p.Name]; !done && inList(params, p.Name) && a != nil {
			bind[p.Name] = types.ExprString(a)
		}
	case *ast.ArrayType:
		if a, ok := a.(*ast.ArrayType); ok {
			unify(p.Elt, a.Elt, params, bind)
		}
	case *ast.StarExpr:
		if a, ok := a.(*ast.StarExpr); ok {
			unify(p.X, a.X, params, bind)
		}
	case *ast.MapType:
		if a, ok := a.(*ast.MapType); ok {
			unify(p.Key, a.Key, params, bind)
			unify(p.Value, a.Value, params, bind)
		}
	case *ast.ChanType:
		if a, ok := a.(*ast.ChanType); ok {
			unify(p.Value, a.Value, params, bind)
		}
	case *ast.FuncType:
		if a, ok := a.(*ast.FuncType); ok {
			unifyFields(p.Params, a.Params, params, bind)
			unifyFields(p.Results, a.Results, params, bind)
		}
	}
}

func unifyFields(p, a *ast.FieldList, params []string, bind map[string]string) {
	flat := func(l *ast.FieldList) []ast.Expr {
		var out []ast.Expr
		if l == nil {
			return nil
		}
		for _, f := range l.List {
			for range max(1, len(f.Names)) {
				out = append(out, f.Type)
			}
		}
		return out
	}
	ps, as := flat(p), flat(a)
	for i := range min(len(ps), len(as)) {
		unify(ps[i], as[i], params, bind)
	}
}
