package session

import (
	"strings"
	"testing"
	"unicode"
)

// The cells of the completion and inspection tables: a session where
// these ran, as in a notebook.
const assistCells = "import \"fmt\"\nimport \"strings\"\nimport \"tick/runtime/tensor\"\n" +
	"// Point is a point on the plane.\ntype Point struct{ X, Y int }\n" +
	"// Norm is the squared length.\nfunc (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }\n" +
	"type Labeled struct {\n\tPoint\n\tTitle string\n\tlabel string\n}\n" +
	"// hello greets.\nfunc hello(name string) string { return \"hi \" + name }\n" +
	"const Pi = 3.14\nhelper := 3\ncount := 42\npt := Point{1, 2}\nlab := &Labeled{Title: \"t\"}\nx := tensor.Ones(3)"

// TestComplete: each kind of completion, through the session (the cells
// above really ran), with the kind and signature front ends show.
func TestComplete(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, assistCells)
	cases := []struct {
		name, code string
		want       []string // want[0] carries kind and signature
		notWant    []string
		kind, sig  string
		start      int // -1: the identifier before the cursor
	}{
		{"package member", "fmt.Pri", []string{"Println"}, nil, "function", "func(a ...any) (n int, err error)", -1},
		{"member after :=", "x := strings.ToU", []string{"ToUpper"}, nil, "function", "func(s string) string", -1},
		{"session names", "hel", []string{"helper", "hello"}, nil, "variable", "int", -1},
		{"imported package", "fm", []string{"fmt"}, nil, "module", `package fmt ("fmt")`, -1},
		{"session type", "Poi", []string{"Point"}, nil, "type", "struct{X int; Y int}", -1},
		{"keyword", "fo", []string{"for"}, nil, "keyword", "", -1},
		{"builtin", "le", []string{"len"}, nil, "function", "builtin", -1},
		{"fields and methods", "pt.", []string{"Y", "X", "Norm"}, nil, "field", "int", -1},
		{"a prefix", "pt.X", []string{"X"}, []string{"Y"}, "field", "int", -1},
		{"promoted fields, never renamed ones", "lab.", []string{"Title", "X", "Norm", "label"}, []string{"Xlabel", "Xtitle"}, "field", "string", -1},
		{"same cell", "zzqLongName := 3\nzzqLong", []string{"zzqLongName"}, nil, "variable", "int", -1},
		{"locals and parameters", "func f(param int) {\n\tlocalVar := param\n\t", []string{"localVar", "param", "return"}, []string{"import"}, "variable", "int", -1},
		{"not declared yet", "la\nlater := 1", nil, []string{"later"}, "", "", -1},
		{"call chain", "tensor.Ones(3).Res", []string{"Reshape"}, nil, "method", "", -1},
		{"call chain on time", "time.Now().Uni", []string{"Unix"}, nil, "method", "func() int64", -1},
		{"session variable's methods", "x.Res", []string{"Reshape"}, nil, "method", "", -1},
		{"unimported strconv", "strconv.Ato", []string{"Atoi"}, nil, "function", "func(s string) (int, error)", -1},
		{"unimported filepath", "filepath.Ba", []string{"Base"}, nil, "function", "func(path string) string", -1},
		{"unimported display", "display.HT", []string{"HTML"}, nil, "function", "func(html string) *display.Handle", -1},
		{"import path", "import \"encoding/js", []string{"encoding/json"}, []string{"encoding/xml"}, "path", "package json", len(`import "`)},
		{"harness names hidden", "ᐩ", nil, []string{"ᐩrt"}, "", "", -1},
		{"nothing in comments", "// fo", nil, []string{"for"}, "", "", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := s.Complete(c.code, len(c.code))
			if len(got.Details) != len(got.Matches) {
				t.Fatalf("Complete(%q): %d matches, %d details", c.code, len(got.Matches), len(got.Details))
			}
			for i, w := range c.want {
				k := index(got.Matches, w)
				if k < 0 {
					t.Fatalf("Complete(%q) = %v, want %q among them", c.code, got.Matches, w)
				}
				if d := got.Details[k]; i == 0 && (d.Kind != c.kind || c.sig != "" && d.Signature != c.sig) {
					t.Errorf("Complete(%q): %q is %+v, want kind %q signature %q", c.code, w, d, c.kind, c.sig)
				}
			}
			for _, w := range c.notWant {
				if index(got.Matches, w) >= 0 {
					t.Errorf("Complete(%q) = %v, must not hold %q", c.code, got.Matches, w)
				}
			}
			start := c.start
			if start < 0 {
				start = len(strings.TrimRightFunc(c.code, func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }))
			}
			if got.Start != start || got.End != len(c.code) {
				t.Errorf("Complete(%q): range [%d,%d), want [%d,%d)", c.code, got.Start, got.End, start, len(c.code))
			}
		})
	}
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func contains(list []string, s string) bool { return index(list, s) >= 0 }

