package session

import (
	"strings"
	"testing"
)

func TestComplete(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, "import \"fmt\"\nimport \"strings\"\ntype Point struct{ X, Y int }\nfunc (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }\nfunc hello() {}\nhelper := 3\npt := Point{1, 2}")
	cases := []struct {
		code      string
		want      string // one expected match
		notWant   string
		wantStart int
	}{
		{code: "fmt.Pri", want: "Println", wantStart: 4},
		{code: "x := strings.ToU", want: "ToUpper", wantStart: 13},
		{code: "hel", want: "helper", wantStart: 0},
		{code: "hel", want: "hello", wantStart: 0},
		{code: "fm", want: "fmt", wantStart: 0},
		{code: "Poi", want: "Point", wantStart: 0},
		{code: "fo", want: "for", wantStart: 0},
		{code: "le", want: "len", wantStart: 0},
		{code: "pt.", want: "Y", wantStart: 3},
		{code: "pt.X", want: "X", notWant: "Y", wantStart: 3},
		{code: "ᐩ", notWant: "ᐩrt", wantStart: 0},
	}
	for _, c := range cases {
		got := s.Complete(c.code, len(c.code))
		if c.want != "" && !contains(got.Matches, c.want) {
			t.Errorf("Complete(%q) = %v, want %q among them", c.code, got.Matches, c.want)
		}
		if c.notWant != "" && contains(got.Matches, c.notWant) {
			t.Errorf("Complete(%q) = %v, must not hold %q", c.code, got.Matches, c.notWant)
		}
		if got.Start != c.wantStart || got.End != len(c.code) {
			t.Errorf("Complete(%q): range [%d,%d), want [%d,%d)", c.code, got.Start, got.End, c.wantStart, len(c.code))
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestInspect(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, "import \"fmt\"\ntype Point struct{ X, Y int }\nfunc add(a, b int) int { return a + b }\nconst Pi = 3.14\ncount := 42")
	cases := []struct {
		code   string
		cursor int
		want   string // substring; "" = not found
	}{
		{"count", 2, "count int = 42"},
		{"add(1, 2)", 1, "func add(a, b int) int"},
		{"fmt.Println", 6, "func(...interface {}) (int, error)"},
		{"Point{}", 0, "type Point struct"},
		{"fmt", 1, `package fmt (import "fmt")`},
		{"Pi", 1, "const Pi = 3.14"},
		{"nosuchname", 3, ""},
	}
	for _, c := range cases {
		got := s.Inspect(c.code, c.cursor, 0)
		if c.want == "" {
			if got.Found {
				t.Errorf("Inspect(%q) found %q, want nothing", c.code, got.Text)
			}
			continue
		}
		if !got.Found || !strings.Contains(got.Text, c.want) {
			t.Errorf("Inspect(%q, %d) = %+v, want text containing %q", c.code, c.cursor, got, c.want)
		}
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
		{"myPoint", "myPoint Point = ", "struct {"},
		{"pp", "pp *Point = ", "struct {"},
		{"temp", "temp Celsius = 20", ""},
		{"plain", "plain struct { X int; Y int } = ", "Other"},
	}
	for _, c := range inspects {
		got := s.Inspect(c.code, len(c.code), 0)
		if !got.Found || !strings.Contains(got.Text, c.want) || c.notWant != "" && strings.Contains(got.Text, c.notWant) {
			t.Errorf("Inspect(%q) = %+v, want text containing %q (and not %q)", c.code, got, c.want, c.notWant)
		}
	}
}
