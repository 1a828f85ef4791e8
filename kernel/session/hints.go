package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strings"
)

// This file adds "what to do next" to errors whose interpreter message
// leaves the user guessing: a package used without its import, a
// misspelled package member, a misspelled magic.

var (
	undefinedName = regexp.MustCompile(`undefined: ([\pL_][\pL\pN_]*)$`)
	noSymbol      = regexp.MustCompile(`package ([\pL_][\pL\pN_]*) "[^"]*" has no symbol ([\pL_][\pL\pN_]*)$`)
)

// withHint returns e, an error of cell count with Go code code, with a
// hint appended to its message and first traceback line, when the session
// knows one.
func (s *Session) withHint(e *Error, code string, count int) *Error {
	if e == nil || e.Name != "CompileError" {
		return e
	}
	value := e.Value
	if strings.HasSuffix(value, "definition loop") {
		// yaegi's message for a type or conversion of a package that is not
		// imported (var w io.Writer): say what Go says.
		if pkg, at := s.unimportedUse(code); pkg != "" {
			value = cellPos(count, at) + ": undefined: " + pkg
		}
	}
	out := *e
	if g := s.genericHint(value, code, count); g != "" {
		out.Value = g
	} else if hint := s.compileHint(value); hint != "" {
		out.Value = value + "; " + hint
	} else {
		return e
	}
	out.Traceback = append([]string{out.Name + ": " + out.Value}, e.Traceback[min(1, len(e.Traceback)):]...)
	return &out
}

func (s *Session) compileHint(msg string) string {
	if m := undefinedName.FindStringSubmatch(msg); m != nil {
		return s.importHint(m[1])
	}
	if m := noSymbol.FindStringSubmatch(msg); m != nil {
		var names []string
		for name := range s.packageSymbols(m[1]) {
			names = append(names, name)
		}
		if near := nearest(m[2], names); len(near) > 0 {
			return "did you mean " + m[1] + "." + strings.Join(near, " or "+m[1]+".") + "?"
		}
	}
	return ""
}

// unimportedUse finds the first use in code of a package name tick knows
// that no cell imported and that names nothing else in the session, with
// its line:col in the cell.
func (s *Session) unimportedUse(code string) (pkg, at string) {
	if hasMagic(code) {
		return "", ""
	}
	pc, err := parseCell(token.NewFileSet(), code)
	if err != nil {
		return "", ""
	}
	globals := s.globals()
	s.mu.Lock()
	defer s.mu.Unlock()
	known := map[string]bool{}
	for _, n := range s.pkgNames {
		known[n] = true
	}
	find := func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || pkg != "" {
			return pkg == ""
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || !known[id.Name] {
			return true
		}
		_, imported := s.imports[id.Name]
		_, global := globals[id.Name]
		_, declared := s.declText[id.Name]
		if !imported && !global && !declared {
			pkg, at = id.Name, lineCol(pc.fset, id.Pos())
		}
		return true
	}
	nodes := pc.nodes()
	// Declarations and statements are parsed as two files: order by cell position.
	pos := func(n ast.Node) int { p := pc.fset.Position(n.Pos()); return p.Line<<16 + p.Column }
	sort.Slice(nodes, func(i, j int) bool { return pos(nodes[i]) < pos(nodes[j]) })
	for _, n := range nodes {
		ast.Inspect(n, find)
	}
	return pkg, at
}

// importHint names the imports that would define name, when name is the
// name of a package tick knows and no cell imported it.
func (s *Session) importHint(name string) string {
	s.mu.Lock()
	_, imported := s.imports[name]
	var paths []string
	if !imported {
		for p, n := range s.pkgNames {
			if n == name && !strings.Contains(p, "internal") && !strings.HasPrefix(p, rtPath) {
				paths = append(paths, fmt.Sprintf("import %q", p))
			}
		}
	}
	s.mu.Unlock()
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

// nearest returns the candidates closest to name (case-insensitive edit
// distance at most 2, or a case-insensitive prefix of 3 or more letters), best first, at
// most three.
func nearest(name string, candidates []string) []string {
	type scored struct {
		s string
		d int
	}
	var found []scored
	low := strings.ToLower(name)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(low, lc)
		if d > 2 && !(len(low) >= 3 && strings.HasPrefix(lc, low)) {
			continue
		}
		found = append(found, scored{c, d})
	}
	sort.Slice(found, func(i, j int) bool {
		return found[i].d < found[j].d || found[i].d == found[j].d && found[i].s < found[j].s
	})
	var out []string
	for i := 0; i < len(found) && i < 3; i++ {
		out = append(out, found[i].s)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// magicHint suggests the registered magic closest to a misspelled name.
func (s *Session) magicHint(kind, name string) string {
	var names []string
	for _, m := range s.Magics() {
		names = append(names, m.Name)
	}
	if near := nearest(name, names); len(near) > 0 {
		return fmt.Sprintf("; did you mean %s%s?", kind, near[0])
	}
	return ""
}
