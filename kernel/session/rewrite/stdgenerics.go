package rewrite

import (
	"go/ast"
	"go/constant"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// stdGeneric names the generic standard library functions the session
// provides as interpreted Go (package kernel/session/stdgo, whose tests
// check that it declares each of them): import path → function names. The
// interpreter's symbol tables cannot hold generic functions, and its own
// copies of slices and maps fail.
var stdGeneric = map[string][]string{
	"slices": {"All", "BinarySearch", "BinarySearchFunc", "Clip", "Clone", "Collect", "Compact", "CompactFunc", "Compare", "Concat", "Contains",
		"ContainsFunc", "Delete", "DeleteFunc", "Equal", "EqualFunc", "Grow", "Index", "IndexFunc", "Insert", "IsSorted",
		"IsSortedFunc", "Max", "MaxFunc", "Min", "MinFunc", "Repeat", "Replace", "Reverse", "Sort", "SortFunc",
		"SortStableFunc", "Sorted", "SortedFunc", "SortedStableFunc", "AppendSeq", "Values"},
	"maps":         {"All", "Clone", "Collect", "Copy", "DeleteFunc", "Equal", "EqualFunc", "Insert", "Keys", "Values"},
	"math/rand/v2": {"N"},
	"cmp":          {"Compare", "Less", "Or"},
	"sync":         {"OnceValue", "OnceValues"},
}

// importNames returns the package names the cell can use, with their
// import paths: Options.Imports and the cell's own imports.
func (u *Unit) importNames() map[string]string {
	names := map[string]string{}
	for n, p := range u.imports {
		names[n] = p
	}
	if u.Decls != nil {
		for _, im := range u.Decls.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			n := p[strings.LastIndex(p, "/")+1:]
			if p == "math/rand/v2" {
				n = "rand"
			}
			if im.Name != nil {
				n = im.Name.Name
			}
			names[n] = p
		}
	}
	return names
}

// constraintNames are the constraints of golang.org/x/exp/constraints,
// which the prelude declares as ᐩconstraintsᐩNAME (kernel/session/stdgo).
var constraintNames = map[string]bool{"Signed": true, "Unsigned": true, "Integer": true, "Float": true, "Complex": true, "Ordered": true}

// StdGenerics returns a copy of the list of the generic standard library
// functions pass std-generics points at the session's shims: import path →
// function names.
func StdGenerics() map[string][]string {
	out := make(map[string][]string, len(stdGeneric))
	for p, fns := range stdGeneric {
		out[p] = append([]string(nil), fns...)
	}
	return out
}

// StdGenericName is the prelude's name for function fn of package path.
func StdGenericName(path, fn string) string {
	return "ᐩstd" + strings.NewReplacer("/", "ᐩ").Replace(path) + "ᐩ" + fn
}

// stdGenerics (pass std-generics) points the calls of stdGeneric's
// functions at the prelude's implementations (`slices.Sort(x)` becomes
// `ᐩstdslicesᐩSort(x)`), and writes iter.Seq[V] and iter.Seq2[K, V] as the
// function types they are. Options.Imports says which package a name
// stands for; the cell's own imports are added.
func stdGenerics(u *Unit) {
	names := u.importNames()
	provided := map[string]bool{}
	for p, fns := range stdGeneric {
		for _, f := range fns {
			provided[p+"."+f] = true
		}
	}
	pkgOf := func(x ast.Expr) (string, string) {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			return "", ""
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return "", ""
		}
		return names[id.Name], sel.Sel.Name
	}
	fix := func(x ast.Expr) ast.Expr {
		switch e := x.(type) {
		case *ast.CallExpr:
			// cmp.Or(a, b, c) as Or2(a, Or2(b, c)), slices.Concat as
			// Concat2 likewise: the interpreter cannot infer a type
			// parameter from variadic arguments
			if p, f := pkgOf(e.Fun); (p == "cmp" && f == "Or" || p == "slices" && f == "Concat") && !e.Ellipsis.IsValid() && len(e.Args) >= 2 {
				nest := e.Args[len(e.Args)-1]
				for i := len(e.Args) - 2; i >= 0; i-- {
					nest = &ast.CallExpr{Fun: &ast.Ident{NamePos: e.Pos(), Name: StdGenericName(p, f+"2")},
						Lparen: e.Lparen, Args: []ast.Expr{e.Args[i], nest}, Rparen: e.Rparen}
				}
				return nest
			}
			if p, f := pkgOf(e.Fun); p == "cmp" && (f == "Compare" || f == "Less") {
				floatFirst(e)
			}
		case *ast.SelectorExpr:
			if p, f := pkgOf(e); provided[p+"."+f] {
				return &ast.Ident{NamePos: e.Pos(), Name: StdGenericName(p, f)}
			} else if p == "golang.org/x/exp/constraints" && constraintNames[f] {
				// interface types with type sets: the prelude declares them
				return &ast.Ident{NamePos: e.Pos(), Name: "ᐩconstraintsᐩ" + f}
			}
		case *ast.IndexExpr:
			if p, f := pkgOf(e.X); p == "iter" && f == "Seq" {
				return seqType(e.Pos(), e.Index)
			}
		case *ast.IndexListExpr:
			if p, f := pkgOf(e.X); p == "iter" && f == "Seq2" && len(e.Indices) == 2 {
				return seqType(e.Pos(), e.Indices...)
			}
		}
		return nil
	}
	u.inspect(func(n ast.Node) bool {
		replaceExprs(n, fix)
		return true
	})
	if u.Value != nil {
		if r := fix(u.Value); r != nil {
			u.Value = r
		}
	}
	var out []ast.Stmt
	for _, st := range u.Stmts {
		out = append(out, u.topLevelGenericDefine(st)...)
	}
	u.Stmts = out
}

