package diagnose

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// This file finds, without running anything, which type a cell declared
// the receiver of a selector has (p.Gret() with p := P{}, c := Celsius(3),
// mk().Gret() with func mk() P), and what that type has: reflect knows a
// cell's struct by its structure only and a named non-struct type by its
// underlying type, and the methods are the interpreter's, so the names
// come from the declarations the cells wrote.

// cellScopes parses the cells that ran and c: the places the definitions
// of a name are looked for, the last first.
func (d *Diagnoser) cellScopes(c cell.Cell) []*cell.Parsed {
	var out []*cell.Parsed
	for i, code := range d.decls.Ran(0) {
		if p, err := cell.Parse(token.NewFileSet(), cell.Cell{N: i + 1, Code: code}); err == nil {
			out = append(out, p)
		}
	}
	if p, err := cell.Parse(token.NewFileSet(), c); err == nil {
		out = append(out, p)
	}
	return out
}

// cellTypeOf returns the name of the cell-declared type x has, or "".
func (d *Diagnoser) cellTypeOf(x ast.Expr, scopes []*cell.Parsed, depth int) string {
	if depth > 6 {
		return ""
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return d.cellTypeOf(x.X, scopes, depth+1)
	case *ast.StarExpr:
		return d.cellTypeOf(x.X, scopes, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return d.cellTypeOf(x.X, scopes, depth+1)
		}
	case *ast.CompositeLit:
		return d.cellTypeName(x.Type, scopes)
	case *ast.CallExpr:
		if t := d.cellTypeName(x.Fun, scopes); t != "" {
			return t // a conversion, Celsius(3)
		}
		if id, ok := x.Fun.(*ast.Ident); ok {
			if fd := d.funcDecl(id.Name, scopes); fd != nil && fd.Type.Results != nil && len(fd.Type.Results.List) > 0 {
				return d.cellTypeName(fd.Type.Results.List[0].Type, scopes)
			}
		}
	case *ast.Ident:
		if e := definition(x.Name, scopes); e != nil {
			return d.cellTypeOf(e, scopes, depth+1)
		}
	}
	return ""
}

// definition returns what the last definition of variable name in scopes
// gives it: its declared type or its value.
func definition(name string, scopes []*cell.Parsed) ast.Expr {
	for i := len(scopes) - 1; i >= 0; i-- {
		var found ast.Expr
		look := func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					for j, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok && id.Name == name {
							found = n.Rhs[j]
						}
					}
				}
			case *ast.ValueSpec:
				for j, id := range n.Names {
					if id.Name != name {
						continue
					}
					if n.Type != nil {
						found = n.Type
					} else if j < len(n.Values) {
						found = n.Values[j]
					}
				}
			case *ast.FuncLit, *ast.FuncDecl:
				return false // a function's own variables
			}
			return true
		}
		for _, n := range scopes[i].Nodes() {
			ast.Inspect(n, look)
		}
		if found != nil {
			return found
		}
	}
	return nil
}

// cellTypeName returns the name of the cell-declared type e names, or "".
func (d *Diagnoser) cellTypeName(e ast.Expr, scopes []*cell.Parsed) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return ""
	}
	if d.typeSpec(id.Name, scopes) != nil {
		return id.Name
	}
	return ""
}

// typeSpec returns the declaration of the type name a cell declared.
func (d *Diagnoser) typeSpec(name string, scopes []*cell.Parsed) *ast.TypeSpec {
	var spec *ast.TypeSpec
	for _, p := range scopes {
		if p.Decls == nil {
			continue
		}
		ast.Inspect(p.Decls, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == name {
				spec = ts
			}
			_, fn := n.(*ast.FuncDecl)
			return !fn
		})
	}
	if spec == nil {
		if text, ok := d.decls.Decl(name); ok {
			if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, 0); err == nil && len(f.Decls) == 1 {
				if g, ok := f.Decls[0].(*ast.GenDecl); ok && len(g.Specs) == 1 {
					spec, _ = g.Specs[0].(*ast.TypeSpec)
				}
			}
		}
	}
	return spec
}

// funcDecl returns the declaration of the function name a cell declared.
func (d *Diagnoser) funcDecl(name string, scopes []*cell.Parsed) *ast.FuncDecl {
	for i := len(scopes) - 1; i >= 0; i-- {
		if scopes[i].Decls == nil {
			continue
		}
		for _, decl := range scopes[i].Decls.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
				return fd
			}
		}
	}
	return nil
}

// cellMembers returns the methods (of T and *T) and fields of the cell
// type name, sorted.
func (d *Diagnoser) cellMembers(name string, scopes []*cell.Parsed) []string {
	seen := map[string]bool{}
	for _, m := range d.decls.MethodsOf(name) {
		seen[m] = true
	}
	for _, p := range scopes {
		if p.Decls == nil {
			continue
		}
		for _, decl := range p.Decls.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 && cell.TypeName(fd.Recv.List[0].Type) == name {
				seen[fd.Name.Name] = true
			}
		}
	}
	if ts := d.typeSpec(name, scopes); ts != nil {
		if st, ok := ts.Type.(*ast.StructType); ok {
			for _, f := range st.Fields.List {
				for _, n := range f.Names {
					seen[n.Name] = true
				}
				if len(f.Names) == 0 {
					seen[cell.TypeName(f.Type)] = true // embedded
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
