package session

import (
	"strings"
	"testing"
)

// Interpreter faults the rewrite passes work around, cell by cell on one
// session (the passes' own golden tests are in rewrite/; the programs of
// the differential corpus, testdata/diff/i12a_*, compare with go run).
func TestRewriteFixes(t *testing.T) {
	s := newSession(t)
	steps := []struct {
		name, code string
		out, err   string // stdout, and a text of the error ("" for none)
	}{
		// const-iota: a block that fails does not shift iota in the next
		{"const_block_fails", "const (\n\tp = iota\n\tq = undefinedName\n)", "", "constant definition loop"},
		{"iota_after_failed_block", "import \"fmt\"\nconst (\n\ta = iota\n\tb\n)\nfmt.Println(a, b)", "0 1\n", ""},
		{"bytesize", "type ByteSize float64\nconst (\n\t_ = iota\n\tKB ByteSize = 1 << (10 * iota)\n\tMB\n)\nfmt.Println(KB, MB)", "1024 1.048576e+06\n", ""},
		// a send of a constant of the wrong type is a compile error: nothing runs
		{"send_setup", "ch := make(chan int, 1)", "", ""},
		{"send_wrong_constant", "fmt.Println(\"ran\")\nch <- \"x\"", "", "cannot use a string constant as int value"},
		{"send_right_constant", "ch <- 'x'\nfmt.Println(<-ch)", "120\n", ""},
		// method-expr: of a cell type (declared in an earlier cell) and of a package type
		{"method_type", "type Acc struct{ n int }\nfunc (a *Acc) Add(k int) int { a.n += k; return a.n }", "", ""},
		{"method_expr", "add := (*Acc).Add\na := &Acc{}\nadd(a, 2)\nfmt.Println(add(a, 3))", "5\n", ""},
		{"method_expr_package", "import \"strings\"\nw := (*strings.Builder).WriteString\nvar sb strings.Builder\nw(&sb, \"ok\")\nfmt.Println(sb.String())", "ok\n", ""},
		// func-defer
		{"defer_loop", "func f() {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer func() { fmt.Print(i) }()\n\t}\n}\nf()\nfmt.Println()", "210\n", ""},
		{"defer_closure_var", "func g() {\n\tbye := func() { fmt.Println(\"bye\") }\n\tdefer bye()\n\tfmt.Print(\"hi \")\n}\ng()", "hi bye\n", ""},
	}
	for i, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			res, rec := exec(t, s, i+1, st.code)
			if got := rec.Text("stdout"); got != st.out {
				t.Errorf("stdout %q, want %q", got, st.out)
			}
			switch {
			case st.err == "" && res.Err != nil:
				t.Errorf("error: %v", res.Err)
			case st.err != "" && (res.Err == nil || !strings.Contains(res.Err.Error(), st.err)):
				t.Errorf("error %v, want one containing %q", res.Err, st.err)
			}
		})
	}
}
