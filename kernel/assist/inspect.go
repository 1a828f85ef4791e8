package assist

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Inspect describes the name at cursor (or, between a call's
// parentheses, the function called): its declaration with parameter
// names, its doc comment (go/doc for packages, the // comment above a
// cell's declaration), the type and value of a variable, the method set
// of a type. detail > 0 adds the source of functions and types the
// cells declared.
func (a *Assistant) Inspect(code string, cursor, detail int) (res Help) {
	a.reqMu.Lock()
	defer a.reqMu.Unlock()
	defer recoverTo(a, &res)
	a.used.Store(true)
	cursor = max(0, min(cursor, len(code)))
	if _, prefix, ok := importPathAt(code, cursor); ok {
		rest := code[cursor:]
		if i := strings.IndexAny(rest, "\"`\n"); i >= 0 {
			prefix += rest[:i]
		}
		return a.packageHelp(prefix)
	}
	end := cell.IdentAfter(code, cursor)
	if identStart(code, end) == end {
		end = calleeEnd(code, cursor)
		if end < 0 {
			return Help{}
		}
	}
	c := a.check(code, end)
	if c == nil {
		return Help{}
	}
	obj := c.info.Uses[c.target]
	if obj == nil {
		obj = c.info.Defs[c.target]
	}
	if obj == nil {
		if sel, ok := c.selector(); ok {
			if id, ok := sel.X.(*ast.Ident); ok && c.info.Uses[id] == nil {
				for _, p := range a.pkgs.byName[id.Name] {
					if pkg, err := a.imp.Import(p); err == nil && pkg != nil {
						if obj = pkg.Scope().Lookup(c.target.Name); obj != nil {
							break
						}
					}
				}
			}
		}
	}
	if v, ok := obj.(*types.Var); obj == nil || ok && v.Type() == types.Typ[types.Invalid] {
		return Help{} // unknown, or a variable the assistant cannot type (set by a magic): the session knows it by value
	}
	return a.describe(c, obj, code, detail)
}

// calleeEnd finds, for a cursor between a call's parentheses, the end of
// the called name (-1 when the cursor is in no call).
func calleeEnd(code string, cursor int) int {
	d := 0
	for i := cursor - 1; i >= 0; i-- {
		switch code[i] {
		case ')':
			d++
		case '(':
			if d == 0 {
				j := i
				for j > 0 && code[j-1] == ' ' {
					j--
				}
				if identStart(code, j) < j {
					return j
				}
				return -1
			}
			d--
		case '\n':
			if d == 0 && i < cursor-1 {
				return -1
			}
		}
	}
	return -1
}

// packageHelp describes the package at path.
func (a *Assistant) packageHelp(path string) Help {
	p := a.docPkg(path)
	if p == nil {
		return Help{}
	}
	head := fmt.Sprintf("package %s // import %q", p.Name, path)
	text := strings.TrimSpace(string(p.Text(p.Doc)))
	md := strings.TrimSpace(string(p.Markdown(p.Doc)))
	return help(head, text, md, "")
}

// help assembles the plain and Markdown texts: a Go declaration, the doc,
// and more (plain text, shown as a code block in Markdown).
func help(decl, docText, docMD, more string) Help {
	var t, m strings.Builder
	t.WriteString(decl)
	fmt.Fprintf(&m, "```go\n%s\n```\n", decl)
	if docText != "" {
		fmt.Fprintf(&t, "\n\n%s", docText)
		fmt.Fprintf(&m, "\n%s\n", docMD)
	}
	if more != "" {
		fmt.Fprintf(&t, "\n\n%s", more)
		fmt.Fprintf(&m, "\n```go\n%s\n```\n", more)
	}
	return Help{Found: true, Text: t.String(), Markdown: m.String()}
}

// describe writes the help for obj.
func (a *Assistant) describe(c *checked, obj types.Object, code string, detail int) Help {
	q := c.qualifier()
	decl := types.ObjectString(obj, q)
	if pn, ok := obj.(*types.PkgName); ok {
		return a.packageHelp(pn.Imported().Path())
	}
	var docText, docMD, more string
	var extra []string
	user := obj.Pkg() != nil && obj.Pkg().Path() == pkgPath
	switch {
	case obj.Pkg() == nil: // the universe: documented in package builtin
		p := a.docPkg("builtin")
		docText, docMD = docOf(p, obj)
		if d := builtinDecl(a.fset, p, obj.Name()); d != "" {
			decl = d
		}
	case user:
		src, line, where := c.source(a, obj, code)
		if d := c.userDecl(a, obj, src); d != "" {
			decl = d
		}
		docText = cellComment(src, line)
		docMD = docText
		if where != "" {
			extra = append(extra, where)
		}
		if detail > 0 {
			more = c.declSource(a, obj, src)
		}
	default:
		docText, docMD = docOf(a.docPkg(obj.Pkg().Path()), obj)
		extra = append(extra, fmt.Sprintf("package %s (%q)", obj.Pkg().Name(), obj.Pkg().Path()))
	}
	if v, ok := obj.(*types.Var); ok && user && !v.IsField() && obj.Parent() == c.m.pkgScope() {
		if val, ok := a.scope.Value(obj.Name()); ok {
			decl += " " + val
		}
	}
	if tn, ok := obj.(*types.TypeName); ok {
		if ms := methodList(tn.Type(), q); ms != "" {
			extra = append(extra, "methods:\n"+ms)
		}
	} else if v, ok := obj.(*types.Var); ok {
		if ms := methodList(v.Type(), q); ms != "" {
			extra = append(extra, "methods of "+types.TypeString(v.Type(), q)+":\n"+ms)
		}
	}
	h := help(decl, docText, docMD, more)
	if len(extra) > 0 {
		e := strings.Join(extra, "\n\n")
		h.Text += "\n\n" + e
		h.Markdown += "\n```\n" + e + "\n```\n"
	}
	return h
}

func (m *model) pkgScope() *types.Scope {
	if m.pkg == nil {
		return nil
	}
	return m.pkg.Scope()
}

// methodList lists the method set of *t (t for interfaces and pointers),
// one signature a line; "" for types without methods.
func methodList(t types.Type, q types.Qualifier) string {
	if _, isNamed := t.(*types.Named); !isNamed {
		if p, ok := t.(*types.Pointer); !ok || typeName(p) == "" {
			return ""
		}
	}
	ms := types.NewMethodSet(t)
	if _, ok := t.Underlying().(*types.Pointer); !ok && !types.IsInterface(t) {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	var lines []string
	for i := 0; i < ms.Len() && len(lines) < 60; i++ {
		f := ms.At(i).Obj()
		if !f.Exported() && (f.Pkg() == nil || f.Pkg().Path() != pkgPath) {
			continue
		}
		lines = append(lines, "  "+types.ObjectString(f, q))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// source returns the code of the cell that declares obj (a name of the
// cells), the cell line of the declaration, and where it is ("declared in
// cell [3]").
func (c *checked) source(a *Assistant, obj types.Object, code string) (src string, line int, where string) {
	line = a.fset.Position(obj.Pos()).Line
	if s, ok := c.m.objs[obj]; ok {
		n := s.cell
		if s.node != nil {
			line = a.fset.Position(s.node.Pos()).Line
		}
		return c.m.cells[n].code, line, fmt.Sprintf("declared in the %s cell run", ordinal(n+1))
	}
	return code, line, ""
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100/10 == 1:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// userDecl is the declaration of obj, a name the cells declare, as the
// cell wrote it: a function's header with its receiver and parameter
// names, a type or constant's spec; "" for variables (shown with their
// type and value instead).
func (c *checked) userDecl(a *Assistant, obj types.Object, src string) string {
	node := c.declNode(obj)
	switch n := node.(type) {
	case *ast.FuncDecl:
		var b strings.Builder
		if err := printer.Fprint(&b, a.fset, &ast.FuncDecl{Recv: n.Recv, Name: n.Name, Type: n.Type}); err == nil {
			return b.String()
		}
	case *ast.GenDecl:
		if n.Tok == token.VAR || len(n.Specs) != 1 {
			return ""
		}
		text := cellText(a.fset, src, n.Specs[0].Pos(), n.Specs[0].End())
		if text == "" {
			return ""
		}
		return n.Tok.String() + " " + text
	}
	return ""
}

// declNode is the declaration of obj in the cells (nil when none).
func (c *checked) declNode(obj types.Object) ast.Node {
	if s, ok := c.m.objs[obj]; ok {
		return s.node
	}
	var node ast.Node
	for _, f := range c.files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fd.Name.Pos() == obj.Pos() {
					node = d
				}
				continue
			}
			for _, n := range declNames(d) {
				if n == obj.Name() {
					node = d
				}
			}
		}
	}
	return node
}

// declSource is the text of obj's declaration in src, the code of its
// cell.
func (c *checked) declSource(a *Assistant, obj types.Object, src string) string {
	node := c.declNode(obj)
	if node == nil {
		return ""
	}
	return cellText(a.fset, src, node.Pos(), node.End())
}

// cellText is the text of src (a cell's code) between two positions of
// its parse (whose lines and columns are the cell's own).
func cellText(fset *token.FileSet, src string, from, to token.Pos) string {
	a, b := fset.Position(from), fset.Position(to)
	i, j := offset(src, a.Line, a.Column), offset(src, b.Line, b.Column)
	if i < 0 || j < i {
		return ""
	}
	return short(src[i:j], 4000)
}

func offset(src string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		k := strings.IndexByte(src[off:], '\n')
		if k < 0 {
			return -1
		}
		off += k + 1
	}
	return min(off+col-1, len(src))
}
