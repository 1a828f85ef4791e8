package session

import (
	"strings"
	"testing"
)

// TestNotebook runs a table of cells against one shared session, as a
// notebook does: each cell sees the state the cells before it left.
func TestNotebook(t *testing.T) {
	s := newSession(t)
	cells := []struct {
		code   string
		stdout string // expected stdout (exact)
		stderr string // substring of stderr
		value  string // expected text/plain of the value ("" = no value)
		err    string // substring of "Name: Value" of the error
	}{
		{code: `x := 40`},
		{code: `x + 2`, value: "42"},
		{code: `import "fmt"
fmt.Println("hi", x)`, stdout: "hi 40\n"},
		{code: `func double(n int) int { return 2 * n }
y := double(x)
y`, value: "80"},
		{code: `"a\tb"`, value: `"a\tb"`},
		{code: `type P struct{ X, Y int }
func (p P) Sum() int { return p.X + p.Y }
p := P{1, 2}
p.Sum()`, value: "3"},
		{code: `p`, value: "{1 2}"},
		{code: `fmt.Println(p.Sum())`, stdout: "3\n"},
		{code: `undefinedThing + 1`, err: "CompileError: cell[9]:1:1: undefined: undefinedThing"},
		{code: "z := 1\nz = \"s\"", err: "CompileError: cell[10]:2:"},
		{code: `println("from println")`, stderr: "from println\n"}, // Go writes println to standard error
		{code: `import "os"
os.Stdout.Write([]byte("raw\n"))
os.Stderr.Write([]byte("to stderr\n"))`, stdout: "raw\n", stderr: "to stderr"},
		{code: `import "log"
log.SetFlags(0)
log.Println("logged")`, stderr: "logged"},
		{code: `var arr []int
func get(i int) int { return arr[i] }
get(3)`, err: "(in the function at cell[14]:2:"},
		{code: `x`, value: "40"},
	}
	for i, c := range cells {
		count := i + 1
		res, rec := exec(t, s, count, c.code)
		name := strings.SplitN(c.code, "\n", 2)[0]
		if c.err != "" {
			if res.Err == nil {
				t.Errorf("cell %d %q: no error, want %q", count, name, c.err)
				continue
			}
			if got := res.Err.Error(); !strings.Contains(got, c.err) {
				t.Errorf("cell %d %q: error %q, want it to contain %q\ntraceback: %q", count, name, got, c.err, res.Err.Traceback)
			}
			continue
		}
		if res.Err != nil {
			t.Errorf("cell %d %q: unexpected error %v\n%s", count, name, res.Err, strings.Join(res.Err.Traceback, "\n"))
			continue
		}
		if got := rec.Text("stdout"); got != c.stdout {
			t.Errorf("cell %d %q: stdout %q, want %q", count, name, got, c.stdout)
		}
		if got := rec.Text("stderr"); !strings.Contains(got, c.stderr) {
			t.Errorf("cell %d %q: stderr %q, want it to contain %q", count, name, got, c.stderr)
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
