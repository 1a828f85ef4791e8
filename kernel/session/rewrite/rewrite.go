// Package rewrite rewrites the AST of a parsed cell before the interpreter
// compiles it, as an ordered list of named passes (Passes): interrupt
// checkpoints in loops and at function entry, a recover guard in every
// goroutine user code starts, workarounds of interpreter faults (defers
// in functions, typed iota blocks), and bridges for the modern Go yaegi
// lacks (min/max of constants, range over int, per-iteration loop variables,
// clear, comma-ok forms and receives at top level). It also writes the
// harness's own code: the value probes (value.go) and the timed loop of the
// timing magics (timedloop.go). Code the harness writes is marked
// explicitly (Options.Generated) so that no pass instruments it; names the
// passes make start with ᐩ so that they cannot collide with user code.
//
// The package is pure (go/ast only): the golden tests in
// kernel/session/testdata/rewrite show, for each cell, the source yaegi
// compiles.
package rewrite

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Runtime is the package name rewritten code calls the session's runtime
// by (ᐩrt.Interrupted(), *ᐩrt.Stop, ...): the engine binds its runtime package
// under this name.
const Runtime = "ᐩrt"

// Options configure Apply.
type Options struct {
	// Ints holds the names known to have an integer type (the session's
	// integer globals), for recognising `for i := range n`. Apply adds the
	// names the cell itself declares with an integer type.
	Ints map[string]bool
	// Generated are nodes the harness wrote, such as the timed loop of
	// %timeit (TimedLoopNode): no pass instruments them, so timing
	// measures the statement alone.
	Generated []ast.Node
	// CheckpointCall makes loop checkpoints call ᐩrt.Interrupted() instead
	// of reading *ᐩrt.Stop: slower, but free of data races, for builds
	// with the race detector.
	CheckpointCall bool
	// Dump, when set, receives the cell's source after each pass.
	Dump io.Writer
	// Chans holds the names known to be channels (the session's channel
	// globals), for recognising `for v := range c` over a channel. Apply
	// adds the names the cell itself declares as channels.
	Chans map[string]bool
	// MethodSig, when set, gives the signatures of methods the cell does
	// not declare, for method expressions (pass method-expr).
	MethodSig MethodSig
	// VarType, when set, gives the types of the session's variables, for
	// declaring a top-level variable defined from a generic call.
	VarType VarType
	// Imports maps the package names earlier cells imported to their
	// import paths (for std-generics); the cell's own imports are added.
	Imports map[string]string
	// Consts holds the names of the session's constants (go-guard leaves
	// them in a go statement's call; the cell's own are found).
	Consts map[string]bool
}

// Unit is the cell a pass rewrites in place, with what the passes share.
type Unit struct {
	*cell.Parsed
	ints      map[string]bool
	chans     map[string]bool
	generated map[ast.Node]bool
	call      bool
	imports   map[string]string
	methodSig MethodSig
	varType   VarType
	consts    map[string]bool
	n         int // counter of fresh names
}

// Pass is one named rewrite of a cell.
type Pass struct {
	Name string
	Run  func(u *Unit)
}

// Passes returns the passes Apply runs, in order. The order matters where
// one pass makes what another looks for: per-iteration copies are made
// before range-over-int loops are rewritten (which copy their own
// variable), loop checkpoints after both, goroutine guards before function
// entries (so a goroutine's function enters, then guards), and the
// top-level bridges last, on the statements the other passes left.
func Passes() []Pass {
	return []Pass{
		{"whole-program", wholeProgram},
		{"const-iota", constIota},
		{"method-expr", methodExpr},
		{"fold-min-max", foldMinMax},
		{"std-generics", stdGenerics},
		{"error-assert", errorAssert},
		{"top-level-defer", topLevelDefer},
		{"func-defer", funcDefer},
		{"per-iteration", perIteration},
		{"range-int", rangeInt},
		{"func-args", funcArgs},
		{"recv-expr", recvExpr},
		{"interruptible", interruptible},
		{"loop-checkpoints", loopCheckpoints},
		{"go-guard", goGuard},
		{"make-guard", makeGuard},
		{"func-entry", funcEntry},
		{"clear", clearBuiltin},
		{"builtins", builtinCalls},
		{"paren-recv", parenRecv},
		{"comma-ok", commaOK},
		{"top-level-func", topLevelFunc},
	}
}

// Apply runs the passes on p, in place.
func Apply(p *cell.Parsed, o Options) {
	ints := o.Ints
	if ints == nil {
		ints = map[string]bool{}
	}
	chans := map[string]bool{}
	for name := range o.Chans {
		chans[name] = true
	}
	u := &Unit{Parsed: p, ints: ints, chans: chans, generated: map[ast.Node]bool{}, call: o.CheckpointCall, imports: o.Imports, methodSig: o.MethodSig, varType: o.VarType, consts: o.Consts}
	for _, n := range o.Generated {
		u.generated[n] = true
	}
	for _, n := range p.Nodes() {
		collectInts(n, ints)
		collectChans(n, chans)
	}
	for _, pass := range Passes() {
		pass.Run(u)
		if o.Dump != nil {
			fmt.Fprintf(o.Dump, "// ---- cell[%d] after %s\n%s", p.Cell.N, pass.Name, Source(p))
		}
	}
}

