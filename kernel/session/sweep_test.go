package session

import (
	"strings"
	"testing"
)

// Cases found by driving tick as a new user would (a sweep of cells a Go
// programmer, a teacher and a performance engineer write): each pins the
// fix of something that broke or confused.

func TestNilCellValues(t *testing.T) {
	s := newSession(t)
	for i, code := range []string{"var nilErr error\nnilErr", "nil", "var nilAny any\nnilAny"} {
		res, _ := exec(t, s, i+1, code)
		if res.Err != nil {
			t.Errorf("%q: %v", code, res.Err.Traceback)
			continue
		}
		if res.Value == nil || res.Value.Bundle["text/plain"] != "<nil>" {
			t.Errorf("%q: value %v, want text/plain <nil>", code, res.Value)
		}
	}
}

func TestLongValuesElided(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		name, code string
		want       []string
		maxLen     int
	}{
		{"big_slice", "big := make([]int, 100000)\nbig[99999] = 7\nbig", []string{"[0 0 0", "… 0", " 7] (len 100000, 99900 elements elided; fmt.Println(x) prints them all)"}, 1000},
		{"small_slice_whole", "[]int{1, 2, 3}", []string{"[1 2 3]"}, 7},
		{"long_string", `import "strings"` + "\nstrings.Repeat(\"x\", 200000) + \"END\"", []string{`"xxx`, `xEND" (a string of 200003 bytes, middle elided`}, 10000},
		{"long_map", "lm := map[int]int{}\nfor i := 0; i < 20000; i++ { lm[i] = i }\nlm", []string{"map[0:0 1:1", "bytes elided", "19999:19999]"}, 10000},
		{"unicode_cut_on_rune", "strings.Repeat(\"世\", 5000)", []string{`"世世`, `世世" (a string of 15000 bytes`}, 10000},
	}
	for i, c := range cases {
		res, _ := exec(t, s, i+1, c.code)
		if res.Err != nil {
			t.Errorf("%s: %v", c.name, res.Err.Traceback)
			continue
		}
		if res.Value == nil {
			t.Errorf("%s: no value", c.name)
			continue
		}
		got, _ := res.Value.Bundle["text/plain"].(string)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: text/plain lacks %q:\n%.300s … %s", c.name, w, got, got[max(0, len(got)-300):])
			}
		}
		if len(got) > c.maxLen {
			t.Errorf("%s: text/plain is %d bytes, want at most %d", c.name, len(got), c.maxLen)
		}
		if strings.Contains(got, "\uFFFD") {
			t.Errorf("%s: text/plain has a broken rune", c.name)
		}
	}
}

func TestRuntimePanicsSayWhatGoSays(t *testing.T) {
	s := newSession(t)
	if res, _ := exec(t, s, 1, "type T struct{ X int }\nfunc (t *T) Get() int { return t.X }"); res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	cases := []struct{ name, code, want, note string }{
		{"slice_index", "s := []int{}\ns[5]", "runtime error: index out of range [5] with length 0", "reflect: slice index out of range"},
		{"array_index", "arr := [3]int{}\ni := 5\narr[i]", "runtime error: index out of range [5] with length 3", "reflect: array index out of range"},
		{"string_index", "st := \"abc\"\nst[10]", "runtime error: index out of range [10] with length 3", "string index"},
		{"slice_bounds", "s3 := []int{1, 2, 3}\ns3[1:10]", "runtime error: slice bounds out of range [:10] with capacity 3", "Slice"},
		{"nil_pointer_field", "var tp *T\ntp.X = 3", "nil pointer dereference: a field", "Field on zero Value"},
		{"nil_pointer_method", "var tp2 *T\ntp2.Get()", "nil pointer dereference: a field", "Field on zero Value"},
		{"nil_interface_method", "var e error\ne.Error()", "nil pointer dereference: a method was called on a nil interface", "Method on nil interface"},
		{"nil_func", "var fn func()\nfn()", "nil pointer dereference: a nil func", "call of nil function"},
		{"type_assertion", "var a any = \"str\"\na.(int)", "runtime error: interface conversion: interface {} is string, not int (at cell[10]:2:1)", ""},
		{"nil_map", "var mm map[string]int\nmm[\"a\"] = 1", "assignment to entry in nil map", ""},
		{"divide", "zero := 0\n10 / zero", "runtime error: integer divide by zero", ""},
		{"errors_as", "import (\"errors\"; \"fmt\")\ntype MyErr struct{}\nfunc (*MyErr) Error() string { return \"my\" }\nvar me *MyErr\nerrors.As(fmt.Errorf(\"w: %w\", &MyErr{}), &me)",
			"errors: *target must be interface or implement error", "errors.As cannot match a type declared in a cell"},
	}
	for i, c := range cases {
		res, _ := exec(t, s, i+2, c.code)
		if res.Err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		tb := strings.Join(res.Err.Traceback, "\n")
		if !strings.Contains(res.Err.Value, c.want) {
			t.Errorf("%s: message %q, want it to contain %q", c.name, res.Err.Value, c.want)
		}
		if c.note != "" && !strings.Contains(tb, c.note) {
			t.Errorf("%s: traceback lacks %q:\n%s", c.name, c.note, tb)
		}
		if strings.Contains(tb, "tick/kernel") {
			t.Errorf("%s: traceback shows kernel machinery frames:\n%s", c.name, tb)
		}
	}
}

