package assist

import (
	"testing"
)

// TestEveryCursor: completion and inspection at every position of cells
// of every shape (unfinished, invalid, magics, strings, comments) answer
// without a panic.
func TestEveryCursor(t *testing.T) {
	a, _ := newTestAssistant(t, "import \"fmt\"\ntype P struct{ X int }\nfunc (p *P) M() {}\nv := &P{}")
	cells := []string{
		"for i := range 3 {\n\tfmt.Println(v.X, i)\n}",
		"x := []int{1, 2}\nx[0].",
		"func g[T any](t T) T { return t }\ng[int](1)",
		"s := `raw\n\"q\" // c\n/* open",
		"%timeit -n 3 v.M()\n%%time\nv.",
		"import (\n\t\"strings\"\n\tjs \"encoding/json\"\n)\njs.Mar",
		"switch y := v.(type) {\ncase *P:\n\ty.",
		"}}}{{{))((",
		"type Q interface{ P; M() }\nvar q Q\nq.",
		"ch := make(chan int)\nselect {\ncase n := <-ch:\n\tn.",
	}
	for _, code := range cells {
		for cur := 0; cur <= len(code); cur++ {
			a.Complete(code, cur)
			a.Inspect(code, cur, cur%2)
			a.MissingImports(code[:cur])
			if f := a.Failure(); f != "" {
				t.Fatalf("%q at %d: %s", code, cur, f)
			}
		}
	}
}
