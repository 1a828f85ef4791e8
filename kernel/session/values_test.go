package session

import (
	"strings"
	"testing"
)

// TestSelfReferentialValues: a map or slice that contains itself, as the
// cell's value or printed with fmt, is shown with <cycle> where it repeats;
// the kernel does not die of a stack overflow.
func TestSelfReferentialValues(t *testing.T) {
	s := newSession(t)
	res, _ := exec(t, s, 1, "import \"fmt\"\nm := map[string]any{\"a\": 1}\nm[\"self\"] = m\nm")
	if res.Err != nil || !strings.Contains(res.Value.Bundle["text/plain"].(string), "self:<cycle>") {
		t.Fatalf("map value: %v %v", res.Err, res.Value)
	}
	res, rec := exec(t, s, 2, "l := []any{1, nil}\nl[1] = l\nfmt.Println(l)\ns := fmt.Sprint(m)\nlen(s) > 0")
	if res.Err != nil || rec.Text("stdout") != "[1 <cycle>]\n" {
		t.Fatalf("printed slice: %v %q", res.Err, rec.Text("stdout"))
	}
	res, rec = exec(t, s, 3, "fmt.Println(map[string]int{\"b\": 2, \"a\": 1}, []int{1, 2})")
	if res.Err != nil || rec.Text("stdout") != "map[a:1 b:2] [1 2]\n" {
		t.Fatalf("ordinary values: %v %q", res.Err, rec.Text("stdout"))
	}
}

// TestCellTypeValues: a cell type's String and Error methods give the
// cell's value, as fmt would print it; print and println write to
// standard error in Go's format; recover gives a cell type's panic value.
func TestCellTypeValues(t *testing.T) {
	s := newSession(t)
	runTable(t, s, []cellCase{
		{name: "stringer", code: "import \"fmt\"\ntype T struct{ A int }\nfunc (t T) String() string { return fmt.Sprintf(\"T<%d>\", t.A) }\nT{1}", value: "T<1>"},
		{name: "error_value", code: "type E struct{ msg string }\nfunc (e E) Error() string { return \"E: \" + e.msg }\nE{\"bad\"}", value: "E: bad"},
		{name: "recover_cell_type", code: "func g() (err error) {\n\tdefer func() {\n\t\tif e, ok := recover().(E); ok {\n\t\t\terr = e\n\t\t}\n\t}()\n\tpanic(E{\"typed\"})\n}\nfmt.Println(g())", out: "E: typed\n"},
	})
	res, rec := exec(t, s, 9, "println(\"x\", 1, 2.5, true)\nprint(\"a\", 1, \"\\n\")")
	if res.Err != nil || rec.Text("stdout") != "" || rec.Text("stderr") != "x 1 +2.500000e+000 true\na1\n" {
		t.Errorf("println: %v stdout %q stderr %q", res.Err, rec.Text("stdout"), rec.Text("stderr"))
	}
}
