package session

import (
	"fmt"
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

// withHint returns e with a hint appended to its message and first
// traceback line, when the session knows one.
func (s *Session) withHint(e *Error) *Error {
	if e == nil || e.Name != "CompileError" {
		return e
	}
	hint := s.compileHint(e.Value)
	if hint == "" {
		return e
	}
	out := *e
	out.Value = e.Value + "; " + hint
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
