package assist

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// placeholder stands for the identifier being completed when none is
// typed yet (after "x." or at the start of a statement).
const placeholder = "ᐩc"

// checked is the cell being typed, type-checked in the session's model.
type checked struct {
	m      *model
	pkg    *types.Package
	info   *types.Info
	files  []*ast.File
	target *ast.Ident        // the identifier at the cursor
	path   []ast.Node        // target and its enclosing nodes, innermost first
	added  map[string]string // packages not imported that the cell uses: name → path
}

// check type-checks code[:end] (completed so that it parses: open
// brackets closed, a placeholder where an identifier is missing) with
// the session's declarations, and finds the identifier that ends at end.
// It returns nil when no completion of the code parses.
func (a *Assistant) check(code string, end int) *checked {
	m := a.current()
	start := identStart(code, end)
	text := code[:end]
	if start == end {
		text += placeholder
	}
	line, col := lineCol(code, start)
	n := len(m.cells) + 1
	for _, variant := range goVariants(text) {
		for _, cand := range completions(variant) {
			pc, err := cell.Parse(a.fset, cell.Cell{N: n, Code: cand})
			if err != nil {
				continue
			}
			if c := a.typecheck(m, pc, line, col); c != nil {
				return c
			}
		}
	}
	return nil
}

// goVariants returns text (a cell up to the cursor) with its magic lines
// blanked, so the Go around them is checked; when the cursor is on a
// line magic (%timeit -n 10 y = f.Ca), each tail of that line after a
// space stands in for it, longest first, for the Go statement the magic
// takes. Blanks keep every line and column in place.
func goVariants(text string) []string {
	if !cell.HasMagic(text) {
		return []string{text}
	}
	lines := strings.Split(text, "\n")
	last := len(lines) - 1
	for i, l := range lines[:last] {
		if cell.IsMagicLine(l) {
			lines[i] = ""
		}
	}
	if !cell.IsMagicLine(lines[last]) {
		return []string{strings.Join(lines, "\n")}
	}
	head := strings.Join(lines[:last], "\n")
	if last > 0 {
		head += "\n"
	}
	cur := lines[last]
	var out []string
	for i := 1; i < len(cur); i++ {
		if cur[i-1] == ' ' && cur[i] != ' ' {
			out = append(out, head+strings.Repeat(" ", i)+cur[i:])
		}
	}
	return out
}

// completions are texts that make text parse, most faithful first: the
// open brackets closed; also with an empty block for a statement header
// (if x.|); the last line alone.
func completions(text string) []string {
	closers := closing(text)
	out := []string{text + closers, text + " {}" + closers}
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		// The last line alone, after blank lines so that it keeps its place.
		last := text[i+1:]
		out = append(out, strings.Repeat("\n", strings.Count(text[:i+1], "\n"))+last+closing(last))
	}
	return out
}

// closing returns what closes the brackets open at the end of text.
func closing(text string) string {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(text))
	var sc scanner.Scanner
	sc.Init(f, []byte(text), func(token.Position, string) {}, 0)
	var stack []byte
	for {
		_, tok, _ := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN:
			stack = append(stack, ')')
		case token.LBRACK:
			stack = append(stack, ']')
		case token.LBRACE:
			stack = append(stack, '}')
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	var b strings.Builder
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '}' {
			b.WriteByte('\n')
		}
		b.WriteByte(stack[i])
	}
	return b.String()
}

// typecheck checks the parsed cell against the model and finds the
// identifier at line:col of the cell.
func (a *Assistant) typecheck(m *model, pc *cell.Parsed, line, col int) *checked {
	c := &checked{m: m, added: map[string]string{}}
	files, declared, _, own := a.cellFiles(pc)
	if len(files) == 0 {
		return nil
	}
	imports := map[string]string{}
	for k, v := range m.imports {
		imports[k] = v
	}
	// Packages the cell uses without importing them: imported for it, as
	// running it would (goimports).
	for name, p := range own {
		imports[name] = p
	}
	for name, p := range a.unimported(m, files, imports, declared) {
		imports[name] = p
		c.added[name] = p
	}
	// Imports are per file: the cell's declarations file has its own,
	// the statements' file gets them too.
	for _, f := range files {
		imp := imports
		if f == pc.Decls {
			imp = map[string]string{}
			for name, p := range imports {
				if _, ok := own[name]; !ok {
					imp[name] = p
				}
			}
		}
		f.Decls = append([]ast.Decl{importDecl(imp, m.dots)}, f.Decls...)
	}
	c.pkg = types.NewPackage(pkgPath, "main")
	if m.pkg != nil {
		for _, name := range m.pkg.Scope().Names() {
			if !declared[name] {
				c.pkg.Scope().Insert(m.pkg.Scope().Lookup(name))
			}
		}
	}
	c.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{}}
	conf := types.Config{Importer: a.imp, FakeImportC: true, Error: func(error) {}}
	chk := types.NewChecker(&conf, a.fset, c.pkg, c.info)
	_ = chk.Files(files)
	c.files = files
	for _, f := range files {
		c.find(a.fset, f, line, col)
	}
	if c.target == nil {
		return nil
	}
	return c
}

