package session

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

// TestCellTypesNative: values of types declared in cells reach native code
// (fmt, encoding/json, errors, the panic report, the value renderer) and
// come out as Go prints them (go run gives the same, diff corpus i12b_*).
func TestCellTypesNative(t *testing.T) {
	s := newSession(t)
	decls := "import (\"encoding/json\"; \"errors\"; \"fmt\"; \"image\"; \"image/color\")\n" +
		"type Inner struct { A int `json:\"a\"`; secret string }\n" +
		"type Point struct{ X, Y int }\n" +
		"func (p Point) String() string { return fmt.Sprintf(\"(%d,%d)\", p.X, p.Y) }\n" +
		"type Code struct{ N int; Why string }\n" +
		"func (c Code) Error() string { return fmt.Sprint(\"code \", c.N) }\n" +
		"type Missing struct{ Name string }\n" +
		"func (m *Missing) Error() string { return m.Name + \" missing\" }\n" +
		"var ErrGone = &Missing{\"gone\"}\n" +
		"type Twin1 struct{ V int }\ntype Twin2 struct{ V int }\n" +
		"type Checker struct{ N int }\n" +
		"func (c Checker) ColorModel() color.Model { return color.GrayModel }\n" +
		"func (c Checker) Bounds() image.Rectangle { return image.Rect(0, 0, c.N, c.N) }\n" +
		"func (c Checker) At(x, y int) color.Color { return color.Gray{uint8(255 * ((x + y) % 2))} }"
	if res, _ := exec(t, s, 1, decls); res.Err != nil {
		t.Fatal(res.Err.Value, res.Err.Traceback)
	}
	for i, c := range []struct{ name, code, stdout, value, err string }{
		{name: "type_name", code: `fmt.Printf("%T %T %T\n", Inner{}, []*Inner{}, map[string]Point{})`, stdout: "main.Inner []*main.Inner map[string]main.Point\n"},
		{name: "unexported_field_names", code: `in := Inner{1, "s"}; fmt.Printf("%v %+v %#v\n", in, in, in)`, stdout: "{1 s} {A:1 secret:s} main.Inner{A:1, secret:\"s\"}\n"},
		{name: "stringer_in_composites", code: `fmt.Println([]Point{{1, 2}}, map[int]Point{1: {3, 4}}, []*Point{{5, 6}}, struct{ P Point }{Point{7, 8}})`, stdout: "[(1,2)] map[1:(3,4)] [(5,6)] {(7,8)}\n"},
		{name: "error_in_composites", code: `fmt.Println(fmt.Sprint([]Code{{1, "a"}, {2, "b"}}), []any{Code{3, "c"}, 4})`, stdout: "[code 1 code 2] [code 3 4]\n"},
		{name: "value_of_composite", code: `[]Point{{1, 2}, {3, 4}}`, value: "[(1,2) (3,4)]"},
		{name: "json_omits_unexported", code: `b, _ := json.Marshal([]Inner{{1, "s"}}); string(b)`, value: `"[{\"a\":1}]"`},
		{name: "errors_as_pointer", code: `var m *Missing; err := fmt.Errorf("w: %w", &Missing{"cfg"}); fmt.Println(errors.As(err, &m), m.Name, errors.Is(fmt.Errorf("x: %w", ErrGone), ErrGone))`, stdout: "true cfg true\n"},
		{name: "errors_as_wrapped_value", code: `var c Code; fmt.Println(errors.As(fmt.Errorf("w: %w", Code{7, "x"}), &c), c.N)`, stdout: "true 7\n"},
		{name: "errors_as_lost_value", code: `func mk() error { return Code{1, "y"} }; var c2 Code; errors.As(mk(), &c2)`, err: "declare the method on the pointer"},
		{name: "panic_error_value", code: `panic(Code{9, "z"})`, err: "code 9"},
		{name: "panic_stringer_value", code: `panic(Point{1, 2})`, err: "(1,2)"},
		{name: "panic_plain_struct", code: `panic(Inner{3, "q"})`, err: "(main.Inner) {A:3 secret:q}"},
		{name: "type_name_of_error", code: `var pe error = &Missing{"x"}; fmt.Printf("%T %T\n", pe, fmt.Errorf("w: %w", pe))`, stdout: "*main.Missing *fmt.wrapError\n"},
		{name: "assert_error", code: `var x any = Code{4, "w"}; e, ok := x.(error); fmt.Println(e, ok, x.(error).Error())`, stdout: "code 4 true code 4\n"},
		{name: "assert_error_not", code: `var y any = 4; _, ok2 := y.(error); fmt.Println(ok2)`, stdout: "false\n"},
		{name: "assert_error_panics", code: `var y2 any = 4; y2.(error)`, err: "interface conversion: int is not error: missing method Error"},
		{name: "type_switch_case_error", code: "func kind(x any) string {\n\tswitch v := x.(type) {\n\tcase string:\n\t\treturn \"string\"\n" +
			"\tcase error:\n\t\treturn \"error \" + v.Error()\n\tcase int:\n\t\treturn \"int\"\n\t}\n\treturn \"other\"\n}\n" +
			`fmt.Println(kind(Code{1, ""}), kind(&Missing{"m"}), kind(errors.New("n")), kind(3), kind("s"), kind(nil))`,
			stdout: "error code 1 error m missing error n int string other\n"},
		// same-shaped cell types share the interpreter's reflect type:
		// printed as the interpreter does (docs/compatibility.md)
		{name: "same_shape_types", code: `fmt.Printf("%T\n", Twin1{})`, stdout: "struct { V int }\n"},
		{name: "same_shape_types_rerun", code: "type Twin1 struct{ V int }\nfmt.Printf(\"%T\\n\", Twin1{})", stdout: "struct { V int }\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, rec := exec(t, s, i+2, c.code)
			if c.err != "" {
				if res.Err == nil || !strings.HasPrefix(res.Err.Value, c.err) && !strings.Contains(res.Err.Value, c.err) {
					t.Fatalf("error %v, want one with %q", res.Err, c.err)
				}
				return
			}
			if res.Err != nil {
				t.Fatal(res.Err.Value, res.Err.Traceback)
			}
			if got := rec.Text("stdout"); got != c.stdout {
				t.Errorf("stdout %q, want %q", got, c.stdout)
			}
			if c.value != "" && (res.Value == nil || res.Value.Bundle["text/plain"] != c.value) {
				t.Errorf("value %v, want %s", res.Value, c.value)
			}
		})
	}
	t.Run("image_value_drawn", func(t *testing.T) {
		res, _ := exec(t, s, 50, "Checker{4}")
		if res.Err != nil || res.Value == nil {
			t.Fatalf("no value: %v", res.Err)
		}
		if got := res.Value.Bundle["text/plain"]; got != "<image 4x4 main.Checker>" {
			t.Errorf("text/plain %v", got)
		}
		b, _ := res.Value.Bundle["image/png"].([]byte)
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("no image/png: %v", err)
		}
		if r, _, _, _ := img.At(1, 0).RGBA(); r != 0xffff || img.Bounds().Dx() != 4 {
			t.Errorf("image %v, pixel (1,0) = %v: not the checker", img.Bounds(), r)
		}
	})
}

// TestStringerOperandVerbs: an operand whose type has String reaches fmt
// wrapped by the interpreter; for the verbs where Go does not call String
// (%d, %#v) the session gives fmt the value the wrapper holds, when no
// cell struct could have lent it (go run prints the same).
func TestStringerOperandVerbs(t *testing.T) {
	s := newSession(t)
	code := "import \"fmt\"\ntype Weekday int\nfunc (d Weekday) String() string { return [...]string{\"Sun\", \"Mon\", \"Tue\"}[d] }\n" +
		"type Name struct{ S string }\nfunc (n *Name) String() string { return \"N:\" + n.S }\n" +
		"d := Weekday(2)\nfmt.Printf(\"%v %d %s %x|%#v|%5d|%q\\n\", d, d, d, d, d, d, d)\n" +
		"n := &Name{\"a\"}\nfmt.Printf(\"%v %T %+v %d\\n\", n, n, n, n)"
	res, rec := exec(t, s, 1, code)
	if res.Err != nil {
		t.Fatal(res.Err.Value, res.Err.Traceback)
	}
	if got, want := rec.Text("stdout"), "Tue 2 Tue 547565|2|    2|\"Tue\"\nN:a *main.Name N:a &{%!d(string=a)}\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
