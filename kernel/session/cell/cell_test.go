package cell

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestSegments(t *testing.T) {
	cases := []struct {
		code string
		want []string // kind:text (Go: padded code; magics: name|args|body)
	}{
		{"x := 1\nx", []string{"go:x := 1\nx"}},
		{"%timeit -n 3 f()", []string{"line:timeit|-n 3 f()|"}},
		{"a := 1\n_ = a\n  %timeit  g(a) \nb := 2\n\nb", []string{"go:a := 1\n_ = a", "line:timeit|g(a)|", "go:\n\n\nb := 2\n\nb"}},
		{"\n%%timeit -r 2 setup()\nbody()\nmore()", []string{"cell:timeit|-r 2 setup()|body()\nmore()"}},
		{"%%time", []string{"cell:time||"}},
		{"%env A=1\n\n%lsmagic", []string{"line:env|A=1|", "line:lsmagic||"}},
		{"%timeit?", []string{"line:timeit?||"}},
		// Shell lines: "!" in the first column; an indented !x or x != y is Go.
		{"!ls -l\nx := 1\n!echo  hi ", []string{"line:system|ls -l|", "go:\nx := 1", "line:system|echo  hi|"}},
		{"ok := !a ||\n\t!b\nok", []string{"go:ok := !a ||\n\t!b\nok"}},
		{"!", []string{"go:!"}},
		{"!= 2", []string{"go:!= 2"}},
		// A shell line ending in \ goes on on the next line.
		{"!go env \\\n  GOOS \\\n  GOARCH\nx := 1", []string{"line:system|go env \\\n  GOOS \\\n  GOARCH|", "go:\n\n\nx := 1"}},
		// GoNB's main cells are Go: the marker line is main's first line.
		{"%%\nfmt.Println(1)", []string{"go:%%\nfmt.Println(1)"}},
		{"\n//gonb:%%\nx := 1", []string{"go:\n//gonb:%%\nx := 1"}},
		{"%main\nf()", []string{"go:%main\nf()"}},
		{"%%time\nf()", []string{"cell:time||f()"}},
	}
	for _, c := range cases {
		cl := &Cell{N: 3, Code: c.code}
		var got []string
		for _, s := range Segments(cl) {
			switch s.Kind {
			case Go:
				got = append(got, "go:"+s.Span.Padded().Code)
			case LineMagic:
				got = append(got, "line:"+s.Name+"|"+s.Args+"|"+s.Body.Text())
			case CellMagic:
				got = append(got, "cell:"+s.Name+"|"+s.Args+"|"+s.Body.Text())
			}
		}
		if strings.Join(got, "¶") != strings.Join(c.want, "¶") {
			t.Errorf("Segments(%q)\n got %q\nwant %q", c.code, got, c.want)
		}
	}
}

// Locate places a magic's code at its own line and column: in the magic's
// line (the last occurrence: options come first), else in a cell magic's
// body, else at the start of the magic's line.
func TestLocate(t *testing.T) {
	cases := []struct{ code, text, want string }{
		{"%timeit -n 3 x := x", "x := x", "cell[5]:1:14"},
		{"a := 1\n  %timeit a + 1", "a + 1", "cell[5]:2:11"},
		{"%%timeit -n 2 y := 1\nx := 1\n_ = x + y", "_ = x + y", "cell[5]:3:1"},
		{"%%timeit -n 2 y := 1\n_ = y", "y := 1", "cell[5]:1:15"},
		{"\n %time f()", "nowhere", "cell[5]:2:1"},
		{"%time f()", "", "cell[5]:1:1"},
	}
	for _, c := range cases {
		segs := Segments(&Cell{N: 5, Code: c.code})
		seg := segs[len(segs)-1]
		if got := seg.Locate(c.text).String(); got != c.want {
			t.Errorf("Locate(%q) in %q = %s, want %s", c.text, c.code, got, c.want)
		}
	}
}

func TestPositions(t *testing.T) {
	c := &Cell{N: 2, Code: "ab\ncdé\nf"}
	if got := c.Pos(4).String(); got != "cell[2]:2:2" {
		t.Errorf("Pos(4) = %s", got)
	}
	if got := c.Pos(99).String(); got != "cell[2]:3:2" {
		t.Errorf("Pos past the end = %s", got)
	}
	if got := (Pos{Line: 3, Col: 7}).Directive(); got != "//line _.go:3:7\n" {
		t.Errorf("Directive = %q", got)
	}
	for msg, want := range map[string]string{
		"_.go:3:5: undefined: x":                         "cell[2]:3:5: undefined: x",
		"3:5: undefined: x":                              "cell[2]:3:5: undefined: x",
		"x redeclared; previous declaration at _.go:1:6": "x redeclared; previous declaration at cell[2]:1:6",
		"no position here: 3:5":                          "no position here: 3:5",
	} {
		if got := Message(2, msg); got != want {
			t.Errorf("Message(%q) = %q, want %q", msg, got, want)
		}
	}
}

func TestError(t *testing.T) {
	e := Errorf(Panic, "boom in %s: %w", "f", io.EOF).Trace("    at cell[1]:2:3")
	if e.Value != "boom in f: EOF" || e.Error() != "Panic: boom in f: EOF" {
		t.Errorf("message %q / %q", e.Value, e.Error())
	}
	if want := []string{"Panic: boom in f: EOF", "    at cell[1]:2:3"}; strings.Join(e.Traceback, "|") != strings.Join(want, "|") {
		t.Errorf("traceback %q", e.Traceback)
	}
	var err error = fmt.Errorf("%%timeit: %w", e)
	var ce *Error
	if !errors.Is(err, Panic) || errors.Is(err, Timeout) || !errors.As(err, &ce) || ce != e || !errors.Is(err, io.EOF) {
		t.Errorf("errors.Is/As through a wrap: Is(Panic) %v, Is(Timeout) %v, As %v, Is(EOF) %v",
			errors.Is(err, Panic), errors.Is(err, Timeout), errors.As(err, &ce), errors.Is(err, io.EOF))
	}
}

func TestNearest(t *testing.T) {
	names := []string{"timeit", "time", "compare", "lsmagic", "Println", "Printf", "Print"}
	for name, want := range map[string]string{"timit": "timeit time", "tim": "time timeit", "Printn": "Print Printf Println", "zzz": ""} {
		if got := strings.Join(Nearest(name, names), " "); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestIsCompleteElse: a cell ending in else waits for its block.
func TestIsCompleteElse(t *testing.T) {
	for code, want := range map[string]string{
		"if x > 1 {\n} else":           "incomplete",
		"if x > 1 {\n} else {\n}":      "complete",
		"if x > 1 {\n} else if y {\n}": "complete",
	} {
		if got, _ := IsComplete(code); got != want {
			t.Errorf("IsComplete(%q) = %s, want %s", code, got, want)
		}
	}
}