// TestInspect: each kind of inspection, through the session.
func TestInspect(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, assistCells)
	cases := []struct {
		name, code string
		cursor     int
		detail     int
		want       []string // all in the text; "" alone = not found
		notWant    string
	}{
		{"variable: type and value", "count", 2, 0, []string{"var count int = 42"}, ""},
		{"user function, parameter names and comment", "hello(\"x\")", 1, 0, []string{"func hello(name string) string", "hello greets."}, "return"},
		{"source at detail 1", "hello", 1, 1, []string{"func hello(name string) string", `return "hi " + name`}, ""},
		{"std function: names and docs", "fmt.Println", 6, 0, []string{"func fmt.Println(a ...any) (n int, err error)", "Println formats using the default formats"}, ""},
		{"std function not imported", "strconv.Itoa", 9, 0, []string{"func strconv.Itoa(i int) string", "Itoa is equivalent to FormatInt"}, ""},
		{"inside the call's parentheses", "strings.ToUpper(", 16, 0, []string{"func strings.ToUpper(s string) string", "ToUpper returns s"}, ""},
		{"type, its comment and method set", "Point{}", 0, 0, []string{"type Point struct{ X, Y int }", "Point is a point on the plane.", "func (Point).Norm() int"}, ""},
		{"method with comment", "pt.Norm", 5, 0, []string{"func (p Point) Norm() int", "Norm is the squared length."}, ""},
		{"package", "fmt", 1, 0, []string{`package fmt // import "fmt"`, "Package fmt implements formatted I/O"}, ""},
		{"constant", "Pi", 1, 0, []string{"const Pi = 3.14"}, ""},
		{"tick's package docs", "tensor.Ones", 9, 0, []string{"func tensor.Ones("}, ""},
		{"variable of a tick type", "x", 1, 0, []string{"var x *tensor.Tensor", "methods of *tensor.Tensor:", "Realize"}, ""},
		{"builtin", "len", 1, 0, []string{"func len(v Type) int", "The len built-in function"}, ""},
		{"unknown", "nosuchname", 3, 0, []string{""}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := s.Inspect(c.code, c.cursor, c.detail)
			if c.want[0] == "" {
				if got.Found {
					t.Errorf("Inspect(%q) found %q, want nothing", c.code, got.Text)
				}
				return
			}
			for _, w := range c.want {
				if !got.Found || !strings.Contains(got.Text, w) {
					t.Errorf("Inspect(%q, %d) = %q, want text containing %q", c.code, c.cursor, got.Text, w)
				}
			}
			if c.notWant != "" && strings.Contains(got.Text, c.notWant) {
				t.Errorf("Inspect(%q, %d) = %q, must not hold %q", c.code, c.cursor, got.Text, c.notWant)
			}
			if !strings.HasPrefix(got.Markdown, "```go\n") {
				t.Errorf("Inspect(%q): Markdown %q, want a Go block first", c.code, got.Markdown)
			}
		})
	}
}

func TestIsComplete(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, status, indent string }{
		{"x := 1", "complete", ""},
		{"func f() {", "incomplete", "    "},
		{"for {\n\tif true {", "incomplete", "        "},
		{"fmt.Println(1,", "incomplete", "    "},
		{"s := `raw\nstring", "incomplete", ""}, // an indent would go into the string
		{"func f() {\n\ts := `raw", "incomplete", ""},
		{"for i := 0; i < 3; i++ {", "incomplete", "    "},
		{"%%timeit\nfor {", "incomplete", "    "},
		// A cell magic ends with a blank line, as in IPython: a terminal
		// (jupyter console) can then take its body line by line.
		{"%%timeit", "incomplete", ""},
		{"%%timeit -n 3 setup()", "incomplete", ""},
		{"%%timeit\nx := 1", "incomplete", ""},
		{"%%timeit\nx := 1\n", "complete", ""},
		{"\n%%time\nfor i := 0; i < 3; i++ {\n\tx++\n}\n  ", "complete", ""},
		{")", "invalid", ""},
		{"x := 1 +", "incomplete", ""},
		{"}", "invalid", ""},
		{"x := (]", "invalid", ""},
		{"x := \"open", "invalid", ""},
		{"func func", "invalid", ""},
		{"%timeit x", "complete", ""},
		{"", "complete", ""},
	}
	for _, c := range cases {
		got := s.IsComplete(c.code)
		if got.Status != c.status || c.status == "incomplete" && got.Indent != c.indent {
			t.Errorf("IsComplete(%q) = %+v, want %s %q", c.code, got, c.status, c.indent)
		}
	}
}

