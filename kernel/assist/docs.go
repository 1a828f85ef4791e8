package assist

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"strings"
	"sync"
)

// docCache holds go/doc's view of the packages whose docs were asked
// for, parsed from source with comments on first use.
type docCache struct {
	mu   sync.Mutex
	pkgs map[string]*doc.Package // nil entry: no source
}

func (d *docCache) init() { d.pkgs = map[string]*doc.Package{} }

// pkg returns the documentation of the package at path.
func (a *loader) docPkg(path string) *doc.Package {
	path = canonical(path)
	a.docs.mu.Lock()
	p, ok := a.docs.pkgs[path]
	a.docs.mu.Unlock()
	if ok {
		return p
	}
	files, err := a.imp.parseDir(path, parser.ParseComments)
	if err == nil {
		p, err = doc.NewFromFiles(a.fset, files, path, doc.PreserveAST|doc.AllDecls)
	}
	if err != nil {
		p = nil
	}
	a.docs.mu.Lock()
	a.docs.pkgs[path] = p
	a.docs.mu.Unlock()
	return p
}

// docOf returns the doc comment of obj, a package member or method of
// package p, in go/doc's text and Markdown forms.
func docOf(p *doc.Package, obj types.Object) (text, md string) {
	if p == nil {
		return "", ""
	}
	raw := findDoc(p, obj)
	if raw == "" {
		return "", ""
	}
	return strings.TrimSpace(string(p.Text(raw))), strings.TrimSpace(string(p.Markdown(raw)))
}

func findDoc(p *doc.Package, obj types.Object) string {
	name := obj.Name()
	switch o := obj.(type) {
	case *types.Func:
		if recv := o.Signature().Recv(); recv != nil {
			tname := typeName(recv.Type())
			for _, t := range p.Types {
				if t.Name != tname {
					continue
				}
				for _, m := range t.Methods {
					if m.Name == name {
						return m.Doc
					}
				}
				return interfaceMethodDoc(t, name)
			}
			return ""
		}
		for _, f := range p.Funcs {
			if f.Name == name {
				return f.Doc
			}
		}
		for _, t := range p.Types {
			for _, f := range t.Funcs {
				if f.Name == name {
					return f.Doc
				}
			}
		}
	case *types.Builtin:
		if f := docFunc(p, name); f != nil {
			return f.Doc
		}
	case *types.TypeName:
		for _, t := range p.Types {
			if t.Name == name {
				return t.Doc
			}
		}
	case *types.Const, *types.Var:
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			return ""
		}
		groups := append(append([]*doc.Value{}, p.Consts...), p.Vars...)
		for _, t := range p.Types {
			groups = append(append(groups, t.Consts...), t.Vars...)
		}
		for _, g := range groups {
			for _, n := range g.Names {
				if n == name {
					return g.Doc
				}
			}
		}
	}
	return ""
}

// interfaceMethodDoc is the comment on method name in interface type t.
func interfaceMethodDoc(t *doc.Type, name string) string {
	if t.Decl == nil || len(t.Decl.Specs) == 0 {
		return ""
	}
	ts, ok := t.Decl.Specs[0].(*ast.TypeSpec)
	if !ok {
		return ""
	}
	it, ok := ts.Type.(*ast.InterfaceType)
	if !ok {
		return ""
	}
	for _, f := range it.Methods.List {
		for _, n := range f.Names {
			if n.Name == name && f.Doc != nil {
				return f.Doc.Text()
			}
		}
	}
	return ""
}

// typeName is the name of the named type t or *t.
func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch n := t.(type) {
	case *types.Named:
		return n.Obj().Name()
	case *types.Alias:
		return n.Obj().Name()
	}
	return ""
}

// cellComment is the // comment block on the lines just above line (1-based) of code.
func cellComment(code string, line int) string {
	lines := strings.Split(code, "\n")
	var out []string
	for i := line - 2; i >= 0 && i < len(lines); i-- {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "//") {
			break
		}
		out = append([]string{strings.TrimPrefix(strings.TrimPrefix(t, "//"), " ")}, out...)
	}
	return strings.Join(out, "\n")
}

// builtinDecl is the declaration package builtin documents a builtin
// function with ("func len(v Type) int"), "" for other names.
func builtinDecl(fset *token.FileSet, p *doc.Package, name string) string {
	if p == nil {
		return ""
	}
	if f := docFunc(p, name); f != nil {
		{
			var b strings.Builder
			if err := printer.Fprint(&b, fset, f.Decl); err == nil {
				return b.String()
			}
		}
	}
	return ""
}

// docFunc finds the function name of p, also among the functions go/doc
// groups under the type they return.
func docFunc(p *doc.Package, name string) *doc.Func {
	for _, f := range p.Funcs {
		if f.Name == name {
			return f
		}
	}
	for _, t := range p.Types {
		for _, f := range t.Funcs {
			if f.Name == name {
				return f
			}
		}
	}
	return nil
}
