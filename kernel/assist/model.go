package assist

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// model is the session as go/types sees it: one package holding the
// declarations of every cell that ran (a later declaration of a name
// replacing an earlier one), top-level `x := v` statements as package
// variables, and every import.
type model struct {
	cells   []*ranCell
	pkg     *types.Package
	imports map[string]string // name → path, the last import of each name
	dots    []string          // paths imported with `import . "path"` (compiled %%go cells)
	sites   map[string]site   // object name ("f", "T", "T.M") → where a cell declared it
	objs    map[types.Object]site
}

// ranCell is one cell that ran, parsed once.
type ranCell struct {
	code string
	pc   *cell.Parsed // nil when it does not parse
}

// site is a declaration in a cell: the cell (an index into model.cells)
// and the declaration's node.
type site struct {
	cell int
	node ast.Node
}

// pkgPath is the path of the package the cells make.
const pkgPath = "main"

// Refresh brings the model up to date with the cells that ran, so the
// next request does not wait for it (a few ms for a hundred cells). It
// does nothing until a request came: a notebook run without a person
// typing (tick run, nbconvert) never pays it.
func (a *Assistant) Refresh() {
	if !a.used.Load() {
		return
	}
	defer recoverTo(a, new(struct{}))
	a.current()
}

// current returns the model of the cells that ran, rebuilt when more
// cells ran since the last call.
func (a *Assistant) current() *model {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := a.model
	more := a.scope.Ran(len(m.cells))
	if len(more) == 0 && m.pkg != nil {
		return m
	}
	next := &model{cells: append(append([]*ranCell{}, m.cells...), a.parseCells(len(m.cells), more)...)}
	next.build(a)
	a.model = next
	return next
}

// parseCells parses the cells that ran into the model's file set. A cell
// that declares nothing (no declarations, imports or definitions: `1+1`,
// `x++`) is kept as an empty ranCell: the model needs nothing of it, and
// its syntax tree and files would stay in memory for the rest of the
// session (issue 17: about 750 B a cell). It is parsed into a file set of
// its own to find that out (a.fset is shared with the importer).
func (a *Assistant) parseCells(first int, codes []string) []*ranCell {
	out := make([]*ranCell, len(codes))
	for i, code := range codes {
		c := cell.Cell{N: first + i + 1, Code: code}
		if pc, err := cell.Parse(token.NewFileSet(), c); err != nil || declaresNothing(pc) {
			out[i] = &ranCell{}
			continue
		}
		pc, err := cell.Parse(a.fset, c)
		if err != nil {
			pc = nil
		}
		out[i] = &ranCell{code: code, pc: pc}
	}
	return out
}

// declaresNothing reports whether the parsed cell gives the model no
// entry and no import.
func declaresNothing(pc *cell.Parsed) bool {
	if pc.Decls != nil {
		return false
	}
	for _, st := range pc.Stmts {
		switch x := st.(type) {
		case *ast.DeclStmt:
			return false
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				return false
			}
		}
	}
	return true
}

// entry is one top-level declaration of a cell, with the names it binds.
type entry struct {
	cell  int
	names []string
	decl  ast.Decl
}

// build type-checks the cells' declarations into m.pkg.
func (m *model) build(a *Assistant) {
	m.imports = map[string]string{}
	m.sites = map[string]site{}
	var entries []entry
	for i, c := range m.cells {
		if c.pc == nil {
			continue
		}
		if c.pc.Decls != nil {
			for _, d := range c.pc.Decls.Decls {
				entries = append(entries, m.declEntries(a, i, d)...)
			}
		}
		for _, st := range c.pc.Stmts {
			entries = append(entries, stmtEntries(i, st)...)
		}
	}
	// The last declaration of a name wins: walk backwards, blanking names
	// already seen.
	seen := map[string]bool{}
	var decls []ast.Decl
	for k := len(entries) - 1; k >= 0; k-- {
		e := entries[k]
		if d := keepNew(e, seen); d != nil {
			decls = append(decls, d)
			for _, n := range e.names {
				if _, ok := m.sites[n]; !ok {
					m.sites[n] = site{e.cell, e.decl}
				}
			}
		}
	}
	for i, j := 0, len(decls)-1; i < j; i, j = i+1, j-1 {
		decls[i], decls[j] = decls[j], decls[i]
	}
	f := &ast.File{Name: ast.NewIdent("main"), Decls: append([]ast.Decl{importDecl(m.imports, m.dots)}, decls...)}
	conf := types.Config{Importer: a.imp, IgnoreFuncBodies: true, FakeImportC: true, Error: func(error) {}}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	m.pkg, _ = conf.Check(pkgPath, a.fset, []*ast.File{f}, info)
	m.objs = map[types.Object]site{}
	for name, s := range m.sites {
		if obj := m.lookup(name); obj != nil {
			m.objs[obj] = s
		}
	}
}

