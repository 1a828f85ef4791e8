package decls

import (
	"go/ast"
	"go/token"
	"path"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// PkgName is the name an import of path p binds when the import gives no
// name.
func (c *Catalog) PkgName(p string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pkgName(p)
}

// ImportName is the name spec binds in the cells' scope, and its path.
func (c *Catalog) ImportName(spec *ast.ImportSpec) (name, p string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.importName(spec)
}

func (c *Catalog) importName(spec *ast.ImportSpec) (name, p string) {
	p = strings.Trim(spec.Path.Value, "\"`")
	if spec.Name != nil {
		return spec.Name.Name, p
	}
	return c.pkgName(p), p
}

// Imported returns the import path a cell imported under name.
func (c *Catalog) Imported(name string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.imports[name]
	return p, ok
}

// Imports returns the package names successful cells imported, with their
// paths.
func (c *Catalog) Imports() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return clone(c.imports)
}

// Importable returns the names of the packages cells can import (leaving
// out those whose path skip reports) that no cell imported and no cell
// declared a name for: a selector on one of them in a cell is a package
// used without its import.
func (c *Catalog) Importable(skip func(path string) bool) map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	known := map[string]bool{}
	for p, n := range c.pkgNames {
		if !skip(p) {
			known[n] = true
		}
	}
	for n := range c.imports {
		delete(known, n)
	}
	for n := range c.declText {
		delete(known, n)
	}
	return known
}

// DropReimports removes from the cell the imports an earlier cell already
// made (same path under the same name): notebooks import a package again
// in many cells, and re-run cells, but yaegi rejects a second import of a
// binary package into the one file scope all cells share ("fmt/_.go
// redeclared in this block"). An import that binds a name an earlier cell
// bound to another path is an error that says what to do.
func (c *Catalog) DropReimports(pc *cell.Parsed) *cell.Error {
	if pc.Decls == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
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
			name, p := c.importName(spec)
			old, bound := c.imports[name]
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
func importConflict(pc *cell.Parsed, spec *ast.ImportSpec, name, p, old string) *cell.Error {
	alias := path.Base(p)
	if alias == name {
		alias = name + "2"
	}
	return cell.Errorf(cell.CompileError, "%s: import %q: the name %s is already the package %q, imported by an earlier cell. "+
		"Import it under another name (import %s %q), or restart the kernel to start over",
		pc.Pos(spec.Pos()), p, name, old, alias, p)
}
