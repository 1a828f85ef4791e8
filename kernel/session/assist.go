package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/assist"
	"github.com/tick-kernel/tick/kernel/session/bridge"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// This file is the session's side of the code assistant (kernel/assist):
// the scope it reads (the cells that ran, the values of variables), the
// answers turned into Completion and Inspection, and the imports added to
// a cell that uses a package it did not import.

// assistScope is the session as the assistant reads it.
type assistScope struct{ s *Session }

// Ran returns the Go code of the cells that ran, from index from on.
func (a assistScope) Ran(from int) []string {
	return a.s.decls.Ran(from)
}

// Value is "= " and the value of the session variable name, on one line.
func (a assistScope) Value(name string) (string, bool) {
	v, ok := a.s.globals()[name]
	if !ok || !v.IsValid() || !v.CanInterface() {
		return "", false
	}
	text := strings.Join(strings.Fields(bridge.PlainText(v.Interface())), " ")
	if text == "" {
		return "", false
	}
	return "= " + short(text), true
}

// newAssistant makes the session's assistant, over the packages its
// symbol tables hold, and warms it in the background.
func (s *Session) newAssistant() {
	pkgs := map[string]string{}
	for p, n := range s.decls.Packages() {
		if !strings.HasPrefix(p, rtPath) && !strings.HasPrefix(p, varsPath) {
			pkgs[p] = n
		}
	}
	opts := assist.Options{Packages: pkgs}
	// An Importer of compiled Go may say where its packages' source is.
	if d, ok := s.opts.Importer.(interface{ SourceDir(string) (string, bool) }); ok {
		opts.Dir = d.SourceDir
	}
	s.asst = assist.New(assistScope{s}, opts)
	s.asst.Warm()
}

// Complete returns the names that can replace the identifier before
// cursor (a byte offset), from the assistant (which knows Go's types and
// scopes), with the session's variables the assistant has no source for
// (set by magics) added.
func (s *Session) Complete(code string, cursor int) Completion {
	cursor = max(0, min(cursor, len(code)))
	got := s.asst.Complete(code, cursor)
	if len(got.Matches) == 0 && got.Start > 0 && code[got.Start-1] == '.' {
		return s.completeByValue(code, cursor) // a variable with no source: its members by reflection
	}
	c := Completion{Start: got.Start, End: got.End, Matches: []string{}}
	seen := map[string]bool{}
	for _, m := range got.Matches {
		seen[m.Text] = true
		c.Matches = append(c.Matches, m.Text)
		c.Details = append(c.Details, Detail{Kind: m.Kind, Signature: m.Signature})
	}
	prefix := code[got.Start:got.End]
	if (got.Start == 0 || code[got.Start-1] != '.') && !assist.InCommentOrString(code, cursor) {
		var extra []string
		for n := range s.globals() {
			if strings.HasPrefix(n, prefix) && !seen[n] && !strings.Contains(n, "ᐩ") {
				extra = append(extra, n)
			}
		}
		sort.Strings(extra)
		for _, n := range extra {
			c.Matches = append(c.Matches, n)
			c.Details = append(c.Details, Detail{Kind: "variable"})
		}
	}
	return c
}

// Inspect describes the name at cursor: the assistant's answer (the
// declaration with parameter names, its doc, the type and value of a
// variable, the method set of a type; detail > 0 adds the source of the
// cells' functions), else what the session knows by reflection.
func (s *Session) Inspect(code string, cursor int, detail int) Inspection {
	cursor = max(0, min(cursor, len(code)))
	if h := s.asst.Inspect(code, cursor, detail); h.Found {
		return Inspection{Found: true, Text: h.Text, Markdown: h.Markdown}
	}
	return s.inspectByValue(code, cursor, detail)
}

// addImports adds to the cell the imports of packages it uses without
// importing them (strconv.Atoi with no import "strconv"), as goimports
// would, and says so in one line on stderr. A name that stands for
// several packages is resolved by the members the cell uses; when none
// fits, nothing is added and the compile error's hint says what to
// import.
func (s *Session) addImports(pc *cell.Parsed) (added string) {
	if !s.maybeUnimported(pc) {
		return ""
	}
	missing := s.asst.MissingImports(pc.Cell.Code)
	if len(missing) == 0 {
		return ""
	}
	names := make([]string, 0, len(missing))
	for n := range missing {
		names = append(names, n)
	}
	sort.Strings(names)
	var src, note strings.Builder
	src.WriteString("package main\n")
	for _, n := range names {
		p := missing[n]
		spec := strconv.Quote(p)
		if s.decls.PkgName(p) != n {
			spec = n + " " + spec
		}
		fmt.Fprintf(&src, "import %s\n", spec)
		if note.Len() > 0 {
			note.WriteString(", ")
		}
		fmt.Fprintf(&note, "import %s", spec)
	}
	f, err := parser.ParseFile(pc.Fset, cell.SrcName, src.String(), parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	if pc.Decls == nil {
		pc.Decls = f
	} else {
		pc.Decls.Decls = append(f.Decls, pc.Decls.Decls...)
	}
	s.emit("stderr", fmt.Sprintf("tick: added %s (the cell uses the package without importing it; later cells can use it too)\n", note.String()))
	return strings.TrimPrefix(src.String(), "package main\n")
}

// maybeUnimported is a quick look for `name.X` where name is a package
// name cells can import that no cell imported or declared: only then is
// the assistant asked.
func (s *Session) maybeUnimported(pc *cell.Parsed) bool {
	known := s.decls.Importable(func(p string) bool {
		return strings.HasPrefix(p, rtPath) || strings.HasPrefix(p, varsPath) || strings.Contains(p, "internal")
	})
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				for _, sp := range g.Specs {
					name, _ := s.decls.ImportName(sp.(*ast.ImportSpec))
					delete(known, name)
				}
			}
		}
	}
	found := false
	for _, n := range pc.Nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && known[id.Name] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}
