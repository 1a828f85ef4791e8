package cell

import (
	"go/scanner"
	"go/token"
	"strings"
	"testing"
)

func TestSplitUnits(t *testing.T) {
	cases := []struct {
		code string
		want []string // "D:" declaration or "S:" statement, then the text
	}{
		{"x := 1\nfunc f() {}\nf()", []string{"S:x := 1", "D:func f() {}", "S:f()"}},
		{"import \"fmt\"\nfmt.Println(1)", []string{"D:import \"fmt\"", "S:fmt.Println(1)"}},
		{"func (p P) M() int {\n\treturn 1\n}", []string{"D:func (p P) M() int {\n\treturn 1\n}"}},
		{"func(x int) { println(x) }(3)", []string{"S:func(x int) { println(x) }(3)"}},
		{"func() {}()", []string{"S:func() {}()"}},
		{"type T int; var v T", []string{"D:type T int", "D:var v T"}},
		{"for i := 0; i < 3; i++ {\n}\nconst c = 1", []string{"S:for i := 0; i < 3; i++ {\n}", "D:const c = 1"}},
		// a /* */ comment that runs past the end of a statement's line
		{"x := 1 /* a\n b */\ny := 2", []string{"S:x := 1 ", "S:y := 2"}},
		{"", nil},
	}
	for _, c := range cases {
		var got []string
		for _, u := range splitUnits(c.code) {
			kind := "S:"
			if u.decl {
				kind = "D:"
			}
			got = append(got, kind+c.code[u.start:u.end])
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("splitUnits(%q) = %q, want %q", c.code, got, c.want)
		}
	}
}

// FuzzSplitCell checks that splitting and parsing never panic, that units
// are ordered and in bounds, and that only blanks, semicolons and comments
// lie between them.
func FuzzSplitCell(f *testing.F) {
	for _, seed := range []string{
		"x := 1\nx", "import \"fmt\"\nfunc f() {}\nfmt.Println(f)", "func (r *T) M() {}\nfor {}",
		"type (A int; B string)\nvar a A = 1", "s := `raw\n}`\n// c\n/* d */ s", "go func() { panic(1) }()",
		"if x := 1; x > 0 {\n} else {\n}", "f(\n1,\n2,\n)", "}{)(", "\"unterminated", "func", "L: for { break L }",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, code string) {
		units := splitUnits(code)
		if !scansCleanly(code) {
			// Bounds only: the filler check needs well-formed tokens.
			for _, u := range units {
				if u.start < 0 || u.end < u.start || u.end > len(code) {
					t.Fatalf("unit %+v out of bounds (len %d)", u, len(code))
				}
			}
			return
		}
		prev := 0
		for _, u := range units {
			if u.start < prev || u.end < u.start || u.end > len(code) {
				t.Fatalf("unit %+v out of order or bounds (prev end %d, len %d)", u, prev, len(code))
			}
			assertFiller(t, code[prev:u.start])
			prev = u.end
		}
		assertFiller(t, code[prev:])
		_, _ = Parse(token.NewFileSet(), Cell{Code: code})
		_, _ = IsComplete(code)
	})
}

func scansCleanly(code string) bool {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(code))
	var sc scanner.Scanner
	ok := true
	sc.Init(file, []byte(code), func(token.Position, string) { ok = false }, 0)
	for {
		if _, tok, _ := sc.Scan(); tok == token.EOF {
			return ok
		}
	}
}

// assertFiller fails unless text is only blanks, semicolons and comments.
func assertFiller(t *testing.T, text string) {
	t.Helper()
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(text))
	var sc scanner.Scanner
	sc.Init(file, []byte(text), nil, scanner.ScanComments)
	for {
		_, tok, _ := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.SEMICOLON && tok != token.COMMENT {
			t.Fatalf("code between units: %q", text)
		}
	}
}
