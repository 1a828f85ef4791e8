package session

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"path"
	"reflect"
	"strings"
	"time"

	"github.com/tick-kernel/tick/display"
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
				defs[cell.TypeName(d.Recv.List[0].Type)+"."+d.Name.Name] = printed(fset, d)
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

// Importer provides packages that the symbol tables lack: imported
// modules, compiled as plugins (kernel/gocompile). The session asks it
// for every such import of a cell, re-imports included (a local module
// whose source changed gives a new version).
type Importer interface {
	// Import returns the package at path; progress may go to sink. An
	// error wrapping ErrNotProvided leaves the import to the interpreter
	// (and its "unknown package" error).
	Import(ctx context.Context, path string, sink Sink) (Imported, error)
}

// Imported is what an Importer gives for one import.
type Imported struct {
	// Symbols are yaegi symbol tables to register ("path/name" keys).
	// Changed says they are new (a first import or a new version): an
	// unchanged package is not registered again.
	Symbols map[string]map[string]reflect.Value
	Changed bool
	// Source says the package is to be interpreted from its source, laid
	// out under Options.GoPath.
	Source bool
}

// ErrNotProvided is what an Importer returns (wrapped) for a path it does
// not provide.
var ErrNotProvided = errors.New("session: package not provided")

// importCompiled asks the Importer for the cell's imports that the symbol
// tables lack and registers what it returns, so that the interpreter
// then imports them like tick's own packages. This is the one place the
// engine meets compiled Go.
func (s *Session) importCompiled(pc *cell.Parsed) *Error {
	if s.opts.Importer == nil || pc.Decls == nil {
		return nil
	}
	for _, d := range pc.Decls.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		for _, sp := range g.Specs {
			spec := sp.(*ast.ImportSpec)
			p := strings.Trim(spec.Path.Value, "\"`")
			if s.builtin[p] || p == "C" {
				continue
			}
			if err := s.importOne(p); err != nil {
				return cell.Errorf(cell.CompileError, "%s: import %q: %v", pc.Pos(spec.Pos()), p, err)
			}
		}
	}
	return nil
}

// importOne imports p through the Importer, interruptibly.
func (s *Session) importOne(p string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if s.Interrupted() {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	var sink Sink = discardSink{}
	if c := s.io.Current(); c != nil {
		sink = c
	}
	imp, err := s.opts.Importer.Import(ctx, p, sink)
	switch {
	case errors.Is(err, ErrNotProvided):
		return nil
	case err != nil:
		if s.Interrupted() {
			return fmt.Errorf("stopped by an interrupt while building it; nothing was imported")
		}
		return err
	case !imp.Changed || imp.Symbols == nil:
		return nil
	}
	return s.registerSymbols(imp.Symbols)
}

// registerSymbols makes compiled packages' symbol tables importable.
func (s *Session) registerSymbols(tables map[string]map[string]reflect.Value) error {
	if err := s.ip.Use(tables); err != nil {
		return fmt.Errorf("registering its symbols: %w", err)
	}
	names := packageNames([]map[string]map[string]reflect.Value{tables})
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, n := range names {
		s.pkgNames[p] = n
	}
	return nil
}

// discardSink drops output (an import outside any cell).
type discardSink struct{}

func (discardSink) Stream(string, string) {}
func (discardSink) Publish(display.Data)  {}
func (discardSink) Update(display.Data)   {}
func (discardSink) Clear(bool)            {}

// importsCopy returns the package names successful cells imported.
func (s *Session) importsCopy() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]string, len(s.imports))
	for k, v := range s.imports {
		m[k] = v
	}
	return m
}