// cellFiles makes the files go/types checks of a parsed cell: its
// declarations' file, and its statements as the body of one function in
// a file of their own. It returns the names the cell declares at the top
// level, those its top-level statements define with :=, and its imports
// (name → path).
func (a *Assistant) cellFiles(pc *cell.Parsed) (files []*ast.File, declared, defined map[string]bool, own map[string]string) {
	declared, defined, own = map[string]bool{}, map[string]bool{}, map[string]string{}
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			for _, n := range declNames(d) {
				declared[n] = true
			}
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				for _, sp := range g.Specs {
					is := sp.(*ast.ImportSpec)
					p, _ := strconv.Unquote(is.Path.Value)
					name := a.pkgs.name(p)
					if is.Name != nil {
						name = is.Name.Name
					}
					own[name] = p
				}
			}
		}
		files = append(files, pc.Decls)
	}
	body := append([]ast.Stmt{}, pc.Stmts...)
	if pc.Value != nil {
		body = append(body, &ast.ExprStmt{X: pc.Value})
	}
	if len(body) == 0 {
		return files, declared, defined, own
	}
	for _, st := range pc.Stmts {
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					defined[id.Name] = true
				}
			}
		}
	}
	fn := &ast.FuncDecl{Name: ast.NewIdent("ᐩcell"), Type: &ast.FuncType{Func: body[0].Pos() - 1, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{Lbrace: body[0].Pos() - 1, List: body, Rbrace: body[len(body)-1].End()}}
	f := &ast.File{Name: ast.NewIdent("main"), Decls: []ast.Decl{fn}}
	if tf := a.fset.File(body[0].Pos()); tf != nil {
		f.FileStart, f.FileEnd = token.Pos(tf.Base()), token.Pos(tf.Base()+tf.Size())
	}
	return append(files, f), declared, defined, own
}

// find sets c.target to the identifier of f at the cell's line:col.
func (c *checked) find(fset *token.FileSet, f *ast.File, line, col int) {
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if c.target != nil {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if id, ok := n.(*ast.Ident); ok && id.Pos().IsValid() {
			p := fset.Position(id.Pos())
			if p.Line == line && p.Column == col && p.Filename == cell.SrcName {
				c.target = id
				for i := len(stack) - 1; i >= 0; i-- {
					c.path = append(c.path, stack[i])
				}
			}
		}
		return true
	})
}

// declNames are the names a top-level declaration of a cell binds.
func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []string{d.Name.Name}
		}
	case *ast.GenDecl:
		var out []string
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				out = append(out, sp.Name.Name)
			case *ast.ValueSpec:
				out = append(out, identNames(sp.Names)...)
			}
		}
		return out
	}
	return nil
}

// unimported finds the package names the files use as `name.X` that
// nothing declares or imports, and the package each stands for.
func (a *Assistant) unimported(m *model, files []*ast.File, imports map[string]string, declared map[string]bool) map[string]string {
	uses := map[string]map[string]bool{} // package name → selected names
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			if _, imp := imports[id.Name]; imp || declared[id.Name] || len(a.pkgs.byName[id.Name]) == 0 {
				return true
			}
			if m.pkg != nil && m.pkg.Scope().Lookup(id.Name) != nil {
				return true
			}
			if uses[id.Name] == nil {
				uses[id.Name] = map[string]bool{}
			}
			uses[id.Name][sel.Sel.Name] = true
			return true
		})
	}
	out := map[string]string{}
	for name, sels := range uses {
		if p := a.resolve(name, sels); p != "" {
			out[name] = p
		}
	}
	return out
}

// resolve picks the package named name that has all of sels (the
// placeholder and an unfinished prefix aside), as goimports does: the
// first such in the index's order. It returns "" when none has them.
func (a *Assistant) resolve(name string, sels map[string]bool) string {
	cands := a.pkgs.byName[name]
	for _, p := range cands {
		pkg, err := a.imp.Import(p)
		if err != nil || pkg == nil {
			continue
		}
		ok := true
		for s := range sels {
			if s == placeholder {
				continue
			}
			if pkg.Scope().Lookup(s) == nil && !hasPrefixMember(pkg, s) {
				ok = false
				break
			}
		}
		if ok {
			return p
		}
	}
	return ""
}

func hasPrefixMember(pkg *types.Package, prefix string) bool {
	for _, n := range pkg.Scope().Names() {
		if strings.HasPrefix(n, prefix) && token.IsExported(n) {
			return true
		}
	}
	return false
}

// identStart returns the start of the identifier that ends at end.
func identStart(code string, end int) int { return cell.IdentBefore(code, end) }

// lineCol is the 1-based line and column (bytes) of offset off in code.
func lineCol(code string, off int) (int, int) {
	line := 1 + strings.Count(code[:off], "\n")
	return line, off - strings.LastIndexByte(code[:off], '\n')
}

// MissingImports returns the packages code (a cell about to run) uses as
// `name.X` without importing them, and that no cell declares or
// imported: name → import path, resolved as goimports does (the package
// of that name that has every member the cell selects).
func (a *Assistant) MissingImports(code string) (res map[string]string) {
	a.reqMu.Lock()
	defer a.reqMu.Unlock()
	defer recoverTo(a, &res)
	m := a.current()
	pc, err := cell.Parse(a.fset, cell.Cell{N: len(m.cells) + 1, Code: code})
	if err != nil {
		return nil
	}
	// A name the cell's statements define (strings := ...) is no package.
	files, declared, defined, own := a.cellFiles(pc)
	for n := range defined {
		declared[n] = true
	}
	imports := map[string]string{}
	for k, v := range m.imports {
		imports[k] = v
	}
	for k, v := range own {
		imports[k] = v
	}
	return a.unimported(m, files, imports, declared)
}