// Source prints a parsed cell as Go source: its declarations, statements
// and value, each on its own. The layout is go/printer's alone (positions
// are ignored), so it is the same for the same code.
func Source(p *cell.Parsed) string {
	var b strings.Builder
	fset := token.NewFileSet()
	print := func(n any) {
		if err := printer.Fprint(&b, fset, n); err != nil {
			fmt.Fprintf(&b, "/* %v */", err)
		}
		b.WriteString("\n")
	}
	if p.Decls != nil {
		for _, d := range p.Decls.Decls {
			print(d)
		}
	}
	for _, st := range p.Stmts {
		print(st)
	}
	if p.Value != nil {
		print(p.Value)
	}
	return b.String()
}

// inspect calls ast.Inspect with f on the declarations, the statements
// and the value.
func (u *Unit) inspect(f func(ast.Node) bool) {
	for _, n := range u.Nodes() {
		ast.Inspect(n, f)
	}
}

// lists calls f on every statement list of the cell, outer lists first:
// the top-level statements, then the lists of blocks and of case and
// select clauses. f may replace the elements of a list; the walk then
// goes into the replacements.
func (u *Unit) lists(f func(list []ast.Stmt)) {
	f(u.Stmts)
	u.inspect(func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BlockStmt:
			f(x.List)
		case *ast.CaseClause:
			f(x.Body)
		case *ast.CommClause:
			f(x.Body)
		}
		return true
	})
}

// expandLists replaces every statement list of the cell by what expand
// returns for it (which may be longer: statements inserted before others):
// each block and clause as the walk reaches it, the top-level list last.
func (u *Unit) expandLists(expand func(list []ast.Stmt) []ast.Stmt) {
	u.inspect(func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BlockStmt:
			x.List = expand(x.List)
		case *ast.CaseClause:
			x.Body = expand(x.Body)
		case *ast.CommClause:
			x.Body = expand(x.Body)
		}
		return true
	})
	u.Stmts = expand(u.Stmts)
}

// loopOf returns the statement a label labels, or st.
func loopOf(st ast.Stmt) ast.Stmt {
	if l, ok := st.(*ast.LabeledStmt); ok {
		return l.Stmt
	}
	return st
}

// fresh returns a new synthesised name derived from name.
func (u *Unit) fresh(name string) string {
	u.n++
	return "ᐩ" + name + strings.Repeat("ᐩ", u.n%2) + strconv.Itoa(u.n)
}

// generate marks n as written by the rewriter: later passes leave it alone.
func (u *Unit) generate(n ast.Node) { u.generated[n] = true }

func ident(name string) *ast.Ident { return &ast.Ident{Name: name} }

// rtCall returns ᐩrt.name(args...).
func rtCall(name string, args ...ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(Runtime), Sel: ident(name)}, Args: args}
}

// funcLit returns func() { body }.
func funcLit(body ...ast.Stmt) *ast.FuncLit {
	return &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: &ast.BlockStmt{List: body}}
}

// prepend inserts synthesised statements at the start of a block.
func prepend(b *ast.BlockStmt, pos token.Pos, sts ...ast.Stmt) {
	for _, st := range sts {
		SetPos(st, pos)
	}
	b.List = append(sts, b.List...)
}

// SetPos gives the unset positions of the synthesised nodes in n the
// position pos, so that they carry a position in the cell's file (yaegi
// derives import scopes from node positions). It does not descend into
// nodes that already have a position (user code), and leaves alone the
// positions whose zero value has a meaning (f(x...), chan directions,
// aliases).
func SetPos(n ast.Node, pos token.Pos) {
	eachPos(n, func(n ast.Node) bool { return !n.Pos().IsValid() }, func(field string, v reflect.Value) {
		switch field {
		case "Ellipsis", "Arrow", "Assign":
			return
		}
		if v.Int() == 0 {
			v.SetInt(int64(pos))
		}
	})
}

// eachPos calls set on every settable token.Pos field of the nodes under n
// that visit accepts (a node it refuses is skipped with its children).
func eachPos(n ast.Node, visit func(ast.Node) bool, set func(field string, v reflect.Value)) {
	posType := reflect.TypeOf(token.NoPos)
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil || !visit(n) {
			return false
		}
		v := reflect.ValueOf(n)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return true
		}
		v = v.Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Type() == posType && f.CanSet() {
				set(v.Type().Field(i).Name, f)
			}
		}
		return true
	})
}
