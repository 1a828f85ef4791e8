package decls

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// The interpreter binds a call to the function it names when it compiles
// the caller: a function redefined in a later cell is not seen by the
// functions declared before that call it. So the catalog keeps the source
// of each function a cell declares, and when a cell redefines a function
// the engine declares again, from their source, the earlier functions that
// call it, directly or through each other (Stale).

// funcSource is the source of a top-level function a cell declared.
type funcSource struct {
	cell  int
	code  string
	calls map[string]bool // the names it calls
}

// Func is a function to declare again: its name, the cell that declared
// it and its source.
type Func struct {
	Name string
	Cell int
	Code string
}

// NoteFuncSources records the source of the functions of pc (cell n),
// before the rewrites change them, and returns those of them that an
// earlier cell declared (the cell redefines them).
func (c *Catalog) NoteFuncSources(pc *cell.Parsed, n int) (redefined []string) {
	if pc.Decls == nil {
		return nil
	}
	for _, d := range pc.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || fd.Name.Name == "_" {
			continue
		}
		code := printed(pc.Fset, fd)
		calls := map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok {
					calls[id.Name] = true
				}
			}
			return true
		})
		c.mu.Lock()
		if _, ok := c.funcCell[fd.Name.Name]; ok {
			redefined = append(redefined, fd.Name.Name)
		}
		c.funcSrc[fd.Name.Name] = funcSource{cell: n, code: code, calls: calls}
		c.mu.Unlock()
	}
	return redefined
}

// NoteFuncs records the functions f, a piece of cell n that ran,
// declares.
func (c *Catalog) NoteFuncs(f *ast.File, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			c.funcCell[fd.Name.Name] = n
		}
	}
}

// FuncCell returns the cell that declared function name.
func (c *Catalog) FuncCell(name string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.funcCell[name]
	return n, ok
}

// Stale returns the functions of earlier cells that call one of redefined
// (transitively), in the order to declare them again: callees before
// callers, so that a caller's new code binds the callee's new code.
func (c *Catalog) Stale(redefined []string) []Func {
	c.mu.Lock()
	stale, declared := map[string]bool{}, map[string]bool{}
	for _, r := range redefined {
		stale[r], declared[r] = true, true
	}
	for changed := true; changed; {
		changed = false
		for name, f := range c.funcSrc {
			if stale[name] {
				continue
			}
			for callee := range f.calls {
				if stale[callee] {
					stale[name], changed = true, true
					break
				}
			}
		}
	}
	var callers []string
	srcs := map[string]funcSource{}
	for name := range stale {
		if !declared[name] {
			callers = append(callers, name)
			srcs[name] = c.funcSrc[name]
		}
	}
	c.mu.Unlock()
	sort.Strings(callers)
	var out []Func
	done := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if done[name] {
			return
		}
		done[name] = true
		callees := make([]string, 0, len(srcs[name].calls))
		for callee := range srcs[name].calls {
			callees = append(callees, callee)
		}
		sort.Strings(callees)
		for _, callee := range callees {
			if _, ok := srcs[callee]; ok {
				visit(callee)
			}
		}
		f := srcs[name]
		out = append(out, Func{Name: name, Cell: f.cell, Code: f.code})
	}
	for _, name := range callers {
		visit(name)
	}
	return out
}

// DeclaredIn returns those of names that f declares as functions.
func DeclaredIn(f *ast.File, names []string) []string {
	var out []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			for _, n := range names {
				if n == fd.Name.Name {
					out = append(out, n)
				}
			}
		}
	}
	return out
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

// CheckTypeRedefs rejects a cell that declares a type or method an earlier
// cell declared differently: yaegi keeps the first definition of both for
// the whole session, so the new one would silently not take effect (or
// fail later with a confusing error). Declaring the same text again, as
// re-running a cell does, is fine. It returns the cell's types and methods
// with their text (taken before the rewrites change function bodies), for
// NoteTypes.
func (c *Catalog) CheckTypeRedefs(pc *cell.Parsed) (map[string]string, *cell.Error) {
	if pc.Decls == nil {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range pc.Decls.Decls {
		for name, text := range typeDefs(&ast.File{Decls: []ast.Decl{d}}, pc.Fset) {
			old, ok := c.typeText[name]
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

// NoteTypes records the types and methods of f, a piece of a cell that ran,
// with their text in cellDefs (from CheckTypeRedefs).
func (c *Catalog) NoteTypes(f *ast.File, cellDefs map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for name := range typeDefs(f, nil) {
		if text, ok := cellDefs[name]; ok {
			c.typeText[name] = text
		}
	}
}