// floatFirst converts the first argument of call c to float64 when it is
// an untyped constant and an untyped float constant is among the
// arguments: the interpreter infers the type parameter from the first
// argument and refuses an untyped float ("untyped float does not
// implement main.ᐩordered", for cmp.Compare(1.5, x) or max(1.5, x)),
// where Go gives it the type of the other arguments (float64 unless one
// is typed float32 or a named float type, which then is an error here).
func floatFirst(c *ast.CallExpr) {
	if len(c.Args) < 2 || constValue(c.Args[0]) == nil {
		return
	}
	for _, a := range c.Args {
		if v := constValue(a); v != nil && v.Kind() == constant.Float {
			c.Args[0] = &ast.CallExpr{Fun: &ast.Ident{NamePos: c.Args[0].Pos(), Name: "float64"}, Lparen: c.Args[0].Pos(),
				Args: []ast.Expr{c.Args[0]}, Rparen: c.Args[0].End()}
			return
		}
	}
}

// resultLike says, for the provided functions that return a value of
// their first argument's type ("same") or of its elements ("elem"), how
// a variable of that type is declared without naming it.
var resultLike = map[string]string{}

func init() {
	for _, f := range []string{"Clone", "Compact", "CompactFunc", "Insert", "Delete", "DeleteFunc", "Replace", "Grow", "Clip", "Repeat", "Concat2", "AppendSeq"} {
		resultLike[StdGenericName("slices", f)] = "same"
	}
	resultLike[StdGenericName("maps", "Clone")] = "same"
	// a func() T in, a func() T out
	resultLike[StdGenericName("sync", "OnceValue")] = "same"
	resultLike[StdGenericName("sync", "OnceValues")] = "same"
	resultLike[StdGenericName("cmp", "Or2")] = "same"
	for _, f := range []string{"Max", "Min", "MaxFunc", "MinFunc"} {
		resultLike[StdGenericName("slices", f)] = "elem"
	}
}

// topLevelGenericDefine rewrites `y := slices.Clone(x)` at the top level,
// where the interpreter crashes on a variable defined from a generic call
// ("nil reflect type"), as `ᐩa := x; y := ᐩa; y = slices.Clone(ᐩa)` (for a
// result of the argument's type; `y := ᐩa[:1][0]` for an element): the
// assignment form works.
func (u *Unit) topLevelGenericDefine(st ast.Stmt) []ast.Stmt {
	a, ok := st.(*ast.AssignStmt)
	if !ok || a.Tok != token.DEFINE || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return []ast.Stmt{st}
	}
	call, ok := a.Rhs[0].(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || call.Ellipsis.IsValid() && len(call.Args) == 1 {
		return []ast.Stmt{st}
	}
	y, ok := a.Lhs[0].(*ast.Ident)
	if !ok || y.Name == "_" {
		return []ast.Stmt{st}
	}
	if r := u.declareThenAssign(a, y, call); r != nil {
		return r
	}
	fn, ok := call.Fun.(*ast.Ident)
	if !ok || resultLike[fn.Name] == "" {
		return []ast.Stmt{st}
	}
	tmp := u.fresh("a")
	first := &ast.AssignStmt{Lhs: []ast.Expr{ident(tmp)}, Tok: token.DEFINE, Rhs: []ast.Expr{call.Args[0]}}
	var like ast.Expr = ident(tmp)
	if resultLike[fn.Name] == "elem" {
		like = &ast.IndexExpr{X: &ast.SliceExpr{X: ident(tmp), High: &ast.BasicLit{Kind: token.INT, Value: "1"}}, Index: &ast.BasicLit{Kind: token.INT, Value: "0"}}
	}
	decl := &ast.AssignStmt{Lhs: []ast.Expr{ident(y.Name)}, Tok: token.DEFINE, Rhs: []ast.Expr{like}}
	call.Args[0] = &ast.Ident{NamePos: call.Args[0].Pos(), Name: tmp}
	a.Tok = token.ASSIGN
	SetPos(first, a.Pos())
	SetPos(decl, a.Pos())
	// the argument may be a generic call too (slices.DeleteFunc(slices.Clone(x), f))
	return append(u.topLevelGenericDefine(first), decl, a)
}

// seqType returns func(yield func(ts...) bool).
func seqType(pos token.Pos, ts ...ast.Expr) *ast.FuncType {
	var params []*ast.Field
	for _, t := range ts {
		params = append(params, &ast.Field{Type: t})
	}
	yield := &ast.FuncType{Func: pos, Params: &ast.FieldList{List: params},
		Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.Ident{NamePos: pos, Name: "bool"}}}}}
	return &ast.FuncType{Func: pos, Params: &ast.FieldList{List: []*ast.Field{{
		Names: []*ast.Ident{{NamePos: pos, Name: "yield"}}, Type: yield}}}}
}

var exprType = reflect.TypeOf((*ast.Expr)(nil)).Elem()

// replaceExprs replaces the expressions n holds directly (fields of type
// ast.Expr or []ast.Expr) for which fix returns a node.
func replaceExprs(n ast.Node, fix func(ast.Expr) ast.Expr) {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch {
		case f.Type() == exprType && !f.IsNil():
			if r := fix(f.Interface().(ast.Expr)); r != nil {
				f.Set(reflect.ValueOf(r))
			}
		case f.Kind() == reflect.Slice && f.Type().Elem() == exprType:
			for j := 0; j < f.Len(); j++ {
				if e := f.Index(j); !e.IsNil() {
					if r := fix(e.Interface().(ast.Expr)); r != nil {
						e.Set(reflect.ValueOf(r))
					}
				}
			}
		}
	}
}
