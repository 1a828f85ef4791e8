package session

import (
	"strings"
	"testing"
)

// TestRerunCells runs, on one session, what notebooks do all the time:
// import a package again in a later cell, run the same cell twice, and
// redefine funcs, variables and types. Each step either works or fails
// with an error that says what to do.
func TestRerunCells(t *testing.T) {
	s := newSession(t)
	defType := "type T struct{ A int }\nT{1}"
	cells := []struct {
		code  string
		value string // expected text/plain of the value ("" = no value)
		err   string // substring of the error's "Name: Value" and traceback
	}{
		{code: "import \"fmt\"\nfmt.Sprint(1)", value: `"1"`},
		{code: "import \"fmt\"\nfmt.Sprint(2)", value: `"2"`},                                             // same import again
		{code: "import \"fmt\"\nfmt.Sprint(2)", value: `"2"`},                                             // the same cell re-run
		{code: "import (\n\t\"fmt\"\n\t\"strings\"\n)\nfmt.Sprint(strings.ToUpper(\"a\"))", value: `"A"`}, // block: one old, one new
		{code: "import (\n\t\"fmt\"\n\t\"strings\"\n)\nstrings.Repeat(\"b\", 2)", value: `"bb"`},
		{code: "import \"math\"\nmath.Sqrt(16)", value: "4"},    // a new package in a later cell
		{code: "import f2 \"fmt\"\nf2.Sprint(3)", value: `"3"`}, // the same path under an alias
		{code: "import f2 \"fmt\"\nf2.Sprint(4)", value: `"4"`}, // ... again
		{code: "fmt.Sprint(5)", value: `"5"`},                   // the first name still works
		{code: "import \"fmt\"\nfunc g() int { return 1 }\nvar v = 10\ng() + v", value: "11"},
		{code: "import \"fmt\"\nfunc g() int { return 1 }\nvar v = 10\ng() + v", value: "11"}, // re-run
		{code: "func g() int { return 2 }\nvar v = 20\ng() + v", value: "22"},                 // redefine
		{code: "var v = \"s\"\nv", value: `"s"`},                                              // a var changes type
		{code: defType, value: "{1}"},
		{code: defType, value: "{1}"}, // re-running an unchanged type declaration
		{code: "type T struct{ A, B int }\nT{1, 2}", err: "restart"},
		{code: "T{3}", value: "{3}"}, // the first definition is kept
		{code: "type P struct{}\nfunc (P) M() int { return 1 }\nP{}.M()", value: "1"},
		{code: "type P struct{}\nfunc (P) M() int { return 1 }\nP{}.M()", value: "1"}, // re-run
		{code: "func (P) M() int { return 2 }", err: "method P.M is already defined"},
		{code: "type P struct{}\nfunc (P) M() int { return 3 }", err: "restart the kernel"},
		{code: "func (P) N() int { return 4 }\nP{}.N()", value: "4"}, // a new method of an old type
		{code: "type T int", err: "type T is already defined"},
		{code: "import fmt \"strings\"", err: "the name fmt is already the package \"fmt\""}, // a name already bound to another path
		{code: "fmt.Sprint(6)", value: `"6"`},                                                // ... and the old binding is intact
		// Known limitation (docs/compatibility.md): a var redefined in a
		// later cell is a new variable; funcs compiled before keep the old one.
		{code: "var w = 1\nfunc h() int { return w }\nh()", value: "1"},
		{code: "var w = 2\nh()", value: "1"},
		{code: "func h() int { return w }\nh()", value: "2"}, // re-running the func's cell picks up the new w
		{code: "w = 3\nh()", value: "3"},                     // assigning (not redeclaring) is seen by funcs
	}
	for i, c := range cells {
		count := i + 1
		res, _ := exec(t, s, count, c.code)
		name := strings.ReplaceAll(c.code, "\n", "; ")
		if c.err != "" {
			if res.Err == nil {
				t.Errorf("cell %d %q: no error, want %q", count, name, c.err)
				continue
			}
			all := res.Err.Error() + "\n" + strings.Join(res.Err.Traceback, "\n")
			if !strings.Contains(all, c.err) {
				t.Errorf("cell %d %q: error %q, want it to contain %q", count, name, all, c.err)
			}
			t.Logf("cell %d %q: %s", count, name, all)
			continue
		}
		if res.Err != nil {
			t.Errorf("cell %d %q: unexpected error %v\n%s", count, name, res.Err, strings.Join(res.Err.Traceback, "\n"))
			continue
		}
		got := ""
		if res.Value != nil {
			got, _ = res.Value.Bundle["text/plain"].(string)
		}
		if got != c.value {
			t.Errorf("cell %d %q: value %q, want %q", count, name, got, c.value)
		}
	}
}
