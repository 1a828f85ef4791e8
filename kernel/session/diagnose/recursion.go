package diagnose

import (
	"fmt"
	"go/ast"
	"regexp"
	"strings"
	"sync"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/decls"
)

// YaegiFrame parses a frame line printed by yaegi: "3:5: panic: main.f(...)".
var YaegiFrame = regexp.MustCompile(`^(?:\S+:)?(\d+:\d+): panic(?:: (.*))?$`)

// Runaway recursion (rt/depth.go) is reported by the name of the
// function that went too deep. yaegi's frame line for it gives the
// position where the function's body starts ("2:21: panic:
// main.ᐩtop1.func(...)") and, for a declared function, its name; a
// function literal is named here by what it is assigned to. Funcs
// remembers, for every function literal of the cells parsed so far, the
// name at the position of its body.
type Funcs struct {
	mu    sync.Mutex
	names map[string]litName // "line:col" of the body's { → the latest cell's literal there
}

type litName struct {
	cell int
	name string // "h", or "" for an anonymous literal
}

// Add records the function literals of a parsed cell.
func (x *Funcs) Add(pc *cell.Parsed) {
	named := map[*ast.FuncLit]string{}
	var lits []*ast.FuncLit
	for _, n := range pc.Nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				lits = append(lits, n)
			case *ast.AssignStmt:
				for i, r := range n.Rhs {
					if lit, ok := r.(*ast.FuncLit); ok && i < len(n.Lhs) {
						named[lit] = exprName(n.Lhs[i])
					}
				}
			case *ast.ValueSpec:
				for i, v := range n.Values {
					if lit, ok := v.(*ast.FuncLit); ok && i < len(n.Names) {
						named[lit] = n.Names[i].Name
					}
				}
			case *ast.KeyValueExpr:
				if lit, ok := n.Value.(*ast.FuncLit); ok {
					named[lit] = exprName(n.Key)
				}
			}
			return true
		})
	}
	if len(lits) == 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.names == nil {
		x.names = map[string]litName{}
	}
	for _, lit := range lits {
		p := pc.Pos(lit.Body.Lbrace)
		x.names[fmt.Sprintf("%d:%d", p.Line, p.Col)] = litName{cell: p.Cell, name: named[lit]}
	}
}

func (x *Funcs) lookup(lineCol string) (litName, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n, ok := x.names[lineCol]
	return n, ok
}

// exprName is the name of an assignment's target: x, s.f, m["k"].
func exprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprName(e.X) + "." + e.Sel.Name
	case *ast.IndexExpr:
		return exprName(e.X) + "[…]"
	case *ast.BasicLit:
		return e.Value
	}
	return ""
}

// RecursionSite names the function runaway recursion went too deep in,
// from the first frame yaegi reported (frames), the function literals
// funcs saw and the cells that declared each function (catalog): "h (the
// function literal at cell[2]:2:21)", "fib (declared in cell[3])"; ""
// when unknown. c is the running cell.
func RecursionSite(c cell.Cell, frames []string, funcs *Funcs, catalog *decls.Catalog) string {
	for _, f := range frames {
		m := YaegiFrame.FindStringSubmatch(f)
		if m == nil {
			continue
		}
		fn := strings.TrimPrefix(strings.TrimSuffix(m[2], "(...)"), "main.")
		if !strings.HasSuffix(fn, ".func") && fn != "func" && fn != "" && !strings.HasPrefix(fn, "ᐩ") {
			where := c.N
			if n, ok := catalog.FuncCell(strings.SplitN(fn, ".", 2)[0]); ok {
				where = n
			}
			return fmt.Sprintf("%s (declared in cell[%d])", fn, where)
		}
		if lit, ok := funcs.lookup(m[1]); ok {
			at := fmt.Sprintf("cell[%d]:%s", lit.cell, m[1])
			if lit.name == "" {
				return "the function literal at " + at
			}
			return fmt.Sprintf("%s (the function literal at %s)", lit.name, at)
		}
		return "the function literal at line " + m[1] + " of its cell"
	}
	return ""
}

// DepthMessage says what runaway recursion past depth interpreted calls
// (rt.DepthSignal.Depth) did in site (RecursionSite) and what to do.
func DepthMessage(site string, depth int64) string {
	in, fix := "", "the recursive function"
	if site != "" {
		in, fix = " in "+site, strings.SplitN(site, " (", 2)[0]
		if strings.HasPrefix(fix, "the function literal") {
			fix = "that function"
		}
	}
	return fmt.Sprintf("call depth passed %d interpreted calls%s: runaway recursion? Check the base case of %s. "+
		"The interpreter stops recursion past %d calls, before it would overflow the goroutine's stack; "+
		"if it is meant to be this deep, write it as a loop or compile it in a %%%%go cell. "+
		"The goroutine was stopped; the session and its variables are kept", depth-1, in, fix, depth-1)
}
