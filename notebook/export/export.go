// Package export turns a tick notebook into a Go program: the code cells'
// imports merged into one import block, their declarations (types,
// functions, constants) at package level, their statements in func main
// in cell order, and each cell's trailing value printed as the notebook
// shows it. Magic lines (%name, %%name cells, !cmd) are commented out with
// a note: they are tick commands, not Go. For a notebook without magics,
// `go run` of the program prints what the notebook's cells print.
//
// Notebook semantics that plain Go lacks are bridged: a variable a later
// cell redefines with := is assigned instead; a function that uses a
// variable cells define becomes a closure in main (package-level code
// cannot see main's variables); every variable of main is marked used.
package export

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/printer"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/notebook"
)

// Module is tick's module path: cells import its packages by short paths
// (tick/display, tick/runtime/tensor) that a Go program spells in full.
const Module = "github.com/tick-kernel/tick"

// showFunc prints a cell's value as the notebook's text/plain shows it.
const showFunc = "showCellValue"

// CellError is a code cell that is not Go the exporter can parse.
type CellError struct {
	Cell int // 1-based among code cells
	Err  error
}

func (e *CellError) Error() string {
	return fmt.Sprintf("export: code cell %d: %v (fix the cell, or run the notebook with tick to see the error)", e.Cell, e.Err)
}

func (e *CellError) Unwrap() error { return e.Err }

// Program is an exported notebook.
type Program struct {
	// Source is the program's main.go, gofmt-formatted.
	Source []byte
	// Magics is the number of magic lines commented out; when it is not
	// zero the program's output differs from the notebook's.
	Magics int
	// TickImports reports whether the program imports tick's packages (its
	// go.mod then needs github.com/tick-kernel/tick).
	TickImports bool
}

// item is a statement of main or a comment line, in cell order.
type item struct {
	comment string
	stmt    ast.Stmt
}

type exporter struct {
	fset    *token.FileSet
	imports map[string]string // path → name ("" for the default)
	decls   []ast.Decl
	main    []item
	defined map[string]bool // variables (and closures) of main
	order   []string        // defined, in order of definition
	funcs   map[string]*ast.FuncDecl
	at      map[ast.Decl]int // the index in main of the cell that declared it
	magics  int
	show    bool
	// cellStart is the index in main of the current cell's first item.
	cellStart int
}

// Export converts nb. name (the notebook's file name) goes into the
// header comment.
func Export(nb *notebook.Notebook, name string) (*Program, error) {
	e := &exporter{fset: token.NewFileSet(), imports: map[string]string{}, defined: map[string]bool{}, funcs: map[string]*ast.FuncDecl{}, at: map[ast.Decl]int{}}
	n := 0
	for _, c := range nb.Cells {
		if c.Type != notebook.Code {
			continue
		}
		n++
		if err := e.cell(n, c.Source); err != nil {
			return nil, err
		}
	}
	e.closures()
	src, tick := e.render(name)
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("export: the program does not format (%v); this is a bug in tick export:\n%s", err, src)
	}
	return &Program{Source: out, Magics: e.magics, TickImports: tick}, nil
}

// cell adds code cell n.
func (e *exporter) cell(n int, src string) error {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	e.cellStart = len(e.main)
	e.main = append(e.main, item{comment: fmt.Sprintf("// cell %d", n)})
	c := &cell.Cell{N: n, Code: src}
	for _, seg := range cell.Segments(c) {
		if seg.Kind != cell.Go {
			e.magic(seg)
			continue
		}
		pc, err := cell.Parse(e.fset, seg.Span.Padded())
		if err != nil {
			return &CellError{Cell: n, Err: err}
		}
		e.parsed(pc)
	}
	return nil
}

// magic comments a magic segment out.
func (e *exporter) magic(seg cell.Segment) {
	e.magics++
	text := seg.Span.Text()
	if seg.Kind == cell.CellMagic {
		text = strings.TrimRight(text+"\n"+seg.Body.Text(), "\n")
	}
	for i, l := range strings.Split(text, "\n") {
		prefix := "// tick magic, not part of the Go program: "
		if i > 0 {
			prefix = "// | "
		}
		e.main = append(e.main, item{comment: prefix + l})
	}
}

