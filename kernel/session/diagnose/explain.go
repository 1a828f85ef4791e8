package diagnose

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/symbols/std"
)

// This file rewords the errors whose interpreter message points the wrong
// way (an interpreter crash for calling a value that is not a function, a
// call with no name, a GOPATH message for a package that does not exist)
// into what happened and what to write instead.

var (
	nonFuncCall = regexp.MustCompile(`NumIn of non-func type (\S+?)"?\)`)
	noArgsCall  = regexp.MustCompile(`^(cell\[\d+\]:(\d+):(\d+)): not enough arguments in call to $`)
	missingSrc  = regexp.MustCompile(`^(cell\[\d+\]:\d+:\d+): import "([^"]+)" error: unable to find source related to`)
	// a named type of a compiled package outside the session's symbol
	// tables (a module's) given to tick's interpreted slices/maps/cmp/
	// min/max: yaegi does not match its underlying type against the
	// constraint's ~int64 (the tables' own, time.Duration and the like,
	// are listed in the constraint: stdgo.Ordered)
	nativeNotOrdered = regexp.MustCompile(`^(cell\[\d+\]:\d+:\d+): ((?:\w+\.)+\w+) does not implement main\.ᐩordered$`)
)

// explain returns e reworded when it is one of the errors above, or e.
func (d *Diagnoser) explain(e *cell.Error, c cell.Cell) *cell.Error {
	if e == nil {
		return nil
	}
	msg := ""
	switch {
	case e.Name == cell.Unsupported:
		if m := nonFuncCall.FindStringSubmatch(e.Value); m != nil {
			msg = d.explainNonFuncCall(c, m[1])
		} else {
			// the interpreter crashes on a missing method of a call's
			// result (tensor.Arange(3).Frobnicate())
			msg = d.explainSelector(c, "")
		}
	case e.Name == cell.CompileError:
		if m := nativeNotOrdered.FindStringSubmatch(e.Value); m != nil {
			msg = m[1] + ": " + m[2] + " is ordered in Go (its underlying type is), but tick's interpreter does not match a compiled " +
				"module's named type against the ~int64-style constraint of its interpreted slices, maps, cmp, min and max. " +
				"Sort with sort.Slice(x, func(i, j int) bool { return x[i] < x[j] }), compare with < and >, or convert the " +
				"elements to their underlying type (int64(d)) first"
		} else if m := undefinedSel.FindStringSubmatch(e.Value); m != nil {
			msg = d.explainSelector(c, m[1])
		} else if m := noArgsCall.FindStringSubmatch(e.Value); m != nil {
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			if name := d.callAt(c, line, col); name != "" {
				msg = m[1] + ": not enough arguments in call to " + name + " (Shift-Tab on it shows its signature)"
			}
		} else if m := missingSrc.FindStringSubmatch(e.Value); m != nil {
			msg = d.explainMissingPackage(m[1], m[2])
		}
	}
	if msg == "" {
		return e
	}
	kind := e.Name
	if kind == cell.Unsupported {
		kind = cell.CompileError
	}
	out := cell.Errorf(kind, "%s", msg)
	out.Traceback = append([]string{string(kind) + ": " + msg}, e.Traceback[min(1, len(e.Traceback)):]...)
	return out
}

// explainNonFuncCall names the call of a value of type typ in c.
func (d *Diagnoser) explainNonFuncCall(c cell.Cell, typ string) string {
	name, pos := "", ""
	g := d.scope.Globals()
	f, fset := parseCellLoosely(c)
	if f != nil {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || name != "" {
				return name == ""
			}
			if id, ok := call.Fun.(*ast.Ident); ok {
				if v, ok := g[id.Name]; ok && v.IsValid() && v.Type().String() == typ {
					name = id.Name
					p := fset.Position(call.Pos())
					pos = fmt.Sprintf("cell[%d]:%d:%d", c.N, p.Line-1, p.Column)
				}
			}
			return true
		})
	}
	if name == "" {
		return fmt.Sprintf("cell[%d]: a value of type %s is called like a function, and it is not one", c.N, typ)
	}
	if strings.HasSuffix(typ, "JITFunc") {
		return fmt.Sprintf("%s: %s is a %s, not a function: call it with %s.Call(...) (the arguments as for the function given to tensor.JIT)", pos, name, typ, name)
	}
	return fmt.Sprintf("%s: %s is a %s, not a function: it cannot be called; look at its methods with %s.<Tab>", pos, name, typ, name)
}