func TestCompileErrorHints(t *testing.T) {
	s := newSession(t)
	if res, _ := exec(t, s, 1, `import "fmt"`); res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	cases := []struct{ name, code, want string }{
		// A package used without its import is imported for the cell
		// (assist.go) when it has the members the cell uses; when it
		// has not, the hint names the imports.
		{"missing_import", `strings.ToUpperCase("x")`, `undefined: strings; the package is not imported: add import "strings"`},
		{"missing_import_two_paths", `rand.Intn3(3)`, `add import "math/rand" or import "crypto/rand"`},
		{"misspelled_member", `fmt.Printn("typo")`, "has no symbol Printn; did you mean fmt.Print or fmt.Printf or fmt.Println?"},
		{"type_of_unimported_package", "var ifc io.Writter", `cell[5]:1:9: undefined: io; the package is not imported: add import "io"`},
		{"conversion_to_unimported_type", "x := 1\nw := io.Writter(nil)", `cell[6]:2:6: undefined: io; the package is not imported: add import "io"`},
	}
	for i, c := range cases {
		res, _ := exec(t, s, i+2, c.code)
		if res.Err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !strings.Contains(res.Err.Value, c.want) {
			t.Errorf("%s: %q, want it to contain %q", c.name, res.Err.Value, c.want)
		}
		if !strings.Contains(res.Err.Traceback[0], c.want) {
			t.Errorf("%s: traceback %q, want it to contain %q", c.name, res.Err.Traceback[0], c.want)
		}
	}
	// An undefined name that is no package gets no import hint.
	if res, _ := exec(t, s, 19, "undefinedThing + 1"); res.Err == nil || strings.Contains(res.Err.Value, "import") {
		t.Errorf("undefinedThing: %v", res.Err)
	}
}

// TestSweepLimits pins interpreter behaviour docs/compatibility.md
// describes, so the table is updated when yaegi changes.
func TestSweepLimits(t *testing.T) {
	s := newSession(t)
	cases := []struct{ name, code, want string }{
		// %T of a cell type prints its name, as Go does (cellfmt.go).
		{"type_name", "import \"fmt\"\ntype Rect struct{ W, H float64 }\nfmt.Sprintf(\"%T\", Rect{})", `"main.Rect"`},
		// Unused variables and imports are accepted.
		{"unused", "import \"os\"\nfunc unusedVar() int { y := 3; return 1 }\nunusedVar()", "1"},
		// errors.As with a standard library error type works.
		{"errors_as_stdlib", "import (\"errors\"; \"io/fs\")\n_, err := os.Open(\"/no/such/file\")\nvar pe *fs.PathError\nerrors.As(err, &pe)", "true"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _ := exec(t, s, i+1, c.code)
			if res.Err != nil {
				t.Fatal(res.Err.Traceback)
			}
			if res.Value == nil || res.Value.Bundle["text/plain"] != c.want {
				t.Errorf("value %v, want %s", res.Value, c.want)
			}
		})
	}
}