func (e *exporter) parsed(pc *cell.Parsed) {
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				for _, sp := range g.Specs {
					is := sp.(*ast.ImportSpec)
					path, _ := strconv.Unquote(is.Path.Value)
					name := ""
					if is.Name != nil {
						name = is.Name.Name
					}
					e.imports[path] = name
				}
				continue
			}
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				e.funcs[fd.Name.Name] = fd
			}
			e.decls = append(e.decls, d)
			e.at[d] = e.cellStart
		}
	}
	for _, st := range pc.Stmts {
		e.main = append(e.main, item{stmt: e.define(st)})
	}
	if pc.Value != nil {
		e.value(pc.Value)
	}
}

// define records the variables a top-level statement defines; a := whose
// variables all exist already (a later cell redefining them) becomes =.
func (e *exporter) define(st ast.Stmt) ast.Stmt {
	var names []string
	switch s := st.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return st
		}
		fresh := false
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
				names = append(names, id.Name)
				fresh = fresh || !e.defined[id.Name]
			}
		}
		if !fresh {
			s.Tok = token.ASSIGN
		}
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					names = append(names, id.Name)
				}
			}
		}
	}
	for _, name := range names {
		if name != "_" && !e.defined[name] {
			e.defined[name] = true
			e.order = append(e.order, name)
		}
	}
	return st
}

// value prints the cell's trailing expression as the notebook shows it,
// when the exporter knows it has one value: expressions that are not
// calls, and calls of the notebook's own functions with one result. Other
// calls run as statements (the notebook shows a value only for a call
// with one result).
func (e *exporter) value(x ast.Expr) {
	if call, ok := x.(*ast.CallExpr); ok && !e.oneResult(call) {
		e.main = append(e.main, item{stmt: &ast.ExprStmt{X: x}})
		return
	}
	e.show = true
	e.main = append(e.main, item{stmt: &ast.ExprStmt{X: &ast.CallExpr{Fun: ast.NewIdent(showFunc), Args: []ast.Expr{x}}}})
}

// oneResult reports whether call calls a function of the notebook that
// has exactly one result, or a conversion to a basic type.
func (e *exporter) oneResult(call *ast.CallExpr) bool {
	id, ok := call.Fun.(*ast.Ident)
	if !ok {
		return false
	}
	if fd, ok := e.funcs[id.Name]; ok {
		return fd.Type.Results != nil && fd.Type.Results.NumFields() == 1
	}
	switch id.Name {
	case "len", "cap", "string", "int", "int64", "float64", "float32", "uint", "byte", "rune", "complex", "real", "imag", "min", "max", "append":
		return true
	}
	return false
}

// closures moves functions that use main's variables (or such functions)
// into main, as closures declared at the start of the cell that declared
// them.
func (e *exporter) closures() {
	moved := map[*ast.FuncDecl]bool{}
	for changed := true; changed; {
		changed = false
		for _, d := range e.decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Type.TypeParams != nil || moved[fd] || !e.uses(fd.Body) {
				continue
			}
			moved[fd] = true
			e.defined[fd.Name.Name] = true
			e.order = append(e.order, fd.Name.Name)
			changed = true
		}
	}
	if len(moved) == 0 {
		return
	}
	kept := e.decls[:0]
	lits := map[int][]item{} // closures by the main index of their cell
	for _, d := range e.decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !moved[fd] {
			kept = append(kept, d)
			continue
		}
		// In the cell that declared it, before the cell's statements: a
		// notebook function sees the variables of earlier cells.
		at := e.at[d] + 1
		lits[at] = append(lits[at],
			item{stmt: &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent(fd.Name.Name)}, Type: fd.Type}}}}},
			item{stmt: &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(fd.Name.Name)}, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.FuncLit{Type: fd.Type, Body: fd.Body}}}})
	}
	e.decls = kept
	var main []item
	for i, it := range e.main {
		main = append(main, lits[i]...)
		main = append(main, it)
	}
	e.main = append(main, lits[len(e.main)]...)
}

