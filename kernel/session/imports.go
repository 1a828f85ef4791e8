package session

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"path"
	"reflect"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// packageNames maps each import path of the symbol tables to its package
// name: a table key is "import/path/name".
func packageNames(tables []map[string]map[string]reflect.Value) map[string]string {
	names := map[string]string{}
	for _, t := range tables {
		for key := range t {
			if i := strings.LastIndexByte(key, '/'); i > 0 {
				names[key[:i]] = key[i+1:]
			}
		}
	}
	return names
}

// pkgName is the name an import of path p binds when the import gives no
// name.
func (s *Session) pkgName(p string) string {
	if name, ok := s.pkgNames[p]; ok {
		return name
	}
	return path.Base(p)
}

// importName is the name spec binds in the cells' scope.
func (s *Session) importName(spec *ast.ImportSpec) (name, p string) {
	p = strings.Trim(spec.Path.Value, "\"`")
	if spec.Name != nil {
		return spec.Name.Name, p
	}
	return s.pkgName(p), p
}

// dropReimports removes from the cell the imports an earlier cell already
// made (same path under the same name): notebooks import a package again
// in many cells, and re-run cells, but yaegi rejects a second import of a
// binary package into the one file scope all cells share ("fmt/_.go
// redeclared in this block"). An import that binds a name an earlier cell
// bound to another path is an error that says what to do.
func (s *Session) dropReimports(pc *cell.Parsed) *Error {
	if pc.Decls == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := pc.Decls.Decls[:0]
	for _, d := range pc.Decls.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			kept = append(kept, d)
			continue
		}
		var specs []ast.Spec
		for _, sp := range g.Specs {
			spec := sp.(*ast.ImportSpec)
			name, p := s.importName(spec)
			old, bound := s.imports[name]
			switch {
			case name == "_" || name == "." || !bound:
				specs = append(specs, sp)
			case old != p:
				return importConflict(pc, spec, name, p, old)
			}
		}
		if len(specs) > 0 {
			g.Specs = specs
			kept = append(kept, g)
		}
	}
	pc.Decls.Decls = kept
	if len(kept) == 0 {
		pc.Decls = nil
	}
	return nil
}

// importConflict reports an import of path p under a name an earlier cell
// bound to the package old.
func importConflict(pc *cell.Parsed, spec *ast.ImportSpec, name, p, old string) *Error {
	alias := path.Base(p)
	if alias == name {
		alias = name + "2"
	}
	return cell.Errorf(cell.CompileError, "%s: import %q: the name %s is already the package %q, imported by an earlier cell. "+
		"Import it under another name (import %s %q), or restart the kernel to start over",
		pc.Pos(spec.Pos()), p, name, old, alias, p)
}

// typeDefs returns the types and methods f declares, keyed by name ("T",
// "T.M"), with their printed text (empty when fset is nil).
func typeDefs(f *ast.File, fset *token.FileSet) map[string]string {
	defs := map[string]string{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				defs[recvName(d.Recv.List[0].Type)+"."+d.Name.Name] = printed(fset, d)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					defs[ts.Name.Name] = printed(fset, ts)
				}
			}
		}
	}
	return defs
}

// printed is the text of node n, with the layout go/printer gives it.
func printed(fset *token.FileSet, n ast.Node) string {
	if fset == nil {
		return ""
	}
	var b strings.Builder
	if err := printer.Fprint(&b, fset, n); err != nil {
		return fmt.Sprintf("%p", n) // unprintable: never equal to an earlier text
	}
	return b.String()
}

// checkTypeRedefs rejects a cell that declares a type or method an earlier
// cell declared differently: yaegi keeps the first definition of both for
// the whole session, so the new one would silently not take effect (or
// fail later with a confusing error). Declaring the same text again, as
// re-running a cell does, is fine. It returns the cell's types and methods
// with their text (taken before the rewrites change function bodies), for
// noteTypes.
func (s *Session) checkTypeRedefs(pc *cell.Parsed) (map[string]string, *Error) {
	if pc.Decls == nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range pc.Decls.Decls {
		for name, text := range typeDefs(&ast.File{Decls: []ast.Decl{d}}, pc.Fset) {
			old, ok := s.typeText[name]
			if !ok || old == text {
				continue
			}
			what, instead := "type "+name, fmt.Sprintf("give the new type a new name (%s2)", name)
			if strings.Contains(name, ".") {
				what, instead = "method "+name, "give the method a new name, or make it a func"
			}
			return nil, cell.Errorf(cell.CompileError, "%s: %s is already defined by an earlier cell, differently. "+
				"The interpreter keeps the first definition of a type or method for the whole session, so this one would not take effect: "+
				"%s, or restart the kernel and run the cells again", pc.Pos(d.Pos()), what, instead)
		}
	}
	return typeDefs(pc.Decls, pc.Fset), nil
}

// noteTypes records the types and methods of f, a piece of a cell that ran,
// with their text in cellDefs.
func (s *Session) noteTypes(f *ast.File, cellDefs map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name := range typeDefs(f, nil) {
		if text, ok := cellDefs[name]; ok {
			s.typeText[name] = text
		}
	}
}