// TestCompleteCellTypes: the methods of a type declared in a cell are
// completed and inspected on a variable of that type, though its
// reflect type (a struct the interpreter built) has none.
func TestCompleteCellTypes(t *testing.T) {
	s := newSession(t)
	res, _ := exec(t, s, 1, "type Point struct{ X, Y int }\nfunc (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }\n"+
		"func (p *Point) Scale(k int) { p.X *= k; p.Y *= k }\ntype Other struct{ X, Y int }\nfunc (o Other) Nope() {}\n"+
		"type Shape interface{ Area() float64 }\ntype Celsius float64\nfunc (c Celsius) Fahrenheit() float64 { return float64(c)*9/5 + 32 }\n"+
		"myPoint := Point{1, 2}\npp := &myPoint\ntemp := Celsius(20)\nplain := struct{ X, Y int }{3, 4}")
	if res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	cases := []struct {
		code    string
		want    []string
		notWant []string
	}{
		{"myPoint.", []string{"X", "Y", "Norm", "Scale"}, []string{"Nope"}},
		{"myPoint.N", []string{"Norm"}, []string{"Nope", "X"}},
		{"pp.", []string{"X", "Norm", "Scale"}, []string{"Nope"}},
		{"temp.F", []string{"Fahrenheit"}, nil},
		{"plain.", []string{"X", "Y"}, []string{"Norm", "Nope"}},
	}
	for _, c := range cases {
		got := s.Complete(c.code, len(c.code))
		for _, w := range c.want {
			if !contains(got.Matches, w) {
				t.Errorf("Complete(%q) = %v, want %q among them", c.code, got.Matches, w)
			}
		}
		for _, w := range c.notWant {
			if contains(got.Matches, w) {
				t.Errorf("Complete(%q) = %v, must not hold %q", c.code, got.Matches, w)
			}
		}
	}
	inspects := []struct{ code, want, notWant string }{
		{"myPoint.Norm", "func (p Point) Norm() int", ""},
		{"pp.Scale", "func (p *Point) Scale(k int)", ""},
		{"myPoint", "var myPoint Point = {1 2}", "struct {"},
		{"pp", "var pp *Point = ", "struct {"},
		{"temp", "var temp Celsius = 20", ""},
		{"plain", "var plain struct{X int; Y int} = {3 4}", "Other"},
	}
	for _, c := range inspects {
		got := s.Inspect(c.code, len(c.code), 0)
		if !got.Found || !strings.Contains(got.Text, c.want) || c.notWant != "" && strings.Contains(got.Text, c.notWant) {
			t.Errorf("Inspect(%q) = %+v, want text containing %q (and not %q)", c.code, got, c.want, c.notWant)
		}
	}
}

// TestAddImports: a cell that uses a package it did not import runs, with
// the import added and a one-line note; later cells see the package.
func TestAddImports(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		name, code, value, note string
	}{
		{"std", `strconv.Itoa(42) + "!"`, `"42!"`, `tick: added import "strconv"`},
		{"kept for later cells", `strconv.Quote("a")`, `"\"a\""`, ""},
		{"resolved by its members", `rand.New(rand.NewSource(1)).Intn(1)`, "0", `tick: added import "math/rand"`},
		{"with a declaration", "func up(s string) string { return strings.ToUpper(s) }\nup(\"go\")", `"GO"`, `tick: added import "strings"`},
		{"a type", "var b bytes.Buffer\nb.WriteString(\"x\")\nb.String()", `"x"`, `tick: added import "bytes"`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, rec := exec(t, s, i+1, c.code)
			out := rec.Text("stderr")
			if res.Err != nil {
				t.Fatalf("%s: %v", c.code, res.Err.Traceback)
			}
			if res.Value == nil || res.Value.Bundle["text/plain"] != c.value {
				t.Errorf("%s: value %v, want %s", c.code, res.Value, c.value)
			}
			if c.note != "" && !strings.Contains(out, c.note) || c.note == "" && strings.Contains(out, "added import") {
				t.Errorf("%s: output %q, want the note %q", c.code, out, c.note)
			}
		})
	}
	// A local named like a package is no package.
	if res, _ := exec(t, s, 9, "path := struct{ Base string }{\"b\"}\npath.Base"); res.Err != nil || res.Value.Bundle["text/plain"] != `"b"` {
		t.Errorf("a variable named path: %+v", res)
	}
}

// TestCompleteSetVar: a variable a magic set (no cell declares it) is
// completed and inspected from its value.
func TestCompleteSetVar(t *testing.T) {
	s := newSession(t)
	if err := s.SetVar("kept", &strings.Builder{}); err != nil {
		t.Fatal(err)
	}
	if got := s.Complete("kep", 3); !contains(got.Matches, "kept") {
		t.Errorf("Complete(kep) = %v", got.Matches)
	}
	if got := s.Complete("kept.Wri", 8); !contains(got.Matches, "WriteString") {
		t.Errorf("Complete(kept.Wri) = %v", got.Matches)
	}
	if got := s.Inspect("kept", 2, 0); !got.Found || !strings.Contains(got.Text, "strings.Builder") {
		t.Errorf("Inspect(kept) = %+v", got)
	}
}
