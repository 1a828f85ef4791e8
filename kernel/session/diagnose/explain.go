package diagnose

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path"
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
		}
	case e.Name == cell.CompileError:
		if m := noArgsCall.FindStringSubmatch(e.Value); m != nil {
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			if name := callAt(c, line, col); name != "" {
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
		msg += " The standard library, tick/runtime/tensor, tick/display, tick/timing and tick/profile can be imported"
	}
	return msg
}

// callAt returns the function expression of the call at line:col of c
// (cell positions), printed, or "".
func callAt(c cell.Cell, line, col int) string {
	f, fset := parseCellLoosely(c)
	if f == nil {
		return ""
	}
	name := ""
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		p := fset.Position(call.Pos())
		if p.Line-1 == line && p.Column == col || name == "" && p.Line-1 == line {
			var b strings.Builder
			if printer.Fprint(&b, fset, call.Fun) == nil {
				name = b.String()
			}
		}
		return true
	})
	return name
}

// parseCellLoosely parses the statements of c inside a function, for
// finding nodes by position (line numbers one more than the cell's).
func parseCellLoosely(c cell.Cell) (*ast.File, *token.FileSet) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", "package p; func _() {\n"+c.Code+"\n}", parser.AllErrors)
	return f, fset
}
