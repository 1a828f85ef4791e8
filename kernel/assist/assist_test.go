package assist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeScope is a session that ran the cells given.
type fakeScope struct {
	cells  []string
	values map[string]string
}

func (f *fakeScope) Ran(from int) []string { return f.cells[min(from, len(f.cells)):] }
func (f *fakeScope) Value(name string) (string, bool) {
	v, ok := f.values[name]
	return v, ok
}

var testPackages = map[string]string{
	"fmt": "fmt", "strings": "strings", "strconv": "strconv", "time": "time", "path/filepath": "filepath",
	"encoding/json": "json", "encoding/xml": "xml", "math/rand": "rand", "crypto/rand": "rand", "os": "os",
	"tick/runtime/tensor": "tensor", "tick/display": "display", "errors": "errors", "bytes": "bytes",
}

func newTestAssistant(t *testing.T, cells ...string) (*Assistant, *fakeScope) {
	t.Helper()
	s := &fakeScope{cells: cells, values: map[string]string{"count": "= 42"}}
	return New(s, Options{Packages: testPackages, CacheDir: "-"}), s
}

func texts(ms []Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Text
	}
	return out
}

func has(ms []Match, text string) (Match, bool) {
	for _, m := range ms {
		if m.Text == text {
			return m, true
		}
	}
	return Match{}, false
}

func TestComplete(t *testing.T) {
	a, _ := newTestAssistant(t,
		"import \"fmt\"\nimport \"tick/runtime/tensor\"\ntype Base struct{ ID int }\nfunc (b *Base) Describe() string { return fmt.Sprint(b.ID) }\n"+
			"type Plot struct {\n\tBase\n\tTitle string\n\tlabel string\n}\ncount := 42\np := &Plot{}",
		"// add sums.\nfunc add(a, b int) int { return a + b }\nx := tensor.Ones(3)")
	cases := []struct {
		name, code string
		want       []string
		notWant    []string
		start      int    // -1: the identifier before the cursor
		kind, sig  string // of want[0]
	}{
		{"same-cell name", "zzqLongName := 3\nzzqLong", []string{"zzqLongName"}, nil, -1, "variable", "int"},
		{"local and parameter", "func f(param int) {\n\tlocalVar := 2\n\tlo", []string{"localVar"}, []string{"param"}, -1, "variable", "int"},
		{"parameter", "func f(param int) {\n\tpa", []string{"param"}, nil, -1, "variable", "int"},
		{"not after the cursor", "la\nlater := 1", nil, []string{"later"}, -1, "", ""},
		{"chain on tensor", "tensor.Ones(3).Res", []string{"Reshape"}, nil, -1, "method", ""},
		{"chain on time", "import \"time\"\ntime.Now().Uni", []string{"Unix", "UnixMilli"}, nil, -1, "method", "func() int64"},
		{"chain on an unimported package", "time.Now().Uni", []string{"Unix"}, nil, -1, "method", ""},
		{"session variable's type", "x.Res", []string{"Reshape"}, nil, -1, "method", ""},
		{"field, promoted field and method", "p.", []string{"Title", "ID", "Describe", "label"}, []string{"Xlabel"}, -1, "field", "string"},
		{"unimported strconv", "strconv.Ato", []string{"Atoi"}, nil, -1, "function", "func(s string) (int, error)"},
		{"unimported filepath", "filepath.Ba", []string{"Base"}, nil, -1, "function", "func(path string) string"},
		{"unimported display", "display.HT", []string{"HTML"}, nil, -1, "function", ""},
		{"import path", "import \"encoding/js", []string{"encoding/json"}, []string{"encoding/xml"}, len("import \""), "path", ""},
		{"import path in a block", "import (\n\t\"fmt\"\n\t\"str", []string{"strings", "strconv"}, nil, len("import (\n\t\"fmt\"\n\t\""), "path", ""},
		{"keyword at a statement", "fo", []string{"for"}, nil, -1, "keyword", ""},
		{"no statement keyword in an expression", "y := fo", nil, []string{"for"}, -1, "", ""},
		{"return only in a function", "func g() int {\n\tret", []string{"return"}, nil, -1, "keyword", ""},
		{"session function", "ad", []string{"add"}, nil, -1, "function", "func(a int, b int) int"},
		{"builtin", "n := appen", []string{"append"}, nil, -1, "function", ""},
		{"unimported package name", "strc", []string{"strconv"}, nil, -1, "module", ""},
		{"nothing in a comment", "// fo", nil, []string{"for"}, -1, "", ""},
		{"nothing in a string", "s := \"fo", nil, []string{"for"}, -1, "", ""},
		{"loop variable", "for idx := 0; idx < 3; idx++ {\n\tid", []string{"idx"}, nil, -1, "variable", "int"},
		{"inside an if header", "if count.", nil, nil, -1, "", ""},
		{"no pointer method of a composite literal", "Base{}.", []string{"ID"}, []string{"Describe"}, -1, "field", "int"},
		{"pointer method of a variable", "var bv Base\nbv.", []string{"Describe", "ID"}, nil, -1, "method", "func() string"},
		{"pointer method through a pointer", "(&Base{}).", []string{"Describe"}, nil, -1, "method", ""},
		{"in a line magic's statement", "%timeit -n 10 y := x.Res", []string{"Reshape"}, nil, -1, "method", ""},
		{"in a cell magic's body", "%%timeit\nfor i := 0; i < 3; i++ {\n\tx.Res", []string{"Reshape"}, nil, -1, "method", ""},
		{"Go after a magic line", "%time\nzq := 1\nz", []string{"zq"}, nil, -1, "variable", "int"},
		{"a module tick requires", "import \"gonum.org/v1/gonum/mat\"\nm := mat.NewDense(2, 2, nil)\nm.Dim", []string{"Dims"}, nil, -1, "method", "func() (r int, c int)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := a.Complete(c.code, len(c.code))
			for i, w := range c.want {
				m, ok := has(got.Matches, w)
				if !ok {
					t.Fatalf("Complete(%q) = %v, want %q among them", c.code, texts(got.Matches), w)
				}
				if i == 0 && (c.kind != "" && m.Kind != c.kind || c.sig != "" && m.Signature != c.sig) {
					t.Errorf("Complete(%q): %q is %q %q, want %q %q", c.code, w, m.Kind, m.Signature, c.kind, c.sig)
				}
			}
			for _, w := range c.notWant {
				if _, ok := has(got.Matches, w); ok {
					t.Errorf("Complete(%q) = %v, must not hold %q", c.code, texts(got.Matches), w)
				}
			}
			start := c.start
			if start < 0 {
				start = identStart(c.code, len(c.code))
			}
			if got.Start != start || got.End != len(c.code) {
				t.Errorf("Complete(%q): range [%d,%d), want [%d,%d)", c.code, got.Start, got.End, start, len(c.code))
			}
		})
	}
}

