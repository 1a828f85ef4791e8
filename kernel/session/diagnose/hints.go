package diagnose

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// This file adds "what to do next" to errors whose interpreter message
// leaves the user guessing: a package used without its import, a
// misspelled package member.

var (
	undefinedName = regexp.MustCompile(`undefined: ([\pL_][\pL\pN_]*)$`)
	noSymbol      = regexp.MustCompile(`package ([\pL_][\pL\pN_]*) "[^"]*" has no symbol ([\pL_][\pL\pN_]*)$`)
)

// withHint returns e, an error of the Go code of c, with a hint appended
// to its message and first traceback line, when the session knows one.
func (d *Diagnoser) withHint(e *cell.Error, c cell.Cell) *cell.Error {
	if e == nil || e.Name != cell.CompileError {
		return e
	}
	value := e.Value
	if strings.HasSuffix(value, "definition loop") {
		// yaegi's message for a type or conversion of a package that is not
		// imported (var w io.Writer): say what Go says.
		if pkg, at := d.unimportedUse(c); pkg != "" {
			value = at.String() + ": undefined: " + pkg
		}
	}
	out := *e
	if g := d.genericHint(value, c); g != "" {
		out.Value = g
	} else if hint := d.compileHint(value); hint != "" {
		out.Value = value + "; " + hint
	} else {
		return e
	}
	out.Traceback = append([]string{string(out.Name) + ": " + out.Value}, e.Traceback[min(1, len(e.Traceback)):]...)
	return &out
}

func (d *Diagnoser) compileHint(msg string) string {
	if m := undefinedName.FindStringSubmatch(msg); m != nil {
		return d.importHint(m[1])
	}
	if m := noSymbol.FindStringSubmatch(msg); m != nil {
		var names []string
		for name := range d.scope.Symbols(m[1]) {
			names = append(names, name)
		}
		if near := cell.Nearest(m[2], names); len(near) > 0 {
			return "did you mean " + m[1] + "." + strings.Join(near, " or "+m[1]+".") + "?"
		}
	}
	return ""
}

// unimportedUse finds the first use in the code of c of a package name
// tick knows that no cell imported and that names nothing else in the
// session, with its position in the cell.
func (d *Diagnoser) unimportedUse(c cell.Cell) (pkg string, at cell.Pos) {
	if cell.HasMagic(c.Code) {
		return "", at
	}
	pc, err := cell.Parse(token.NewFileSet(), c)
	if err != nil {
		return "", at
	}
	globals := d.scope.Globals()
	known := d.decls.Importable(func(string) bool { return false }) // neither imported nor declared
	find := func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || pkg != "" {
			return pkg == ""
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || !known[id.Name] {
			return true
		}
		if _, global := globals[id.Name]; !global {
			pkg, at = id.Name, pc.Pos(id.Pos())
		}
		return true
	}
	nodes := pc.Nodes()
	// Declarations and statements are parsed as two files: order by cell position.
	pos := func(n ast.Node) int { p := pc.Fset.Position(n.Pos()); return p.Line<<16 + p.Column }
	sort.Slice(nodes, func(i, j int) bool { return pos(nodes[i]) < pos(nodes[j]) })
	for _, n := range nodes {
		ast.Inspect(n, find)
	}
	return pkg, at
}

// importHint names the imports that would define name, when name is the
// name of a package tick knows and no cell imported it.
func (d *Diagnoser) importHint(name string) string {
	_, imported := d.decls.Imported(name)
	var paths []string
	if !imported {
		for p, n := range d.decls.Packages() {
			if n == name && !strings.Contains(p, "internal") && !d.hidden(p) {
				paths = append(paths, fmt.Sprintf("import %q", p))
			}
		}
	}
	if len(paths) == 0 {
		return ""
	}
	sort.Slice(paths, func(i, j int) bool {
		return len(paths[i]) < len(paths[j]) || len(paths[i]) == len(paths[j]) && paths[i] < paths[j]
	})
	if len(paths) > 3 {
		paths = paths[:3]
	}
	return "the package is not imported: add " + strings.Join(paths, " or ")
}
