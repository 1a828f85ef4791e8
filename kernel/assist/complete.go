package assist

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Complete returns the completions of the identifier that ends at cursor
// (a byte offset into code, the cell being typed): import paths inside an
// import's quotes, members after "x." (of a package, imported or not, or
// of any expression's type), else the names in scope at the cursor
// (locals, parameters, the cell's and the session's declarations,
// packages, builtins) and the keywords that fit there.
func (a *Assistant) Complete(code string, cursor int) (res Completion) {
	a.reqMu.Lock()
	defer a.reqMu.Unlock()
	defer recoverTo(a, &res)
	a.used.Store(true)
	cursor = max(0, min(cursor, len(code)))
	if start, prefix, ok := importPathAt(code, cursor); ok {
		return Completion{Matches: a.importPaths(prefix), Start: start, End: cursor}
	}
	start := identStart(code, cursor)
	if inCommentOrString(code, cursor) {
		return Completion{Matches: []Match{}, Start: start, End: cursor}
	}
	prefix := code[start:cursor]
	var ms []Match
	if c := a.check(code, cursor); c != nil {
		if sel, ok := c.selector(); ok {
			ms = c.members(a, sel, prefix)
		} else {
			ms = c.scopeMatches(a, prefix)
			ms = append(ms, keywords(code[:start], c.inFunc(), c.inLoop())...)
		}
	} else if start > 0 && code[start-1] == '.' {
		// Nothing parses: a package name before the dot still has members.
		x := code[identStart(code, start-1) : start-1]
		ms = a.packageMembers(x, prefix)
	}
	return Completion{Matches: filter(ms, prefix), Start: start, End: cursor}
}

