package rewrite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
)

// VarType returns the type of the session's variable name as Go source
// written with the cell's package names (imports maps them to paths), or
// false when it is not known or cannot be written.
type VarType func(name string, imports map[string]string) (string, bool)

// seqResults are the provided functions that collect a sequence into a
// slice ([]E for a sequence of E), and the sequences whose element type
// follows from their argument's type.
var (
	seqCollectors = map[string]bool{}
	seqOf         = map[string]func(t ast.Expr) ast.Expr{}
)

func init() {
	for _, f := range []string{"Sorted", "Collect"} {
		seqCollectors[StdGenericName("slices", f)] = true
	}
	seqOf[StdGenericName("maps", "Keys")] = func(t ast.Expr) ast.Expr {
		if m, ok := t.(*ast.MapType); ok {
			return m.Key
		}
		return nil
	}
	seqOf[StdGenericName("maps", "Values")] = func(t ast.Expr) ast.Expr {
		if m, ok := t.(*ast.MapType); ok {
			return m.Value
		}
		return nil
	}
}

// collectedType returns the type of `slices.Sorted(maps.Keys(m))` and the
// like ([]K for a map[K]V m), from the type of m, or nil. (slices.Values
// is not among the sequences: the interpreter crashes on
// `slices.Collect(slices.Values(x))` at top level even when assigned.)
func (u *Unit) collectedType(call *ast.CallExpr) ast.Expr {
	fn, ok := call.Fun.(*ast.Ident)
	if !ok || !seqCollectors[fn.Name] || len(call.Args) == 0 {
		return nil
	}
	inner, ok := call.Args[0].(*ast.CallExpr)
	if !ok || len(inner.Args) != 1 {
		return nil
	}
	seq, ok := inner.Fun.(*ast.Ident)
	if !ok || seqOf[seq.Name] == nil {
		return nil
	}
	x, ok := inner.Args[0].(*ast.Ident)
	if !ok {
		return nil
	}
	t := u.typeOfName(x.Name)
	if t == nil {
		return nil
	}
	elem := seqOf[seq.Name](t)
	if elem == nil {
		return nil
	}
	return &ast.ArrayType{Elt: elem}
}

// typeOfName returns the type of the variable name: from its definition in
// the cell (a composite literal, make or a var with a type), else from
// Options.VarType; nil when unknown.
func (u *Unit) typeOfName(name string) ast.Expr {
	var found ast.Expr
	of := func(e ast.Expr) ast.Expr {
		switch x := e.(type) {
		case *ast.CompositeLit:
			return x.Type
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "make" && len(x.Args) > 0 {
				return x.Args[0]
			}
		}
		return nil
	}
	for _, st := range u.Stmts {
		switch x := st.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) == len(x.Rhs) {
				for i, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						found = of(x.Rhs[i])
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := x.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if id.Name != name {
							continue
						}
						if found = vs.Type; found == nil && i < len(vs.Values) {
							found = of(vs.Values[i])
						}
					}
				}
			}
		}
	}
	if found != nil {
		return cloneExpr(found, token.NoPos)
	}
	if u.varType == nil {
		return nil
	}
	src, ok := u.varType(name, u.importNames())
	if !ok {
		return nil
	}
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	eachPos(e, func(ast.Node) bool { return true }, func(_ string, v reflect.Value) { v.SetInt(0) })
	return e
}

// declareThenAssign rewrites the top-level `y := call` as `var y T; y =
// call` when call collects a sequence whose type follows from a variable
// (collectedType), or returns nil.
func (u *Unit) declareThenAssign(a *ast.AssignStmt, y *ast.Ident, call *ast.CallExpr) []ast.Stmt {
	t := u.collectedType(call)
	if t == nil {
		return nil
	}
	g := &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{ident(y.Name)}, Type: t}}}
	decl := &ast.DeclStmt{Decl: g}
	SetPos(decl, a.Pos())
	g.Lparen, g.Rparen = token.NoPos, token.NoPos // `var y T`, not `var ( ... )`
	a.Tok = token.ASSIGN
	return []ast.Stmt{decl, a}
}
