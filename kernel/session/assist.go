package session

import (
	"time"

	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tick-kernel/tick/kernel/assist"
	"github.com/tick-kernel/tick/kernel/session/bridge"
	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/decls"
)

// This file is the session's side of the code assistant (kernel/assist):
// the scope it reads (the cells that ran, the values of variables), the
// answers turned into Completion and Inspection, and the imports added to
// a cell that uses a package it did not import.

// inspector is the session's side of completion and inspection: the
// assistant over the cells that ran, and what the session knows by
// reflection and compile probes of what the assistant has no source for
// (variables set by magics: byvalue.go; the cell-declared types of
// variables: varprobe.go).
type inspector struct {
	vm    *vm
	decls *decls.Catalog
	exec  *sync.Mutex // the cell lock: probes only TryLock it
	asst  *assist.Assistant
}

// assistScope is the session as the assistant reads it.
type assistScope struct{ ins *inspector }

// Ran returns the Go code of the cells that ran, from index from on.
func (a assistScope) Ran(from int) []string {
	return a.ins.decls.Ran(from)
}

// Value is "= " and the value of the session variable name, on one line.
func (a assistScope) Value(name string) (string, bool) {
	v, ok := a.ins.vm.globals()[name]
	if !ok || !v.IsValid() || !v.CanInterface() {
		return "", false
	}
	text := strings.Join(strings.Fields(bridge.PlainText(v.Interface())), " ")
	if text == "" {
		return "", false
	}
	return "= " + short(text), true
}

// newInspector makes the session's inspector and its assistant, over the
// packages the symbol tables hold, and warms the assistant in the
// background. importer is the session's Importer (it may say where its
// packages' source is).
func newInspector(vm *vm, catalog *decls.Catalog, exec *sync.Mutex, importer Importer) *inspector {
	ins := &inspector{vm: vm, decls: catalog, exec: exec}
	pkgs := map[string]string{}
	for p, n := range ins.decls.Packages() {
		if !strings.HasPrefix(p, rtPath) && !strings.HasPrefix(p, varsPath) {
			pkgs[p] = n
		}
	}
	opts := assist.Options{Packages: pkgs}
	// An Importer of compiled Go may say where its packages' source is.
	if d, ok := importer.(interface{ SourceDir(string) (string, bool) }); ok {
		opts.Dir = d.SourceDir
	}
	ins.asst = assist.New(assistScope{ins}, opts)
	ins.asst.Warm()
	return ins
}

// Complete returns the names that can replace the identifier before
// cursor (a byte offset): inspector.Complete.
func (s *Session) Complete(code string, cursor int) Completion { return s.ins.Complete(code, cursor) }

// WaitAssistantIdle waits, at most max, until the assistant has no
// package load, cache write or model refresh running in the background
// (each cell's end starts a refresh), and returns how long it waited.
// A measurement of the session's own memory or time calls it first, so
// that work still in flight is not counted as the cells'.
func (s *Session) WaitAssistantIdle(max time.Duration) time.Duration {
	return s.ins.asst.WaitIdle(max, nil)
}

// Inspect describes the name at cursor: inspector.Inspect.
func (s *Session) Inspect(code string, cursor int, detail int) Inspection {
	return s.ins.Inspect(code, cursor, detail)
}

// Complete returns the names that can replace the identifier before
// cursor (a byte offset), from the assistant (which knows Go's types and
// scopes), with the session's variables the assistant has no source for
// (set by magics) added.
func (ins *inspector) Complete(code string, cursor int) Completion {
	cursor = max(0, min(cursor, len(code)))
	got := ins.asst.Complete(code, cursor)
	if len(got.Matches) == 0 && got.Start > 0 && code[got.Start-1] == '.' {
		return ins.completeByValue(code, cursor) // a variable with no source: its members by reflection
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
		for n := range ins.vm.globals() {
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
func (ins *inspector) Inspect(code string, cursor int, detail int) Inspection {
	cursor = max(0, min(cursor, len(code)))
	if h := ins.asst.Inspect(code, cursor, detail); h.Found {
		return Inspection{Found: true, Text: h.Text, Markdown: h.Markdown}
	}
	return ins.inspectByValue(code, cursor, detail)
}

// addImports adds to the cell the imports of packages it uses without
// importing them (strconv.Atoi with no import "strconv"), as goimports
// would, and says so in one line on stderr. A name that stands for
// several packages is resolved by the members the cell uses; when none
// fits, nothing is added and the compile error's hint says what to
// import.
func (ins *inspector) addImports(pc *cell.Parsed, emit func(name, text string)) (added string) {
	if !ins.maybeUnimported(pc) {
		return ""
	}
	missing := ins.asst.MissingImports(pc.Cell.Code)
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
		if ins.decls.PkgName(p) != n {
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
	emit("stderr", fmt.Sprintf("tick: added %s (the cell uses the package without importing it; later cells can use it too)\n", note.String()))
	return strings.TrimPrefix(src.String(), "package main\n")
}

// maybeUnimported is a quick look for `name.X` where name is a package
// name cells can import that no cell imported or declared: only then is
// the assistant asked.
func (ins *inspector) maybeUnimported(pc *cell.Parsed) bool {
	known := ins.decls.Importable(func(p string) bool {
		return strings.HasPrefix(p, rtPath) || strings.HasPrefix(p, varsPath) || strings.Contains(p, "internal")
	})
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				for _, sp := range g.Specs {
					name, _ := ins.decls.ImportName(sp.(*ast.ImportSpec))
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