// filter keeps the matches that start with prefix, once each, sorted;
// names never shown (the placeholder, the harness's ᐩ names) are dropped.
func filter(ms []Match, prefix string) []Match {
	seen := map[string]bool{}
	out := []Match{}
	for _, m := range ms {
		if !strings.HasPrefix(m.Text, prefix) || seen[m.Text] || strings.Contains(m.Text, "ᐩ") || m.Text == "_" {
			continue
		}
		seen[m.Text] = true
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// selector returns the selector expression whose Sel is the target.
func (c *checked) selector() (*ast.SelectorExpr, bool) {
	if len(c.path) > 1 {
		if sel, ok := c.path[1].(*ast.SelectorExpr); ok && sel.Sel == c.target {
			return sel, true
		}
	}
	return nil, false
}

// members lists what can follow sel.X and a dot.
func (c *checked) members(a *Assistant, sel *ast.SelectorExpr, prefix string) []Match {
	if id, ok := sel.X.(*ast.Ident); ok {
		if pn, ok := c.info.Uses[id].(*types.PkgName); ok {
			return c.pkgMatches(pn.Imported(), prefix)
		}
		if c.info.Uses[id] == nil {
			if p, ok := c.added[id.Name]; ok {
				if pkg, err := a.imp.Import(p); err == nil {
					return c.pkgMatches(pkg, prefix)
				}
			}
			return a.packageMembers(id.Name, prefix)
		}
	}
	tv, ok := c.info.Types[sel.X]
	if !ok || tv.Type == nil || tv.Type == types.Typ[types.Invalid] {
		return nil
	}
	var out []Match
	for _, obj := range fieldsAndMethods(tv.Type, c.pkg, tv.IsType(), tv.Addressable()) {
		if strings.HasPrefix(obj.Name(), prefix) {
			out = append(out, c.match(obj))
		}
	}
	return out
}

// packageMembers lists the exported names of the packages named x that
// cells can import (when no declaration shadows the name).
func (a *Assistant) packageMembers(x, prefix string) []Match {
	var out []Match
	for _, p := range a.pkgs.byName[x] {
		pkg, err := a.imp.Import(p)
		if err != nil || pkg == nil {
			continue
		}
		c := &checked{pkg: types.NewPackage(pkgPath, "main")}
		out = append(out, c.pkgMatches(pkg, prefix)...)
	}
	return out
}

func (c *checked) pkgMatches(pkg *types.Package, prefix string) []Match {
	var out []Match
	for _, n := range pkg.Scope().Names() {
		if !strings.HasPrefix(n, prefix) {
			continue
		}
		if obj := pkg.Scope().Lookup(n); obj.Exported() {
			out = append(out, c.match(obj))
		}
	}
	return out
}

// fieldsAndMethods lists the fields and methods of a value of type t,
// promoted ones included, as Go resolves them: an ambiguous promoted name
// is left out, pointer methods only when the value is addressable (a
// variable, not a call's result or a composite literal), unexported names
// only when declared in pkg (the cells). When t is a type (x is a type
// name), its method expressions.
func fieldsAndMethods(t types.Type, pkg *types.Package, isType, addressable bool) []types.Object {
	names := map[string]bool{}
	ms := types.NewMethodSet(t)
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr && !types.IsInterface(t) && addressable {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	for i := 0; i < ms.Len(); i++ {
		names[ms.At(i).Obj().Name()] = true
	}
	if !isType {
		collectFields(t, names, map[types.Type]bool{}, 0)
	}
	var out []types.Object
	for n := range names {
		obj, _, indirect := types.LookupFieldOrMethod(t, addressable, pkg, n)
		if f, ok := obj.(*types.Func); ok && !addressable && !indirect && isPointerMethod(f) && !isPointer(t) {
			continue // a pointer method of a value that is no variable: Go does not call it
		}
		if obj == nil || !obj.Exported() && (obj.Pkg() == nil || obj.Pkg().Path() != pkg.Path()) {
			continue
		}
		out = append(out, obj)
	}
	return out
}

func isPointerMethod(f *types.Func) bool {
	recv := f.Signature().Recv()
	return recv != nil && isPointer(recv.Type())
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

func collectFields(t types.Type, names map[string]bool, seen map[types.Type]bool, depth int) {
	if depth > 8 || seen[t] {
		return
	}
	seen[t] = true
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		names[f.Name()] = true
		if f.Embedded() {
			collectFields(f.Type(), names, seen, depth+1)
			ms := types.NewMethodSet(types.NewPointer(f.Type()))
			for j := 0; j < ms.Len(); j++ {
				names[ms.At(j).Obj().Name()] = true
			}
		}
	}
}

// scopeMatches lists the names visible at the target: locals declared
// before it, parameters, the cell's and session's package-level names,
// imported packages, universe names, and the packages cells can import
// (imported for the cell when it runs).
func (c *checked) scopeMatches(a *Assistant, prefix string) []Match {
	pos := c.target.Pos()
	inner := c.pkg.Scope().Innermost(pos)
	if inner == nil {
		inner = c.pkg.Scope()
	}
	var out []Match
	for s := inner; s != nil; s = s.Parent() {
		for _, n := range s.Names() {
			if !strings.HasPrefix(n, prefix) {
				continue
			}
			obj := s.Lookup(n)
			if _, found := inner.LookupParent(n, pos); found != obj {
				continue // shadowed, or declared after the cursor
			}
			if s == types.Universe && !token.IsExported(n) && strings.HasPrefix(n, "ᐩ") {
				continue
			}
			out = append(out, c.match(obj))
		}
	}
	if prefix != "" {
		for name := range a.pkgs.byName {
			if strings.HasPrefix(name, prefix) {
				p := a.pkgs.byName[name][0]
				out = append(out, Match{Text: name, Kind: "module", Signature: "package " + name + " (" + quote(p) + ")"})
			}
		}
	}
	return out
}

func quote(p string) string { return `"` + p + `"` }

// inFunc reports whether the target is inside a function the cell
// declares (not its top-level statements).
func (c *checked) inFunc() bool {
	for _, n := range c.path {
		switch n := n.(type) {
		case *ast.FuncLit:
			return true
		case *ast.FuncDecl:
			return n.Name.Name != "ᐩcell"
		}
	}
	return false
}

// inLoop reports whether the target is inside a for or range body.
func (c *checked) inLoop() bool {
	for _, n := range c.path {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
	}
	return false
}

// match describes obj.
func (c *checked) match(obj types.Object) Match {
	q := c.qualifier()
	m := Match{Text: obj.Name()}
	switch o := obj.(type) {
	case *types.Func:
		m.Kind = "function"
		if o.Signature().Recv() != nil {
			m.Kind = "method"
		}
		m.Signature = types.TypeString(o.Type(), q)
	case *types.Var:
		m.Kind = "variable"
		if o.IsField() {
			m.Kind = "field"
		}
		if o.Type() != types.Typ[types.Invalid] {
			m.Signature = types.TypeString(o.Type(), q)
		}
	case *types.Const:
		m.Kind = "constant"
		m.Signature = types.TypeString(o.Type(), q) + " = " + o.Val().ExactString()
	case *types.TypeName:
		m.Kind = "type"
		m.Signature = short(types.TypeString(o.Type().Underlying(), q), 80)
	case *types.PkgName:
		m.Kind = "module"
		m.Signature = "package " + o.Imported().Name() + " (" + quote(o.Imported().Path()) + ")"
	case *types.Builtin:
		m.Kind = "function"
		m.Signature = "builtin"
	case *types.Nil:
		m.Kind = "constant"
		m.Signature = "untyped nil"
	default:
		m.Kind = "variable"
	}
	return m
}

// qualifier names other packages by name and the cells' own not at all.
func (c *checked) qualifier() types.Qualifier {
	return func(p *types.Package) string {
		if p.Path() == pkgPath {
			return ""
		}
		return p.Name()
	}
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
