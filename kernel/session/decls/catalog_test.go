package decls

import (
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// run notes cell n as the engine does when it ran without an error.
func run(t *testing.T, c *Catalog, n int, code string) (redefined []string) {
	t.Helper()
	pc, err := cell.Parse(token.NewFileSet(), cell.Cell{N: n, Code: code})
	if err != nil {
		t.Fatal(err)
	}
	if e := c.DropReimports(pc); e != nil {
		t.Fatal(e)
	}
	types, e := c.CheckTypeRedefs(pc)
	if e != nil {
		t.Fatal(e)
	}
	redefined = c.NoteFuncSources(pc, n)
	if pc.Decls != nil {
		c.NoteFuncs(pc.Decls, n)
		c.NoteDecls(pc.Decls, pc.Fset)
		c.NoteTypes(pc.Decls, types)
	}
	return redefined
}

// A redefined function's callers are declared again callees first: h
// calls g calls f; redefining f gives g then h, and leaves out k.
func TestStaleCallersCalleesFirst(t *testing.T) {
	c := New(nil)
	run(t, c, 1, "func f() int { return 1 }\nfunc g() int { return f() }\nfunc h() int { return g() + f() }\nfunc k() int { return 3 }")
	if got := run(t, c, 2, "func f() int { return 2 }"); !reflect.DeepEqual(got, []string{"f"}) {
		t.Fatalf("redefined %q, want [f]", got)
	}
	var names []string
	for _, f := range c.Stale([]string{"f"}) {
		names = append(names, f.Name)
		if f.Cell != 1 || !strings.HasPrefix(f.Code, "func "+f.Name) {
			t.Errorf("%s: cell %d, code %q", f.Name, f.Cell, f.Code)
		}
	}
	if !reflect.DeepEqual(names, []string{"g", "h"}) {
		t.Errorf("stale callers %q, want [g h]", names)
	}
	if n, ok := c.FuncCell("f"); !ok || n != 2 {
		t.Errorf("f declared in cell %d (%v), want 2", n, ok)
	}
}

// Imports: again under the same name is dropped, under a name bound to
// another path is an error; a type redefined differently is an error.
func TestImportsAndTypes(t *testing.T) {
	c := New(nil)
	run(t, c, 1, "import \"strings\"\ntype P struct{ X int }\nfunc (p P) Norm() int { return p.X }")
	pc, _ := cell.Parse(token.NewFileSet(), cell.Cell{N: 2, Code: "import \"strings\"\nx := strings.ToUpper(\"a\")"})
	if e := c.DropReimports(pc); e != nil || pc.Decls != nil {
		t.Errorf("a second import of strings: %v, decls left %v", e, pc.Decls)
	}
	pc, _ = cell.Parse(token.NewFileSet(), cell.Cell{N: 3, Code: "import strings \"bytes\""})
	if e := c.DropReimports(pc); e == nil || !strings.Contains(e.Value, `the name strings is already the package "strings"`) {
		t.Errorf("strings bound to bytes: %v", e)
	}
	pc, _ = cell.Parse(token.NewFileSet(), cell.Cell{N: 4, Code: "type P struct{ X, Y int }"})
	if _, e := c.CheckTypeRedefs(pc); e == nil || !strings.Contains(e.Value, "type P is already defined by an earlier cell, differently") {
		t.Errorf("P redefined: %v", e)
	}
	if got := c.MethodsOf("P"); !reflect.DeepEqual(got, []string{"Norm"}) {
		t.Errorf("methods of P %q", got)
	}
	if p, ok := c.Imported("strings"); !ok || p != "strings" {
		t.Errorf("strings imported as %q, %v", p, ok)
	}
}