// uses reports whether body refers to one of main's names.
func (e *exporter) uses(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(x.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && e.defined[id.Name] {
					found = true
				}
				return !found
			})
			return false
		case *ast.Ident:
			if e.defined[x.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// render writes the program; it reports whether it imports tick.
func (e *exporter) render(name string) ([]byte, bool) {
	var body bytes.Buffer
	for _, d := range e.decls {
		e.print(&body, d)
		body.WriteString("\n\n")
	}
	body.WriteString("func main() {\n")
	for _, it := range e.main {
		if it.stmt == nil {
			body.WriteString(it.comment + "\n")
			continue
		}
		e.print(&body, it.stmt)
		body.WriteString("\n")
	}
	if len(e.order) > 0 {
		body.WriteString("// The notebook's variables, used or not.\n")
		for _, v := range e.order {
			body.WriteString("_ = " + v + "\n")
		}
	}
	body.WriteString("}\n")
	if e.show {
		if _, ok := e.imports["fmt"]; !ok { // the printing helper needs fmt, under the name a cell gave it if any
			e.imports["fmt"] = ""
		}
		fmt.Fprintf(&body, `
// %s prints a cell's value as the notebook shows it (Go's %%v; strings quoted).
func %s(v any) {
	if s, ok := v.(string); ok {
		fmt.Printf("%%q\n", s)
		return
	}
	fmt.Println(v)
}
`, showFunc, showFunc)
	}
	code := body.String()
	var out bytes.Buffer
	fmt.Fprintf(&out, "// Code exported by `tick export` from %s: the notebook's imports, its\n", name)
	out.WriteString("// declarations at package level, its cells' statements in main.\n\npackage main\n\n")
	tick := false
	paths := make([]string, 0, len(e.imports))
	for p := range e.imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var std, other []string // import lines: the standard library first, as goimports groups them
	for _, p := range paths {
		name := e.imports[p]
		full := p
		if p == "tick" || strings.HasPrefix(p, "tick/") {
			full = Module + strings.TrimPrefix(p, "tick")
		}
		if name == "" && !usesPackage(code, pkgName(p)) {
			continue // imported by a cell, used by none
		}
		line := fmt.Sprintf("\t%q\n", full)
		if name != "" {
			line = fmt.Sprintf("\t%s %q\n", name, full)
		}
		if strings.Contains(strings.Split(full, "/")[0], ".") {
			tick = tick || strings.HasPrefix(full, Module)
			other = append(other, line)
		} else {
			std = append(std, line)
		}
	}
	out.WriteString("import (\n" + strings.Join(std, ""))
	if len(std) > 0 && len(other) > 0 {
		out.WriteString("\n")
	}
	out.WriteString(strings.Join(other, ""))
	out.WriteString(")\n\n")
	out.WriteString(code)
	return out.Bytes(), tick
}

func (e *exporter) print(b *bytes.Buffer, n ast.Node) {
	if err := printer.Fprint(b, e.fset, n); err != nil {
		fmt.Fprintf(b, "/* tick export could not print this: %v */", err)
	}
}

// pkgName is the name a package is imported under by default: the last
// element of its path without a major-version suffix.
func pkgName(path string) string {
	el := path[strings.LastIndexByte(path, '/')+1:]
	if len(el) > 1 && el[0] == 'v' && strings.Trim(el[1:], "0123456789") == "" && strings.Contains(path, "/") {
		p := path[:strings.LastIndexByte(path, '/')]
		el = p[strings.LastIndexByte(p, '/')+1:]
	}
	return el
}

// usesPackage reports whether code refers to name. (A package whose name
// differs from its path counts as used: the compiler says otherwise.)
func usesPackage(code, name string) bool {
	if !token.IsIdentifier(name) {
		return true
	}
	return strings.Contains(code, name+".")
}