func TestInspect(t *testing.T) {
	a, _ := newTestAssistant(t,
		"import \"strings\"\n// Point is a point on the plane.\ntype Point struct{ X, Y int }\n// Norm is the squared length.\nfunc (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }\n"+
			"// add sums two numbers.\nfunc add(a, b int) int {\n\treturn a + b\n}\ncount := 42")
	cases := []struct {
		name, code string
		cursor     int
		detail     int
		want       []string
		notWant    []string
	}{
		{"std function with names and docs", "strings.ToUpper", 10, 0, []string{"func strings.ToUpper(s string) string", "ToUpper returns s with all Unicode letters mapped to their upper case"}, nil},
		{"std function not imported", "strconv.Itoa", 9, 0, []string{"func strconv.Itoa(i int) string", "Itoa is equivalent to FormatInt"}, nil},
		{"inside a call's parentheses", "strings.ToUpper(", 16, 0, []string{"func strings.ToUpper(s string) string"}, nil},
		{"user function and its comment", "add(1, 2)", 1, 0, []string{"func add(a, b int) int", "add sums two numbers."}, []string{"return a + b"}},
		{"source with detail", "add", 1, 1, []string{"return a + b"}, nil},
		{"variable type and value", "count", 2, 0, []string{"var count int = 42"}, nil},
		{"type and method set", "Point{}", 1, 0, []string{"type Point struct{ X, Y int }", "Point is a point on the plane.", "func (Point).Norm() int"}, nil},
		{"method with doc", "Point{}.Norm()", 9, 0, []string{"func (p Point) Norm() int", "Norm is the squared length."}, nil},
		{"std method with doc", "import \"time\"\ntime.Now().Unix()", 26, 0, []string{"func (time.Time).Unix() int64", "Unix returns t as a Unix time"}, nil},
		{"builtin", "len(x)", 1, 0, []string{"func len(v Type) int", "The len built-in function"}, nil},
		{"package", "strings", 2, 0, []string{"package strings", "Package strings implements simple functions"}, nil},
		{"import path", "import \"encoding/json\"", 12, 0, []string{"package json", "Package json implements encoding and decoding of JSON"}, nil},
		{"local of the cell", "total := 3\ntotal", 13, 0, []string{"var total int"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := a.Inspect(c.code, c.cursor, c.detail)
			if !got.Found {
				t.Fatalf("Inspect(%q, %d): not found", c.code, c.cursor)
			}
			for _, w := range c.want {
				if !strings.Contains(got.Text, w) {
					t.Errorf("Inspect(%q, %d) = %q, want %q in it", c.code, c.cursor, got.Text, w)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(got.Text, w) {
					t.Errorf("Inspect(%q, %d) = %q, must not hold %q", c.code, c.cursor, got.Text, w)
				}
			}
			if !strings.HasPrefix(got.Markdown, "```go\n") {
				t.Errorf("Inspect(%q): Markdown %q does not start with a Go block", c.code, got.Markdown)
			}
		})
	}
	if got := a.Inspect("nosuchname", 3, 0); got.Found {
		t.Errorf("Inspect(nosuchname) found %q", got.Text)
	}
}

// TestRefresh: the model is brought up to date after a cell only once
// requests came (a headless run never pays for it).
func TestRefresh(t *testing.T) {
	a, s := newTestAssistant(t, "x := 1")
	a.Refresh()
	if n := len(a.model.cells); n != 0 {
		t.Fatalf("before any request, Refresh built a model of %d cells", n)
	}
	a.Complete("x", 1)
	s.cells = append(s.cells, "y := 2")
	a.Refresh()
	if n := len(a.model.cells); n != 2 {
		t.Errorf("after a request and a cell, the model has %d cells, want 2", n)
	}
}

// TestCompiledCell: the exported names of a compiled %%go cell, which
// the session imports with `import . "tick.session/cells/cellN"`, are
// completed and documented from its source (Options.Dir).
func TestCompiledCell(t *testing.T) {
	dir := t.TempDir()
	src := "package cell7\n\n// Triple triples n.\nfunc Triple(n int) int { return 3 * n }\n"
	if err := os.WriteFile(filepath.Join(dir, "cell.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	const path = "tick.session/cells/cell7"
	s := &fakeScope{cells: []string{`import . "` + path + `"`}}
	a := New(s, Options{Packages: testPackages, CacheDir: t.TempDir(), Dir: func(p string) (string, bool) { return dir, p == path }})
	a.imp.checked = nil // no background cache writes into the test's directory
	if m, ok := has(a.Complete("y := Tri", 8).Matches, "Triple"); !ok || m.Signature != "func(n int) int" {
		t.Errorf("Complete(Tri): %+v %v", m, ok)
	}
	if h := a.Inspect("Triple(2)", 2, 0); !strings.Contains(h.Text, "func cell7.Triple(n int) int") || !strings.Contains(h.Text, "Triple triples n.") {
		t.Errorf("Inspect(Triple) = %q", h.Text)
	}
}

// TestImportCycle: packages that import each other (invalid Go, but a
// module's source may say so) end the load with an error, not a wait
// forever.
func TestImportCycle(t *testing.T) {
	root := t.TempDir()
	for name, imp := range map[string]string{"a": "cyc/b", "b": "cyc/a"} {
		d := filepath.Join(root, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		src := "package " + name + "\nimport _ \"" + imp + "\"\nfunc F" + name + "() {}\n"
		if err := os.WriteFile(filepath.Join(d, name+".go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := func(p string) (string, bool) {
		return filepath.Join(root, strings.TrimPrefix(p, "cyc/")), strings.HasPrefix(p, "cyc/")
	}
	a := New(&fakeScope{cells: []string{`import "cyc/a"`}}, Options{Packages: testPackages, CacheDir: t.TempDir(), Dir: dir})
	a.imp.checked = nil
	if m, ok := has(a.Complete("a.F", 3).Matches, "Fa"); !ok {
		t.Errorf("Complete(a.F) = %+v", m)
	}
}
