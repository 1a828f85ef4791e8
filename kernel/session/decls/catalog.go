// Package decls is the catalog of what a session's cells declared: the
// functions (the cell that declared each, and its source, for
// redefinition), the types and methods with their text, the constants,
// the imports, and the packages cells can import with their names. It
// owns them behind its own lock (a leaf in the session's lock order): the
// engine notes what each cell that ran declared; completion, inspection,
// error hints and the rewrites read it.
package decls

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"path"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Catalog is one session's catalog. Its methods are safe for concurrent
// use.
type Catalog struct {
	mu       sync.Mutex
	funcCell map[string]int        // function name → the cell that declared it
	funcSrc  map[string]funcSource // source of the functions cells declared (funcs.go)
	imports  map[string]string     // package name → import path, of successful cells
	pkgNames map[string]string     // import path → package name, of the symbol tables and compiled packages
	builtin  map[string]bool       // import paths of the symbol tables the session started with
	typeText map[string]string     // type or method name ("T", "T.M") → its declaration text
	declText map[string]string     // func/type/const name ("T.M" for methods) → its declaration text
	ran      []string              // Go code of the cells that ran, for the assistant
}

// New returns the catalog of a session whose interpreter starts with the
// symbol tables tables ("import/path/name" → symbols): their packages are
// the ones cells import without the compiled-Go importer.
func New(tables []map[string]map[string]reflect.Value) *Catalog {
	c := &Catalog{funcCell: map[string]int{}, funcSrc: map[string]funcSource{}, imports: map[string]string{},
		pkgNames: PackageNames(tables), builtin: map[string]bool{}, typeText: map[string]string{}, declText: map[string]string{}}
	for p := range c.pkgNames {
		c.builtin[p] = true
	}
	return c
}

// PackageNames maps each import path of the symbol tables to its package
// name: a table key is "import/path/name".
func PackageNames(tables []map[string]map[string]reflect.Value) map[string]string {
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

// AddPackages records the packages of more symbol tables (compiled Go).
func (c *Catalog) AddPackages(tables map[string]map[string]reflect.Value) {
	names := PackageNames([]map[string]map[string]reflect.Value{tables})
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, n := range names {
		c.pkgNames[p] = n
	}
}

// Builtin reports whether the package at path p is one of the symbol
// tables the session started with.
func (c *Catalog) Builtin(p string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.builtin[p]
}

// Packages returns the packages cells can import: import path → name.
func (c *Catalog) Packages() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return clone(c.pkgNames)
}

// NoteDecls records what a successfully run piece of a cell declared, for
// completion and inspection: imports, and the text of func, type and const
// declarations.
func (c *Catalog) NoteDecls(f *ast.File, fset *token.FileSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				name = cell.TypeName(d.Recv.List[0].Type) + "." + name
			}
			c.declText[name] = nodeText(fset, &ast.FuncDecl{Recv: d.Recv, Name: d.Name, Type: d.Type})
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ImportSpec:
					name, p := c.importName(sp)
					if name != "_" && name != "." {
						c.imports[name] = p
					}
				case *ast.TypeSpec:
					c.declText[sp.Name.Name] = "type " + nodeText(fset, sp)
				case *ast.ValueSpec:
					if d.Tok == token.CONST {
						for _, n := range sp.Names {
							c.declText[n.Name] = "const " + nodeText(fset, sp)
						}
					}
				}
			}
		}
	}
}

func nodeText(fset *token.FileSet, n any) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		return ""
	}
	t := b.String()
	if len(t) > 2000 {
		t = t[:2000] + "…"
	}
	return t
}

// Decl returns the declaration text of what cells declared under name: a
// function, type or constant ("f", "T"), or a method ("T.M").
func (c *Catalog) Decl(name string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	text, ok := c.declText[name]
	return text, ok
}

// Names returns the top-level names cells declared (functions, types,
// constants) and the names they imported packages under.
func (c *Catalog) Names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for n := range c.imports {
		names = append(names, n)
	}
	for n := range c.declText {
		if !strings.Contains(n, ".") {
			names = append(names, n)
		}
	}
	return names
}

// HasMethod reports whether a cell declared a method named m on some
// type.
func (c *Catalog) HasMethod(m string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for name := range c.declText {
		if strings.HasSuffix(name, "."+m) {
			return true
		}
	}
	return false
}

// MethodDecls returns the declaration texts of the methods cells declared
// on type name, sorted.
func (c *Catalog) MethodDecls(name string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for k, v := range c.declText {
		if strings.HasPrefix(k, name+".") {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// MethodsOf returns the names of the methods cells declared on type name,
// sorted.
func (c *Catalog) MethodsOf(name string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for k := range c.declText {
		if m, ok := strings.CutPrefix(k, name+"."); ok {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// MethodNames returns the names of all methods cells declared, sorted.
func (c *Catalog) MethodNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for k := range c.declText {
		if i := strings.IndexByte(k, '.'); i >= 0 && !seen[k[i+1:]] {
			seen[k[i+1:]] = true
			out = append(out, k[i+1:])
		}
	}
	sort.Strings(out)
	return out
}

// ProbeTypes returns the cell-declared types a variable can be probed
// against: named non-interface, non-generic, non-alias types, sorted.
func (c *Catalog) ProbeTypes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for name, text := range c.declText {
		if strings.Contains(name, ".") || !strings.HasPrefix(text, "type "+name+" ") {
			continue
		}
		rest := strings.TrimPrefix(text, "type "+name+" ")
		if strings.HasPrefix(rest, "interface") || strings.HasPrefix(rest, "=") {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// NoteRan records the Go code of a cell that ran, for the assistant.
func (c *Catalog) NoteRan(code string) {
	c.mu.Lock()
	c.ran = append(c.ran, code)
	c.mu.Unlock()
}

// Ran returns the Go code of the cells that ran, from index from on.
func (c *Catalog) Ran(from int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if from >= len(c.ran) {
		return nil
	}
	return append([]string(nil), c.ran[from:]...)
}

func clone(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// pkgName is the name an import of path p binds when the import gives no
// name; c.mu is held.
func (c *Catalog) pkgName(p string) string {
	if name, ok := c.pkgNames[p]; ok {
		return name
	}
	return path.Base(p)
}
