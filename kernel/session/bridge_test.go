package session

import (
	"strings"
	"testing"
)

// cellCase is one cell of a table run against a shared session.
type cellCase struct {
	name  string
	code  string
	value string // expected text/plain of the value ("" = none)
	out   string // expected stdout
	err   string // substring of the error ("" = must succeed)
}

// runTable runs cells in order on one session (notebook semantics).
func runTable(t *testing.T, s *Session, cells []cellCase) {
	t.Helper()
	for i, c := range cells {
		t.Run(c.name, func(t *testing.T) {
			res, rec := exec(t, s, i+1, c.code)
			if c.err != "" {
				if res.Err == nil || !strings.Contains(res.Err.Error()+"\n"+strings.Join(res.Err.Traceback, "\n"), c.err) {
					t.Errorf("error %v, want one containing %q", res.Err, c.err)
				}
				return
			}
			if res.Err != nil {
				t.Fatalf("unexpected error: %s", strings.Join(res.Err.Traceback, "\n"))
			}
			got := ""
			if res.Value != nil {
				got, _ = res.Value.Bundle["text/plain"].(string)
			}
			if got != c.value {
				t.Errorf("value %q, want %q", got, c.value)
			}
			if out := rec.Text("stdout"); out != c.out {
				t.Errorf("stdout %q, want %q", out, c.out)
			}
		})
	}
}

