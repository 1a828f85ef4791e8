package cell

import (
	"go/ast"
	"go/printer"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

// A pasted program: the package clause is dropped, main and init are
// renamed (so that the interpreter runs neither by itself), and the
// package variables stay declarations (the interpreter sets a file's
// variables in Go's order, before main runs).
func TestParseWholeProgram(t *testing.T) {
	code := `package main

import "fmt"

var (
	a = b + c
	b = f()
	c = 1
)

func f() int { return c + 1 }

func init() { fmt.Println(a) }

func init() { main := 1; _ = main }

func main() {
	fmt.Println(a, b, c)
}`
	pc, err := Parse(token.NewFileSet(), Cell{N: 3, Code: code})
	if err != nil {
		t.Fatal(err)
	}
	var decls []string
	for _, d := range pc.Decls.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			decls = append(decls, d.Name.Name)
		case *ast.GenDecl:
			decls = append(decls, d.Tok.String())
		}
	}
	if got, want := strings.Join(decls, " "), "import var f ᐩinit3_0 ᐩinit3_1 ᐩmain"; got != want {
		t.Errorf("declarations %q, want %q", got, want)
	}
	if pc.Decls.Name.Name != "main" {
		t.Errorf("the package of the declarations is %q", pc.Decls.Name.Name)
	}
	if len(pc.Stmts) != 0 {
		t.Errorf("%d statements, want none", len(pc.Stmts))
	}
	if !strings.Contains(printDecl(pc, "ᐩinit3_1"), "ᐩmain := 1") {
		t.Errorf("main, a local variable, is not renamed with the function: %s", printDecl(pc, "ᐩinit3_1"))
	}
}

// Without a package clause, a cell's package variables run as statements;
// in a cell of declarations only, in Go's initialization order.
func TestParseVarOrder(t *testing.T) {
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "var (\n\ta = b + c\n\tb = f()\n\tc = 1\n)\nfunc f() int { return c + 1 }"})
	if err != nil {
		t.Fatal(err)
	}
	var stmts []string
	for _, st := range pc.Stmts {
		var b strings.Builder
		_ = printer.Fprint(&b, token.NewFileSet(), st)
		stmts = append(stmts, b.String())
	}
	// c first (no dependency), then b (f uses c), then a.
	if got, want := strings.Join(stmts, "; "), "c := 1; b := f(); a := b + c"; got != want {
		t.Errorf("statements %q, want %q", got, want)
	}
}

func printDecl(pc *Parsed, name string) string {
	for _, d := range pc.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			var b strings.Builder
			_ = printer.Fprint(&b, token.NewFileSet(), fd)
			return b.String()
		}
	}
	return ""
}

// Only package main may start a cell; a field, a selector or a composite
// literal key named main is not the function.
func TestParsePackageClauseAndMainNames(t *testing.T) {
	if _, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "package stats\n\nfunc Mean() {}"}); err == nil ||
		!strings.Contains(err.Error(), "package stats: cells are package main") {
		t.Errorf("package stats: %v", err)
	}
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "type T struct{ main int }\nt := T{main: 1}\nt.main++\nmain()"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, n := range pc.Nodes() {
		_ = printer.Fprint(&b, token.NewFileSet(), n)
		b.WriteString("\n")
	}
	got := b.String()
	for _, want := range []string{"struct{ main int }", "T{main: 1}", "t.main++", "ᐩmain()"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

// Statements other than variables keep their order: a notebook cell's
// variables are not moved around its statements.
func TestParseVarsKeepOrderAmongStatements(t *testing.T) {
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "var a = b\nprintln(a)\nvar b = 1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pc.Stmts) != 3 {
		t.Fatalf("%d statements", len(pc.Stmts))
	}
	if as, ok := pc.Stmts[0].(*ast.AssignStmt); !ok || as.Lhs[0].(*ast.Ident).Name != "a" {
		t.Errorf("first statement %T, want a := b", pc.Stmts[0])
	}
}

func TestUserNames(t *testing.T) {
	for in, want := range map[string]string{
		"cell[1]:1:1: undefined: ᐩmain":                "no cell has declared func main",
		"panic in ᐩinit2_0 called from ᐩmain":          "panic in init called from main",
		"cell[1]:1:1: cannot use ᐩmain (value of type": "cannot use main (value of type",
	} {
		if got := Message(1, in); !strings.Contains(got, want) {
			t.Errorf("Message(%q) = %q, want it to contain %q", in, got, want)
		}
	}
}

// A function's parameter named like a package variable is not a use of
// the variable (yaegi's corpus program var13).
func TestParseVarOrderIgnoresParameters(t *testing.T) {
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "var a = g(b)\nvar b = \"x\"\nfunc g(a ...string) string { return a[0] }"})
	if err != nil {
		t.Fatal(err)
	}
	if as, ok := pc.Stmts[0].(*ast.AssignStmt); !ok || as.Lhs[0].(*ast.Ident).Name != "b" {
		t.Errorf("first statement is not b's")
	}
}