// TestSyntaxErrorAtEndOfCell: a cell that stops in the middle of an
// expression or block is reported at the end of its last line (not at a
// line of the code the session wraps around it), saying what is missing.
func TestSyntaxErrorAtEndOfCell(t *testing.T) {
	s := newSession(t)
	cases := []struct{ name, code, want string }{
		{"operand", "x := 1\ny := x +", "cell[1]:2:9: expected an operand after '+' (the cell ends in the middle of an expression)"},
		{"trailing_blank_lines", "x := 1\ny := x *\n\n  \n", "cell[2]:2:9: expected an operand after '*'"},
		{"open_block", "for i := 0; i < 3; i++ {", "cell[3]:1:25: expected '}' at the end of the cell: a '{' opened in the cell is not closed"},
		{"open_call", "x := f(", "cell[4]:1:8: expected an operand after '('"},
		{"in_func", "func f() int {\n return 1 +", "cell[5]:2:12: expected an operand after '+'"},
		{"selector", "x := a.", "cell[6]:1:8: expected a name after '.'"},
		{"middle_untouched", "y := x +\nz := 3", "cell[7]:2:3: expected ';', found ':='"},
	}
	for i, c := range cases {
		res, _ := exec(t, s, i+1, c.code)
		if res.Err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !strings.Contains(res.Err.Value, c.want) {
			t.Errorf("%s: %q, want it to contain %q", c.name, res.Err.Value, c.want)
		}
	}
}

// TestGenericInferenceHints: where the interpreter cannot infer a type
// parameter of a generic function declared in a cell, the error says so
// at the call and writes the explicit instantiation; that instantiation
// runs.
func TestGenericInferenceHints(t *testing.T) {
	s := newSession(t)
	res, _ := exec(t, s, 1, "import \"fmt\"\ntype Number interface{ ~int | ~float64 }\n"+
		"func Sum[T Number](xs ...T) T { var s T; for _, x := range xs { s += x }; return s }\n"+
		"func Add[T Number](a, b T) T { return a + b }\n"+
		"func Map[T, U any](xs []T, f func(T) U) []U { var out []U; for _, x := range xs { out = append(out, f(x)) }; return out }\n"+
		"a, b := 1.5, 2.5")
	if res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	cases := []struct{ name, code, want, fixed, value string }{
		{"variadic_constants", "Sum(1.5, 2.5)", "cell[2]:1:1: cannot infer the type parameters of Sum in this call (the interpreter does not infer a type parameter from variadic arguments",
			"Sum[float64](1.5, 2.5)", "4"},
		{"variadic_vars", "x := 1\nSum(a, b)", "cell[3]:2:1: cannot infer the type parameters of Sum", "Sum[float64](a, b)", "4"},
		{"func_literal", "Map([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 10) })", "does not infer type parameters from a func literal argument",
			"Map[int, string]([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 10) })", "[10 20]"},
		{"spread_slice", "Sum([]float64{1, 3}...)", "cannot infer the type parameters of Sum", "Sum[float64]([]float64{1, 3}...)", "4"},
		{"untyped_constants", "Add(1.5, 2.5)", "does not infer a type parameter from untyped constants", "Add[float64](1.5, 2.5)", "4"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _ := exec(t, s, i+2, c.code)
			if res.Err == nil {
				t.Fatalf("no error (the interpreter infers this now: update docs/compatibility.md)")
			}
			if !strings.Contains(res.Err.Value, c.want) || !strings.Contains(res.Err.Value, "instantiate it explicitly: "+c.fixed[:strings.IndexByte(c.fixed, '(')]+"(...)") {
				t.Errorf("%q, want it to contain %q and the instantiation of %q", res.Err.Value, c.want, c.fixed)
			}
			if res.Err.Traceback[0] != "CompileError: "+res.Err.Value {
				t.Errorf("traceback %q does not start with the message", res.Err.Traceback[0])
			}
			res, _ = exec(t, s, 20+i, c.fixed)
			if res.Err != nil {
				t.Fatalf("%s: %v", c.fixed, res.Err.Traceback)
			}
			if res.Value == nil || res.Value.Bundle["text/plain"] != c.value {
				t.Errorf("%s = %v, want %s", c.fixed, res.Value, c.value)
			}
		})
	}
}
