package cell

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"
)

// A cell may hold a whole program, pasted from a file that `go run` runs:
// a package clause, imports, declarations and func main. Parse accepts the
// clause `package main` (cells are package main) and drops it, and hides
// main and init from the interpreter, which treats them specially: yaegi
// runs a package main's func main after every later compile, runs init
// functions when they are compiled (before the cell's variables are set),
// and resolves an undefined `main` to the package itself, whose call
// deadlocks it. So the function main a cell declares, and every use of the
// name main, become MainName; each init function becomes InitPrefix plus
// the cell's number and its index. The rewrite pass whole-program calls
// them as `go run` would: the inits after the cell's variables, main at
// the end of the cell.

// MainName is the name func main of a cell is declared under, and the name
// `main` in cell code refers to.
const MainName = "ᐩmain"

// InitPrefix starts the names of a cell's init functions.
const InitPrefix = "ᐩinit"

// UserName is name as the user wrote it: main for MainName, init for an
// init function; other names are returned as they are.
func UserName(name string) string {
	switch {
	case name == MainName:
		return "main"
	case strings.HasPrefix(name, InitPrefix):
		return "init"
	}
	return name
}

// renamed matches the names Parse gives main and init functions.
var renamed = regexp.MustCompile(MainName + `|` + InitPrefix + `\d+_\d+`)

// userNames puts the names the user wrote back into a message of the
// interpreter: main and init. A call of main that no cell declared says so.
func userNames(msg string) string {
	if strings.HasSuffix(msg, "undefined: "+MainName) {
		return strings.TrimSuffix(msg, MainName) + "main (no cell has declared func main: a cell that declares it runs it at its end, as go run does, and main() runs it again)"
	}
	return renamed.ReplaceAllStringFunc(msg, UserName)
}

// packageClause matches a package clause: what a cell may start with.
var packageClause = regexp.MustCompile(`^package\s+(\S+)\s*$`)

// dropPackageClause removes the package clause that starts the first unit
// of code, the Go code of c, and says whether there was one: `package main`
// is accepted (a cell's code is package main), another name is an error
// saying why.
func dropPackageClause(c Cell, code string, units []unit) (_ []unit, dropped bool, _ error) {
	if len(units) == 0 {
		return units, false, nil
	}
	m := packageClause.FindStringSubmatch(code[units[0].start:units[0].end])
	if m == nil {
		return units, false, nil
	}
	if m[1] != "main" {
		return nil, false, fmt.Errorf("%s: package %s: cells are package main, so a cell may start with `package main` only; "+
			"code of another package goes in a module that a cell imports (docs/compiled-go.md)", c.Pos(units[0].start), m[1])
	}
	return units[1:], true, nil
}

// renameMainAndInit renames func main and the uses of the name main to
// MainName, and each init function of the cell to InitPrefix<cell>_<i>.
// Field names, selectors and composite-literal keys are left alone.
func renameMainAndInit(pc *Parsed) {
	inits := 0
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" && fd.Type.TypeParams == nil {
				fd.Name.Name = fmt.Sprintf("%s%d_%d", InitPrefix, pc.Cell.N, inits)
				inits++
			}
		}
	}
	for _, n := range pc.Nodes() {
		renameIdent(n, "main", MainName)
	}
}

// renameIdent renames the identifiers old under n that can name a
// package-level function or variable.
func renameIdent(n ast.Node, old, repl string) {
	skip := map[*ast.Ident]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.File:
			skip[x.Name] = true // the package clause: package main
		case *ast.SelectorExpr:
			skip[x.Sel] = true
		case *ast.StructType:
			for _, f := range x.Fields.List {
				for _, id := range f.Names {
					skip[id] = true
				}
			}
		case *ast.InterfaceType:
			for _, f := range x.Methods.List {
				for _, id := range f.Names {
					skip[id] = true
				}
			}
		case *ast.FuncDecl:
			if x.Recv != nil {
				skip[x.Name] = true
			}
		case *ast.CompositeLit:
			for _, e := range x.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						skip[id] = true
					}
				}
			}
		case *ast.Ident:
			if x.Name == old && !skip[x] {
				x.Name = repl
			}
		}
		return true
	})
}

// orderVars puts the statements that came from package-level var
// declarations in the order Go initializes package variables: repeatedly
// the earliest one whose initializer depends on no variable not yet
// initialized, where an initializer depends on the variables it uses
// directly or through the cell's functions. Only a cell whose every
// statement is a variable's is reordered (a pasted program or a block of
// declarations); in a cell with other statements, statements keep their
// order. It returns the statements, reordered or not.
func orderVars(stmts []ast.Stmt, vars map[ast.Stmt]bool, decls *ast.File) []ast.Stmt {
	if len(vars) < 2 || len(vars) != len(stmts) {
		return stmts
	}
	funcs := map[string]map[string]bool{} // a function → the names its body uses, less its own
	if decls != nil {
		for _, d := range decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				funcs[fd.Name.Name] = usesOf(fd)
			}
		}
	}
	defined := map[string]int{} // variable name → its statement
	for i, st := range stmts {
		for name := range stmtDefs(st) {
			defined[name] = i
		}
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN { // the assignment of `var x T = v`
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					defined[id.Name] = i
				}
			}
		}
	}
	deps := make([]map[int]bool, len(stmts))
	for i, st := range stmts {
		deps[i] = map[int]bool{}
		seen := map[string]bool{}
		var walk func(uses map[string]bool)
		walk = func(uses map[string]bool) {
			for name := range uses {
				if seen[name] {
					continue
				}
				seen[name] = true
				if j, ok := defined[name]; ok && j != i {
					deps[i][j] = true
				}
				if f, ok := funcs[name]; ok {
					walk(f)
				}
			}
		}
		walk(idents(st))
	}
	// `var x T` and `x = v` of one variable are two statements: the
	// declaration goes first.
	for i, st := range stmts {
		if i > 0 {
			if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				if _, ok := stmts[i-1].(*ast.DeclStmt); ok {
					deps[i][i-1] = true
					delete(deps[i-1], i)
				}
			}
		}
	}
	done := make([]bool, len(stmts))
	out := make([]ast.Stmt, 0, len(stmts))
	for len(out) < len(stmts) {
		pick := -1
		for i := range stmts {
			if done[i] {
				continue
			}
			ready := true
			for j := range deps[i] {
				if !done[j] {
					ready = false
					break
				}
			}
			if ready {
				pick = i
				break
			}
		}
		if pick < 0 { // a cycle (Go rejects it): source order
			for i := range stmts {
				if !done[i] {
					pick = i
					break
				}
			}
		}
		done[pick] = true
		out = append(out, stmts[pick])
	}
	return out
}

// usesOf returns the names a function's body uses that are not its own:
// its parameters, results and the names its body declares are left out
// (a parameter named like a package variable does not refer to it; a
// name declared in one block and used in another is still left out, which
// is what Go's rule needs in practice).
func usesOf(fd *ast.FuncDecl) map[string]bool {
	uses := idents(fd.Body)
	own := map[string]bool{}
	for _, fl := range []*ast.FieldList{fd.Type.Params, fd.Type.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				own[id.Name] = true
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for name := range stmtDefs(x) {
				own[name] = true
			}
		case *ast.RangeStmt:
			if x.Tok == token.DEFINE {
				for _, e := range []ast.Expr{x.Key, x.Value} {
					if id, ok := e.(*ast.Ident); ok {
						own[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				own[id.Name] = true
			}
		}
		return true
	})
	for name := range own {
		delete(uses, name)
	}
	return uses
}