// `var _ I = v` keeps its check without assigning to _ (yaegi's corpus
// program interface36: "cannot use _ as value"); `var _ = f()` assigns.
func TestParseBlankVars(t *testing.T) {
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "var _ I = t\nvar _ = f()"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, st := range pc.Stmts {
		_ = printer.Fprint(&b, token.NewFileSet(), st)
		b.WriteString("; ")
	}
	if !regexp.MustCompile(`^var (ᐩblank\d+) I; (ᐩblank\d+) = t; _ = f\(\); $`).MatchString(b.String()) {
		t.Errorf("statements %q, want var ᐩblankN I; ᐩblankN = t; _ = f()", b.String())
	}
}

// A GoNB main cell (a bare %% first line) is the body of func main; its
// lines keep their numbers.
func TestParseGoNBMainCell(t *testing.T) {
	pc, err := Parse(token.NewFileSet(), Cell{N: 2, Code: "%%\nx := 2\nfmt.Println(x)"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pc.Decls.Decls) != 1 || len(pc.Stmts) != 0 {
		t.Fatalf("decls %d, statements %d; want func main alone", len(pc.Decls.Decls), len(pc.Stmts))
	}
	fd := pc.Decls.Decls[0].(*ast.FuncDecl)
	if fd.Name.Name != MainName || len(fd.Body.List) != 2 {
		t.Errorf("func %s with %d statements", fd.Name.Name, len(fd.Body.List))
	}
	if p := pc.Pos(fd.Body.List[1].Pos()); p.Line != 3 || p.Col != 1 {
		t.Errorf("fmt.Println is at %v, want cell[2]:3:1", p)
	}
	if _, err := Parse(token.NewFileSet(), Cell{N: 2, Code: "%% -n 3\nf()"}); err == nil || !strings.Contains(err.Error(), "arguments after the marker") {
		t.Errorf("%%%% with arguments: %v", err)
	}
}

// Imports at the top of a GoNB main cell stay package-level.
func TestParseGoNBMainCellImports(t *testing.T) {
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "%%\nimport (\n\t\"fmt\"\n)\nimport \"strings\"\n\nfmt.Println(strings.ToUpper(\"x\"))"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range pc.Decls.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			names = append(names, d.Tok.String())
		case *ast.FuncDecl:
			names = append(names, d.Name.Name)
			if p := pc.Pos(d.Body.List[0].Pos()); p.Line != 7 {
				t.Errorf("the first statement is at %v, want line 7", p)
			}
		}
	}
	if got := strings.Join(names, " "); got != "import import ᐩmain" {
		t.Errorf("declarations %q", got)
	}
}

// In a pasted file, `var a, b int = f()` runs as statements (the
// interpreter left such a file declaration unset: yaegi corpus ret5); the
// other vars stay declarations.
func TestParseWholeProgramTypedVars(t *testing.T) {
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "package main\n\nvar (\n\tn = 2\n\ta, b int = f()\n)\n\nfunc f() (int, int) { return 1, n }"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, st := range pc.Stmts {
		_ = printer.Fprint(&b, token.NewFileSet(), st)
		b.WriteString("; ")
	}
	if got, want := b.String(), "var a, b int; a, b = f(); "; got != want {
		t.Errorf("statements %q, want %q", got, want)
	}
	if g, ok := pc.Decls.Decls[0].(*ast.GenDecl); !ok || len(g.Specs) != 1 || g.Specs[0].(*ast.ValueSpec).Names[0].Name != "n" {
		t.Errorf("the first declaration is not var n")
	}
}

// Imports run one package a piece: a refused package leaves the ones
// before it bound and recorded (a later cell's import of fmt is dropped,
// not a second import).
func TestPiecesImportOnePackageEach(t *testing.T) {
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: "import (\n\t\"fmt\"\n\tx \"os/exec\"\n)\nimport \"strings\"\nfmt.Println(x.Command, strings.ToUpper)"})
	if err != nil {
		t.Fatal(err)
	}
	var imports []string
	for _, p := range pc.Pieces() {
		if p.File == nil {
			continue
		}
		for _, d := range p.File.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				if len(p.File.Decls) != 1 || len(g.Specs) != 1 {
					t.Errorf("a piece with %d declarations, %d imports", len(p.File.Decls), len(g.Specs))
				}
				imports = append(imports, g.Specs[0].(*ast.ImportSpec).Path.Value)
			}
		}
	}
	if got := strings.Join(imports, " "); got != `"fmt" "os/exec" "strings"` {
		t.Errorf("imports %s", got)
	}
}

// Declarations that refer to one another in a cycle keep their source
// order, together, after what they use and before what uses them: yaegi
// resolves interface types that refer to one another in the order of the
// file (yaegi corpus interface49: "undefined: FileDescriptor" when the
// cycle was broken at its first item and the rest sorted).
func TestPiecesKeepCyclesInSourceOrder(t *testing.T) {
	code := `x := 1
type A interface{ F() B }
type B interface{ G() C }
type C interface{ A; H(D) }
type D interface{ C }
var y = x
type E interface{ A }
`
	pc, err := Parse(token.NewFileSet(), Cell{N: 1, Code: code})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pc.Pieces() {
		if p.File == nil {
			for _, st := range p.Stmts {
				for name := range stmtDefs(st) {
					names = append(names, name)
				}
			}
			continue
		}
		for _, d := range p.File.Decls {
			for name := range declDefs(d) {
				names = append(names, name)
			}
		}
	}
	if got, want := strings.Join(names, " "), "A B C D E x y"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
}