// TestBridges checks the modern-Go bridges; docs/compatibility.md names
// these subtests.
func TestBridges(t *testing.T) {
	s := newSession(t)
	runTable(t, s, []cellCase{
		{name: "min_untyped", code: "import \"fmt\"\nmin(3, 2, 7)", value: "2"},
		{name: "min_mixed_kinds", code: `min(3, 2.5)`, value: "2.5"},
		{name: "max_untyped_float", code: `max(1, 2.5)`, value: "2.5"},
		{name: "min_typed", code: "a, b := 4, 9\nmin(a, b)", value: "4"},
		{name: "max_typed_with_const", code: `max(a, 100)`, value: "100"},
		{name: "max_strings", code: `max("a", "b")`, value: `"b"`},
		{name: "clear_map", code: "m := map[string]int{\"a\": 1, \"b\": 2}\nclear(m)\nlen(m)", value: "0"},
		{name: "clear_slice", code: "sl := []int{1, 2, 3}\nclear(sl)\nsl", value: "[0 0 0]"},
		{name: "range_int_literal", code: "sum := 0\nfor i := range 5 { sum += i }\nsum", value: "10"},
		{name: "range_int_var", code: "n := 4\ncount := 0\nfor range n { count++ }\ncount", value: "4"},
		{name: "range_int_len", code: "for i := range len(sl) { fmt.Print(i) }", out: "012"},
		{name: "range_int_in_func", code: "func tri(n int) int { t := 0; for i := range n + 1 { t += i }; return t }\ntri(4)", value: "10"},
		{name: "range_int_labeled", code: "k := 0\nouter: for i := range 3 { for j := range 3 { if j > i { continue outer }; k++ } }\nk", value: "6"},
		{name: "loopvar_for", code: "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nfs[0]() + 10*fs[1]() + 100*fs[2]()", value: "210"},
		{name: "loopvar_range", code: "var gs []func() string\nfor _, w := range []string{\"x\", \"y\"} { gs = append(gs, func() string { return w }) }\ngs[0]() + gs[1]()", value: `"xy"`},
		{name: "loopvar_body_assign", code: "var hs []int\nfor i := 0; i < 6; i++ { if i%2 == 0 { i++ }; f := func() int { return i }; hs = append(hs, f()) }\nhs", value: "[1 3 5]"},
		{name: "commaok_map_toplevel", code: "v, ok := m2()\nfunc m2() (int, bool) { mm := map[string]int{\"k\": 7}; w, ok := mm[\"k\"]; return w, ok }\nmm := map[string]int{\"k\": 7}\nw, found := mm[\"k\"]\nw + v", value: "14"},
		{name: "commaok_found", code: `found && ok`, value: "true"},
		{name: "commaok_assert_toplevel", code: "var anyv any = 3\niv, isInt := anyv.(int)\nsv, isStr := anyv.(string)\nfmt.Sprint(iv, isInt, sv == \"\", isStr)", value: `"3 true true false"`},
		{name: "commaok_chan_toplevel", code: "cq := make(chan int, 1)\ncq <- 7\nr, open := <-cq\nclose(cq)\nr2, open2 := <-cq\n_, open3 := <-cq\nr2++\nfmt.Sprint(r, open, r2, open2, open3)", value: `"7 true 1 false false"`},
		{name: "commaok_chan_blank_ok", code: "cb := make(chan int, 1)\ncb <- 4\nq, _ := <-cb\nq", value: "4"},
		{name: "commaok_chan_recvonly_struct", code: "type cpair struct{ A, B int }\ncp := make(chan cpair, 1)\ncp <- cpair{1, 2}\nvar ro <-chan cpair = cp\npv, pok := <-ro\nfunc chans() chan string { c := make(chan string); close(c); return c }\nsv, sok := <-chans()\nfmt.Sprint(pv.A+pv.B, pok, sv == \"\", sok)", value: `"3 true true false"`},
		{name: "recv_toplevel_then_assign", code: "rq := make(chan int, 4)\nrq <- 1\nrq <- 2\nrq <- 3\nrq <- 4\nra := <-rq\nvar rb int\nrb = <-rq\nvar rc = <-rq\nrd, re := <-rq, 10\nra, rb, rc, rd = ra+10, rb+10, rc+10, rd+re\nfmt.Sprint(ra, rb, rc, rd)", value: `"11 12 13 14"`},
		{name: "commaok_in_if_toplevel", code: "if q, ok := mm[\"k\"]; ok { fmt.Print(q) }", out: "7"},
		{name: "switch_toplevel", code: "switch x := 2; x { case 2: fmt.Print(\"two\") }", out: "two"},
		{name: "generics", code: "func Map[T, U any](xs []T, f func(T) U) []U { var out []U; for _, x := range xs { out = append(out, f(x)) }; return out }\nMap[int, string]([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 10) })", value: "[10 20]"},
		{name: "generics_inference_from_func_arg", code: "Map([]int{1, 2}, func(i int) string { return fmt.Sprint(i) })", err: "cannot use type func(int) string"},
		{name: "closures_and_defer", code: "func tally() (n int) { defer func() { n *= 2 }(); n = 3; return }\ntally()", value: "6"},
		{name: "goroutines_channels", code: "ch := make(chan int)\ngo func() { for i := range 3 { ch <- i }; close(ch) }()\ngot := 0\nfor v := range ch { got += v }\ngot", value: "3"},
		{name: "select_stmt", code: "sc := make(chan string, 1)\nsc <- \"hi\"\nselect { case m := <-sc: fmt.Print(m) }", out: "hi"},
		{name: "embedded_methods", code: "type Base struct{ N int }\nfunc (b Base) Get() int { return b.N }\ntype Wrap struct{ Base }\nWrap{Base{7}}.Get()", value: "7"},
		{name: "interfaces", code: "type Shape interface{ Area() float64 }\ntype Sq struct{ S float64 }\nfunc (q Sq) Area() float64 { return q.S * q.S }\nvar sh Shape = Sq{3}\nsh.Area()", value: "9"},
		{name: "stdlib_sort", code: "import \"sort\"\nxs := []int{3, 1, 2}\nsort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })\nxs", value: "[1 2 3]"},
	})
}

func TestImportFmtFirst(t *testing.T) {
	s := newSession(t)
	runTable(t, s, []cellCase{{name: "import", code: `import "fmt"`}, {name: "use", code: `fmt.Sprint(1)`, value: `"1"`}})
}

// TestBridgesPassOrder runs cells whose rewrite depends on the order of the
// passes (kernel/session/testdata/rewrite/range-int-in-func.txtar): a
// function ranging over an int the same cell defines after it, and over
// min of constants.
func TestBridgesPassOrder(t *testing.T) {
	s := newSession(t)
	runTable(t, s, []cellCase{
		{name: "range_int_defined_later", code: "func upTo() int { t := 0; for i := range lim { t += i }; return t }\nlim := 5\nupTo()", value: "10"},
		{name: "range_min_in_func", code: "func few() int { c := 0; for range min(3, 5) { c++ }; return c }\nfew()", value: "3"},
	})
}