// lookup finds a package-level object ("x") or method ("T.M").
func (m *model) lookup(name string) types.Object {
	if m.pkg == nil {
		return nil
	}
	recv, meth, isMethod := cutDot(name)
	if !isMethod {
		return m.pkg.Scope().Lookup(name)
	}
	tn, _ := m.pkg.Scope().Lookup(recv).(*types.TypeName)
	if tn == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, m.pkg, meth)
	return obj
}

func cutDot(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// declEntries splits a declaration of cell i into entries of one spec
// each, recording imports.
func (m *model) declEntries(a *Assistant, i int, d ast.Decl) []entry {
	switch d := d.(type) {
	case *ast.FuncDecl:
		name := d.Name.Name
		if d.Recv != nil && len(d.Recv.List) == 1 {
			name = cell.TypeName(d.Recv.List[0].Type) + "." + name
		}
		if name == "init" || name == "_" {
			return nil
		}
		return []entry{{cell: i, names: []string{name}, decl: d}}
	case *ast.GenDecl:
		var out []entry
		for _, sp := range d.Specs {
			g := &ast.GenDecl{Doc: d.Doc, TokPos: d.TokPos, Tok: d.Tok, Specs: []ast.Spec{sp}}
			switch sp := sp.(type) {
			case *ast.ImportSpec:
				p, _ := strconv.Unquote(sp.Path.Value)
				name := a.pkgs.name(p)
				if sp.Name != nil {
					name = sp.Name.Name
				}
				switch name {
				case "_":
				case ".":
					if !slices.Contains(m.dots, p) {
						m.dots = append(m.dots, p)
					}
				default:
					m.imports[name] = p
				}
			case *ast.TypeSpec:
				out = append(out, entry{cell: i, names: []string{sp.Name.Name}, decl: g})
			case *ast.ValueSpec:
				out = append(out, entry{cell: i, names: identNames(sp.Names), decl: g})
			}
		}
		return out
	}
	return nil
}

// stmtEntries turns the top-level statements of cell i that define
// session variables (x := v, var x T) into package-level var declarations.
func stmtEntries(i int, st ast.Stmt) []entry {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE {
			return nil
		}
		var names []*ast.Ident
		for _, l := range st.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				return nil
			}
			names = append(names, id)
		}
		spec := &ast.ValueSpec{Names: names, Values: st.Rhs}
		return []entry{{cell: i, names: identNames(names), decl: &ast.GenDecl{TokPos: st.Pos(), Tok: token.VAR, Specs: []ast.Spec{spec}}}}
	case *ast.DeclStmt:
		g, ok := st.Decl.(*ast.GenDecl)
		if !ok {
			return nil
		}
		var out []entry
		for _, sp := range g.Specs {
			switch sp := sp.(type) {
			case *ast.ValueSpec:
				out = append(out, entry{cell: i, names: identNames(sp.Names), decl: &ast.GenDecl{TokPos: g.TokPos, Tok: g.Tok, Specs: []ast.Spec{sp}}})
			case *ast.TypeSpec:
				out = append(out, entry{cell: i, names: []string{sp.Name.Name}, decl: &ast.GenDecl{TokPos: g.TokPos, Tok: g.Tok, Specs: []ast.Spec{sp}}})
			}
		}
		return out
	}
	return nil
}

func identNames(ids []*ast.Ident) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.Name
	}
	return out
}

// keepNew returns e's declaration with the names already seen (declared
// again by a later cell) blanked, or nil when none is left.
func keepNew(e entry, seen map[string]bool) ast.Decl {
	fresh := 0
	for _, n := range e.names {
		if n != "_" && !seen[n] {
			fresh++
		}
	}
	if fresh == 0 {
		return nil
	}
	defer func() {
		for _, n := range e.names {
			seen[n] = true
		}
	}()
	g, ok := e.decl.(*ast.GenDecl)
	if !ok || fresh == len(e.names) {
		return e.decl
	}
	vs := g.Specs[0].(*ast.ValueSpec)
	names := make([]*ast.Ident, len(vs.Names))
	for i, id := range vs.Names {
		names[i] = id
		if seen[id.Name] {
			names[i] = &ast.Ident{NamePos: id.NamePos, Name: "_"}
		}
	}
	spec := *vs
	spec.Names = names
	return &ast.GenDecl{TokPos: g.TokPos, Tok: g.Tok, Specs: []ast.Spec{&spec}}
}

// importDecl is one import declaration of every name in imports and
// every path in dots (imported with "."); a declaration of nothing when
// there are none.
func importDecl(imports map[string]string, dots []string) ast.Decl {
	if len(imports)+len(dots) == 0 {
		return &ast.BadDecl{}
	}
	g := &ast.GenDecl{Tok: token.IMPORT}
	spec := func(name, p string) {
		g.Specs = append(g.Specs, &ast.ImportSpec{Name: ast.NewIdent(name), Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(p)}})
	}
	for name, p := range imports {
		spec(name, p)
	}
	for _, p := range dots {
		spec(".", p)
	}
	return g
}