// explainMissingPackage says that path is no package the session knows,
// with the nearest standard library package.
func (d *Diagnoser) explainMissingPackage(at, p string) string {
	var paths []string
	for known := range d.decls.Packages() {
		if !strings.Contains(known, "ᐩ") && !strings.HasPrefix(known, "tick/kernel") && !strings.Contains(known, "/./") {
			paths = append(paths, known)
		}
	}
	sort.Strings(paths)
	if slices.Contains(std.Compiled, p) {
		return fmt.Sprintf("%s: cannot import %q: it is in Go's standard library but not built into tick's interpreter "+
			"(it would add a third to tick's build); it is compiled on first import when the kernel can build Go: the Go "+
			"toolchain on PATH and a C compiler (docs/compiled-go.md)", at, p)
	}
	if msg := refusedStd(at, p); msg != "" {
		return msg
	}
	msg := fmt.Sprintf("%s: cannot import %q: it is not in the standard library nor one of tick's packages", at, p)
	module := strings.Contains(strings.SplitN(p, "/", 2)[0], ".")
	near := cell.Nearest(p, paths)
	if len(near) == 0 {
		near = cell.Nearest(path.Base(p), paths)
	}
	if len(near) > 0 && !module {
		msg += fmt.Sprintf("; did you mean %q?", near[0])
	}
	if module {
		msg += " A module (" + p + ") is imported when the kernel can build Go: it needs the Go toolchain on PATH and the module " +
			"in the cache or reachable (%go get " + p + "; docs/compiled-go.md)"
	} else {
		if !strings.HasSuffix(msg, "?") {
			msg += "."
		}
		msg += " The standard library, tick/runtime/tensor (with tick/runtime/nn, tick/runtime/optim and tick/runtime/data), tick/display, tick/timing and tick/profile can be imported"
	}
	return msg
}

// callAt returns the function expression of the call at line:col of c
// (cell positions), printed, or "". Calls chained on one another start at
// the same position (tensor.FromSlice(...).Transpose()): of those, a call
// of a package's function that has enough arguments is not the one, and
// the innermost of the rest is named, its receiver's call shortened to
// (...).
func (d *Diagnoser) callAt(c cell.Cell, line, col int) string {
	f, fset := parseCellLoosely(c)
	if f == nil {
		return ""
	}
	var onLine, at []*ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if p := fset.Position(call.Pos()); p.Line-1 == line {
				onLine = append(onLine, call)
				if p.Column == col {
					at = append(at, call)
				}
			}
		}
		return true
	})
	var pick *ast.CallExpr
	for _, call := range at {
		if !d.enoughArgs(call) {
			pick = call // the innermost such call wins: Inspect visits it last
		}
	}
	switch {
	case pick == nil && len(at) > 0:
		pick = at[len(at)-1]
	case pick == nil && len(onLine) > 0:
		pick = onLine[0]
	case pick == nil:
		return ""
	}
	fun := pick.Fun
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if inner, ok := sel.X.(*ast.CallExpr); ok {
			fun = &ast.SelectorExpr{X: &ast.CallExpr{Fun: inner.Fun, Args: []ast.Expr{&ast.Ident{Name: "..."}}}, Sel: sel.Sel}
		}
	}
	var b strings.Builder
	if printer.Fprint(&b, fset, fun) != nil {
		return ""
	}
	return b.String()
}

// enoughArgs reports whether call is of a function of an imported package
// (pkg.F) given at least as many arguments as F takes; false when it is not
// known.
func (d *Diagnoser) enoughArgs(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	fn, ok := d.scope.Symbols(id.Name)[sel.Sel.Name]
	if !ok || fn.Kind() != reflect.Func {
		return false
	}
	t := fn.Type()
	need := t.NumIn()
	if t.IsVariadic() {
		need--
	}
	return len(call.Args) >= need || call.Ellipsis.IsValid()
}

// parseCellLoosely parses the statements of c inside a function, for
// finding nodes by position (line numbers one more than the cell's). The
// cell's package clause and imports are blanked first (they cannot be in
// a function), keeping every position.
func parseCellLoosely(c cell.Cell) (*ast.File, *token.FileSet) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", "package p; func _() {\n"+blankHeader(c.Code)+"\n}", parser.AllErrors)
	return f, fset
}

// blankHeader returns code with its package clause and import
// declarations replaced by spaces (newlines kept).
func blankHeader(code string) string {
	src, off := code, 0
	if !strings.HasPrefix(strings.TrimSpace(code), "package ") {
		src, off = "package p;"+code, len("package p;")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly)
	if err != nil || f == nil {
		return code
	}
	b := []byte(code)
	blank := func(from, to token.Pos) {
		for i := fset.Position(from).Offset - off; i < fset.Position(to).Offset-off && i < len(b); i++ {
			if i >= 0 && b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	if off == 0 {
		blank(f.Package, f.Name.End())
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			blank(gd.Pos(), gd.End())
		}
	}
	return string(b)
}
